// The discrete-event engine: replays profiled jobs on a cluster under a queue, a placement policy
// and a contention model (mosim-reference.md §4–§6).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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
  /// Phase-level models only. 0 simulates every phase exactly (the reference). A positive value
  /// enables fast-forward: a group of jobs that share servers, once its pattern repeats or its
  /// members' mean iteration times agree within this fraction between two windows, advances at
  /// those rates without phase events until something changes on its servers or a member nears
  /// completion (see fast_forward.cpp).
  double fast_forward_tolerance = 0;
  /// Fast-forward: the most interacting jobs measured as one group. The jobs of a larger group
  /// (a busy cluster's often form one) are measured one by one against their neighbours' mean
  /// demand: much faster, but tens of percent off on busy traces (experiments/performance).
  std::size_t fast_forward_group = 64;
  /// For tests: recompute every contention factor at every update instead of only those of jobs
  /// on servers that changed. Results are identical either way.
  bool full_recompute = false;
  /// For tests: keep the exact phase-level mode's phase ends in the event queue, as the other
  /// modes do, instead of in dense arrays scanned for the earliest. Results are identical.
  bool queue_phase_ends = false;
  /// Heterogeneous clusters: when a job that asks for no GPU type is placed on GPUs of other types
  /// than its profile was made for, it is profiled again for each of them and runs at the pace of
  /// the slowest (its iteration count stays). Without a source, profiles never change.
  std::shared_ptr<const ProfileSource> placement_profiles;
};

/// Called now and then during a run with (jobs finished, jobs in total).
using ProgressCallback = std::function<void(std::size_t done, std::size_t total)>;

struct SimulationResult {
  std::vector<JobResult> jobs;   ///< one per input job, in job-id order
  std::uint64_t events = 0;      ///< events processed
  std::uint64_t fast_forwards = 0;  ///< jumps made by fast-forward
  double wall_seconds = 0;
  std::vector<std::string> warnings;  ///< e.g. jobs skipped because they can never fit
};

/// Runs one simulation. Deterministic: simultaneous events are ordered by (time, event priority,
/// job id). Throws std::invalid_argument for unknown policy or model names.
SimulationResult simulate(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config,
                          const ProgressCallback& progress = {});

}  // namespace mosim
