// The discrete-event engine: replays profiled jobs on a cluster under a queue, a placement policy
// and a contention model (mosim-reference.md §4–§6).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mosim/cluster.hpp"
#include "mosim/contention.hpp"
#include "mosim/profile.hpp"
#include "mosim/results.hpp"

namespace mosim {

struct SimulationConfig {
  ClusterSpec cluster;
  std::string placement = "k8s-load-balancing";
  std::string queue = "fifo";
  std::string contention = "mosim";
  ContentionParams contention_params;
  /// The unit in which contention arithmetic is done (see NetworkState): the unit of the network
  /// profile, so that rates are used exactly as the file gives them. MB/s by default.
  double rate_unit_Bps = 1e6;
};

/// Called now and then during a run with (jobs finished, jobs in total).
using ProgressCallback = std::function<void(std::size_t done, std::size_t total)>;

struct SimulationResult {
  std::vector<JobResult> jobs;   ///< one per input job, in job-id order
  std::uint64_t events = 0;      ///< events processed
  double wall_seconds = 0;
  std::vector<std::string> warnings;  ///< e.g. jobs skipped because they can never fit
};

/// Runs one simulation. Deterministic: simultaneous events are ordered by (time, event priority,
/// job id). Throws std::invalid_argument for unknown policy or model names.
SimulationResult simulate(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config,
                          const ProgressCallback& progress = {});

}  // namespace mosim
