// Who uses each server's NIC: the state that contention models read (mosim-reference.md §7.0–7.1).
//
// Rates here are in "rate units" (suffix _ru), not bytes per second: the unit the network profile
// was given in (MB/s for the artifact's ASTRA-sim file, MiB/s for its real-GPU file). Contention
// factors are ratios, so the unit changes nothing physically; but the phase-level model amplifies
// last-bit differences, and computing with the file's own numbers keeps mosim bit-compatible with
// the artifact, which uses them as they are.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "mosim/cluster.hpp"
#include "mosim/job.hpp"

namespace mosim {

/// One job's part of one server.
struct ServerShare {
  ServerIndex server = 0;
  int workers = 0;             ///< n_s: the job's workers on this server
  double nic_demand_ru = 0;    ///< D_s (Eq. 7): 0 inside one server, C_j/2 for N = 2, else 2C_j/N
  double intra_demand_ru = 0;  ///< I_s = C_j * n_s / N: the job's traffic inside this server
  std::uint32_t position = 0;  ///< the job's place among the server's jobs (placement order)
};

/// Per-server demand on NICs and intra-server links, kept in placement order so that sums are
/// formed in the same order as the artifact's. The engine says which jobs are placed and which are
/// currently demanding bandwidth (job-level models: training jobs; phase-level: communicating jobs).
class NetworkState {
 public:
  NetworkState(const ClusterSpec& spec, std::size_t jobs, double rate_unit_Bps);

  /// A rate in bytes per second expressed in this state's rate units.
  double toRateUnits(double rate_Bps) const { return rate_Bps / rate_unit_Bps_; }

  /// A placed job (loading, not yet demanding); its shares follow the allocation's server order.
  void addJob(JobIndex job, const Allocation& allocation, double net_rate_Bps);
  void removeJob(JobIndex job);
  void setDemanding(JobIndex job, bool demanding) { setDemandWeight(job, demanding ? 1.0 : 0.0); }
  /// A job that demands a fraction of its rates on average (fast-forward's steady jobs, which
  /// communicate that fraction of the time); 1 is demanding, 0 is not.
  void setDemandWeight(JobIndex job, double weight);

  const std::vector<ServerShare>& shares(JobIndex job) const { return shares_[job]; }
  /// Whether the job's NIC demand D_s is the same on each of its servers, as a ring spread over
  /// several servers has (Eq. 7): contention models can then find its largest NIC factor at the
  /// server with the smallest share.
  bool uniformNicDemand(JobIndex job) const { return uniform_nic_demand_[job]; }
  /// Placed jobs on a server (loading or training), in placement order.
  const std::vector<JobIndex>& jobsOn(ServerIndex s) const { return servers_[s].jobs; }
  /// Calls visit(job) for each job on the server that demands its full rates now (weight 1), in
  /// placement order.
  template <typename Visit>
  void forEachFullyDemanding(ServerIndex s, Visit&& visit) const {
    const Server& server = servers_[s];
    for (std::size_t word = 0; word < server.fully_demanding.size(); ++word)
      for (std::uint64_t bits = server.fully_demanding[word]; bits != 0; bits &= bits - 1)
        visit(server.jobs[word * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))]);
  }

  double nicCapacity_ru(ServerIndex s) const { return servers_[s].nic_capacity_ru; }
  double intraCapacity_ru(ServerIndex s) const { return servers_[s].intra_capacity_ru; }
  /// Σ D_k,s over the demanding jobs on s (each times its weight).
  double nicDemand_ru(ServerIndex s) const { return demandSum(s, &Demand::nic_ru); }
  /// Σ I_k,s over the demanding jobs on s.
  double intraDemand_ru(ServerIndex s) const { return demandSum(s, &Demand::intra_ru); }
  /// Σ D_k,s and Σ I_k,s over every job placed on s, demanding or not: the most it can carry.
  double nicPlacedDemand_ru(ServerIndex s) const { return servers_[s].nic_placed_ru; }
  double intraPlacedDemand_ru(ServerIndex s) const { return servers_[s].intra_placed_ru; }
  /// max(1, Σ I_k,s / IC): the factor the server's intra-server links put on communication, 1
  /// until they are saturated.
  double intraFactor(ServerIndex s) const { return factors_[s].intra_factor; }
  /// Whether any server's intra-server links are saturated (an intra factor above 1): rare, since
  /// intra-server bandwidth is an order of magnitude above a NIC's.
  bool anyIntraFactor() const { return intra_saturated_servers_ > 0; }

  /// A_J,s of Eq. 8: the job's NIC demand, scaled down in proportion when the NIC is oversubscribed.
  /// R * (C / total), in this order, as the artifact computes it (R * 1 is R exactly). Inline, as
  /// the factors below: phase-level models evaluate them for every server of every job reached.
  double allocated_ru(const ServerShare& share) const {
    return share.nic_demand_ru * nicShare(share.server);
  }
  /// C / Σ D_k,s when the server's NIC is oversubscribed, else 1: the fraction of its demand each
  /// job there is allocated (Eq. 8).
  double nicShare(ServerIndex s) const { return factors_[s].nic_share; }
  /// Whether the demanding jobs on the server ask more of its NIC than it has (A < D).
  bool oversubscribed(ServerIndex s) const { return nicShare(s) != 1; }

  /// Change stamps, so that callers can cache what they derive from a job's servers: stamp() grows
  /// whenever a server's jobs, NIC share (allocated_ru) or intra-server factor change, and
  /// changedSince tells whether any of the job's servers changed after a stamp taken earlier.
  /// Demand totals that change below saturation change no stamp: they change no contention factor,
  /// and on a large cluster most communication phases start and end on unsaturated servers.
  std::uint64_t stamp() const { return stamp_; }
  bool changedSince(JobIndex job, std::uint64_t stamp) const {
    for (const auto& share : shares_[job])
      if (factors_[share.server].changed_at > stamp) return true;
    return false;
  }
  /// The stamp of the server's last change: a job on it whose cache is older is out of date,
  /// which callers reaching the job through that server can tell without scanning its servers.
  std::uint64_t changedAt(ServerIndex s) const { return factors_[s].changed_at; }
  /// The servers that changed since the last call, each once; valid until the state next changes.
  std::span<const ServerIndex> takeChangedServers() {
    taken_at_ = stamp_;
    return {changed_.data(), std::exchange(changed_count_, 0)};
  }

 private:
  /// A job's demand on one server, kept beside `jobs` so that sums need no lookup.
  struct Demand {
    double nic_ru;
    double intra_ru;
  };
  struct Server {
    double nic_capacity_ru = 0;
    double intra_capacity_ru = 0;
    std::vector<JobIndex> jobs;    // in placement order
    std::vector<Demand> demands;   // demands[i] belongs to jobs[i]
    std::vector<Demand> demanded;  // demands[i] times the weight of jobs[i]: what sums add up
    // Bit i of word i / 64 is set while jobs[i] demands its full rates. A server holds at most
    // one job per GPU, so this is mostly one word.
    std::vector<std::uint64_t> fully_demanding;
    double nic_placed_ru = 0;
    double intra_placed_ru = 0;
    // Whether the placed jobs could exceed the capacity if all demanded at once: else its factor
    // is 1 and demand changes need no summing.
    bool nic_can_bind = false;
    bool intra_can_bind = false;
  };
  /// What contention factors read of a server, apart from the rest: every factor evaluation reads
  /// it for each of the job's servers, and a dense array of it stays in the closest cache.
  struct Factors {
    double nic_share = 1;          // C / total when the NIC is oversubscribed, else 1 (Eq. 8)
    double intra_factor = 1;       // max(1, intra_demand / intra_capacity)
    std::uint64_t changed_at = 0;  // stamp of the last change
  };
  /// Σ rate * weight over the jobs on s, in placement order, as the artifact sums. A job that
  /// demands nothing adds +0.0, which leaves a non-negative sum as it is, so the sum needs no
  /// branch on the weight (which phases make unpredictable).
  double demandSum(ServerIndex s, double Demand::*rate) const {
    double sum = 0;
    for (const Demand& demanded : servers_[s].demanded) sum += demanded.*rate;
    return sum;
  }
  void recomputeDemand(ServerIndex s);
  void recomputePlacedDemand(ServerIndex s);
  void markChanged(ServerIndex s) {
    // changed_ has room for every server, each listed once between takes.
    if (factors_[s].changed_at <= taken_at_) changed_[changed_count_++] = s;
    factors_[s].changed_at = ++stamp_;
  }

  double rate_unit_Bps_;
  std::uint64_t stamp_ = 0;
  std::uint64_t taken_at_ = 0;              // stamp when changed_ was last taken
  std::vector<ServerIndex> changed_;
  std::size_t changed_count_ = 0;
  std::size_t intra_saturated_servers_ = 0;  // servers whose intra factor is above 1
  std::vector<Server> servers_;
  std::vector<Factors> factors_;  // factors_[s] belongs to servers_[s]
  std::vector<std::vector<ServerShare>> shares_;
  std::vector<double> demand_weight_;
  std::vector<std::uint8_t> uniform_nic_demand_;
};

}  // namespace mosim
