// Per-job results, from a simulation or from ground truth.
#pragma once

#include <cmath>
#include <string>

#include "mosim/cluster.hpp"
#include "mosim/job.hpp"

namespace mosim {

enum class JobStatus { Completed, Unplaceable };
const char* toString(JobStatus status);

/// One job's outcome. Fields a source does not know (ground truth has no compute split) are NaN.
struct JobResult {
  JobId id = 0;
  std::string model;
  int num_gpus = 0;
  Allocation servers;  ///< one entry per worker, in placement order
  double submit_s = NAN;
  double start_s = NAN;     ///< placement time (loading starts here)
  double end_s = NAN;
  double wait_s = NAN;      ///< start - submit
  double training_s = NAN;  ///< end - start = loading + compute + communication
  double jct_s = NAN;       ///< end - submit
  double compute_s = NAN;
  double comm_s = NAN;
  double loading_s = NAN;
  double iterations = NAN;  ///< iterations run (fractional in job-level models)
  JobStatus status = JobStatus::Completed;
};

}  // namespace mosim
