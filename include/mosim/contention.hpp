// Contention models: how much co-running jobs slow a job's networking time.
#pragma once

#include <algorithm>
#include <memory>
#include <span>
#include <string>

#include "mosim/network.hpp"
#include "mosim/registry.hpp"

namespace mosim {

/// Job-level models are evaluated when a job starts or completes and hold between those events
/// (paper Eq. 2–5). Phase-level models simulate every iteration's compute and communication phase
/// and are evaluated at every phase boundary; only communicating jobs demand bandwidth.
enum class ContentionGranularity { Job, Phase };

struct ContentionParams {
  double fixed_ratio = 0.10;          ///< `fixed`: penalty on network time while sharing a server
  double min_bandwidth_Bps = 10e6;    ///< MIN_BW of Eq. 9, the floor of an allocation
};

class ContentionModel {
 public:
  virtual ~ContentionModel() = default;
  virtual ContentionGranularity granularity() const = 0;
  /// S_J >= 1, the factor on job J's network time under the current network state. Called only for
  /// jobs that are demanding bandwidth. It may depend only on the state of the job's own servers
  /// (their jobs, demands and capacities): the engine reuses a factor until one of them changes.
  virtual double slowdown(const NetworkState& network, JobIndex job) const = 0;
  /// slowdown() of each job, into factors[i] for jobs[i]: the exact phase-level mode asks for
  /// every communicating job's at every update. The default asks one by one.
  virtual void slowdowns(const NetworkState& network, std::span<const JobIndex> jobs,
                         std::span<double> factors) const;
  /// Whether the jobs placed on a server can slow each other down there, whatever phases they are
  /// in. Fast-forward treats jobs as independent across servers where this is false; the default
  /// says they always can.
  virtual bool canCongest(const NetworkState& network, ServerIndex s) const;
};

using ContentionRegistry = Registry<ContentionModel, const ContentionParams&>;

/// Builds a registered model ("none", "fixed", "paper", "mosim", ...).
std::unique_ptr<ContentionModel> makeContentionModel(const std::string& name,
                                                     const ContentionParams& params);

/// The NIC factor D_s / max(A_s, MIN_BW) of a job's share of a server (Eq. 9), or 1 where that is
/// at most 1 because the NIC is not oversubscribed (A_s = D_s): Eq. 10 takes max(1, ...) anyway,
/// and most of a large cluster's NICs are not.
inline double nicFactor(const NetworkState& network, const ServerShare& share,
                        double min_bandwidth_ru) {
  if (!network.oversubscribed(share.server)) return 1;
  return share.nic_demand_ru / std::max(network.allocated_ru(share), min_bandwidth_ru);
}

/// The largest NIC factor over the job's servers (Eq. 10), at least 1. When the job demands the
/// same D on each of its servers, D / max(D * share, MIN_BW) only falls as the server's share
/// grows, and rounding keeps that order, so the largest factor is exactly the one at the smallest
/// share: one division instead of one per server.
inline double nicSlowdown(const NetworkState& network, JobIndex job, double min_bandwidth_ru) {
  const auto& shares = network.shares(job);
  if (network.uniformNicDemand(job)) {
    double smallest = 1;
    for (const auto& share : shares) smallest = std::min(smallest, network.nicShare(share.server));
    if (smallest == 1) return 1;
    const double demand_ru = shares.front().nic_demand_ru;
    return std::max(1.0, demand_ru / std::max(demand_ru * smallest, min_bandwidth_ru));
  }
  double slowdown = 1;
  for (const auto& share : shares)
    slowdown = std::max(slowdown, nicFactor(network, share, min_bandwidth_ru));
  return slowdown;
}

}  // namespace mosim
