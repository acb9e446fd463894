// A job of the trace: what a production trace records plus the workload attached to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mosim {

using JobId = std::int64_t;
/// Position of a job in a simulation: jobs are numbered 0..n-1 in job-id order.
using JobIndex = std::uint32_t;

/// The workload description a trace lacks and augmentation attaches (paper §IV-A1), beyond the
/// model name. Empty strings and zeros mean "not known". Profiles are keyed by model and GPU
/// count only, for now; these fields travel with the job for characterization and for output.
struct WorkloadDetails {
  std::string dataset;        ///< e.g. "imagenet"
  int batch_per_gpu = 0;      ///< mini-batch per GPU worker (global batch = workers x this)
  std::string framework;      ///< e.g. "pytorch"
  std::string collective;     ///< collective algorithm, e.g. "ring"
};

struct Job {
  JobId id = 0;
  std::string model;         ///< canonical model name (e.g. "bert"); empty when the trace has none
  double submit_s = 0;       ///< submission (arrival) time
  int num_gpus = 0;          ///< GPU workers, one GPU each
  double duration_s = 0;     ///< standalone run time reported by the trace
  int cpus_per_worker = 0;   ///< CPU cores each worker takes (the artifact traces say 5)
  std::size_t source_line = 0;  ///< line in the trace file, for error messages
  // Optional, added with the workload sources; default-initialised so that the brace
  // initialisers of the seven fields above stay valid.
  std::string name = {};        ///< the trace's own id when it is not a number (Philly, Helios...)
  std::string gpu_type = {};    ///< requested GPU type (a knownGpuTypes() name); empty = any
  WorkloadDetails workload = {};
};

/// What a reader (or another step that can drop jobs) did: how many jobs it kept and how many it
/// skipped, by reason. No job is ever dropped without being counted here.
struct TraceReport {
  std::string source;  ///< e.g. "trace.json (philly-json)"
  std::size_t kept = 0;
  std::map<std::string, std::size_t> skipped;  ///< reason -> jobs
  /// "FILE:LINE: job NAME: reason" for the first few jobs of each reason, as warnings.
  std::vector<std::string> examples;

  static constexpr std::size_t kExamplesPerReason = 3;
  /// Counts a skipped job; keeps the example text for the first few of each reason.
  void skip(const std::string& reason, const std::string& example);
  std::size_t skippedTotal() const;
  /// One line: "SOURCE: 10 jobs kept, 3 skipped (2 status Killed, 1 no attempts)".
  std::string summary() const;
  /// Its second half: "3 skipped (2 status Killed, 1 no attempts)" or "none skipped".
  std::string skippedSummary() const;
};

struct Trace {
  std::string path;  ///< where the jobs came from, for error messages
  std::vector<Job> jobs;
  TraceReport report = {};  ///< what the reader kept and skipped
};

/// The artifact names models by workload id (workload_02) in some files and by name (bert) in
/// others (mosim-reference.md §2.2). Returns the name for a known workload id, else the input.
std::string canonicalModelName(const std::string& name);

}  // namespace mosim
