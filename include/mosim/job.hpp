// A job of the trace: what a production trace records plus the workload attached to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mosim {

using JobId = std::int64_t;
/// Position of a job in a simulation: jobs are numbered 0..n-1 in job-id order.
using JobIndex = std::uint32_t;

struct Job {
  JobId id = 0;
  std::string model;         ///< canonical model name (e.g. "bert"); empty when the trace has none
  double submit_s = 0;       ///< submission (arrival) time
  int num_gpus = 0;          ///< GPU workers, one GPU each
  double duration_s = 0;     ///< standalone run time reported by the trace
  int cpus_per_worker = 0;   ///< CPU cores each worker takes (the artifact traces say 5)
  std::size_t source_line = 0;  ///< line in the trace file, for error messages
};

struct Trace {
  std::string path;  ///< where the jobs came from, for error messages
  std::vector<Job> jobs;
};

/// The artifact names models by workload id (workload_02) in some files and by name (bert) in
/// others (mosim-reference.md §2.2). Returns the name for a known workload id, else the input.
std::string canonicalModelName(const std::string& name);

}  // namespace mosim
