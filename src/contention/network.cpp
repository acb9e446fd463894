#include "mosim/network.hpp"

#include <algorithm>
#include <stdexcept>

namespace mosim {
namespace {

/// Eq. 7 with the rate C_j in place of the volume (mosim-reference.md §7.1): a ring crosses a
/// server's NIC at its two boundary links, each carrying the per-worker rate C_j/N; with two
/// workers the ring is a single link.
double ringNicDemand(int workers_here, int workers, double net_rate) {
  if (workers < 2 || workers_here == workers) return 0;
  if (workers == 2) return net_rate / 2;
  return 2 * net_rate / workers;
}

}  // namespace

NetworkState::NetworkState(const ClusterSpec& spec, std::size_t jobs, double rate_unit_Bps)
    : rate_unit_Bps_(rate_unit_Bps), shares_(jobs), demand_weight_(jobs, 0) {
  for (const auto& server : spec.servers) {
    Server state;
    state.nic_capacity_ru = toRateUnits(server.nic_Bps);
    state.intra_capacity_ru = toRateUnits(server.intra_Bps);
    servers_.push_back(std::move(state));
  }
  factors_.resize(servers_.size());
}

void NetworkState::addJob(JobIndex job, const Allocation& allocation, double net_rate_Bps) {
  auto& shares = shares_[job];
  shares.clear();
  for (ServerIndex s : allocation) {
    auto it = std::find_if(shares.begin(), shares.end(),
                           [s](const ServerShare& share) { return share.server == s; });
    if (it == shares.end()) {
      shares.push_back(ServerShare{s, 1, 0, 0});
    } else {
      ++it->workers;
    }
  }
  const int workers = static_cast<int>(allocation.size());
  const double net_rate_ru = toRateUnits(net_rate_Bps);
  for (auto& share : shares) {
    share.nic_demand_ru = ringNicDemand(share.workers, workers, net_rate_ru);
    share.intra_demand_ru = net_rate_ru * share.workers / workers;
    Server& server = servers_[share.server];
    server.jobs.push_back(job);
    server.demands.push_back({share.nic_demand_ru, share.intra_demand_ru});
    recomputePlacedDemand(share.server);
    markChanged(share.server);
  }
  demand_weight_[job] = 0;
}

void NetworkState::removeJob(JobIndex job) {
  const bool was_demanding = demand_weight_[job] != 0;
  demand_weight_[job] = 0;
  for (const auto& share : shares_[job]) {
    Server& server = servers_[share.server];
    const auto at = std::find(server.jobs.begin(), server.jobs.end(), job) - server.jobs.begin();
    server.jobs.erase(server.jobs.begin() + at);  // keeps the placement order
    server.demands.erase(server.demands.begin() + at);
    recomputePlacedDemand(share.server);
    markChanged(share.server);
    if (was_demanding) recomputeDemand(share.server);
  }
  shares_[job].clear();
}

void NetworkState::setDemandWeight(JobIndex job, double weight) {
  if (demand_weight_[job] == weight) return;
  demand_weight_[job] = weight;
  for (const auto& share : shares_[job]) recomputeDemand(share.server);
}

// Recomputed from scratch, summing in placement order as the artifact does, so the totals never
// depend on the history of additions and removals.
void NetworkState::recomputeDemand(ServerIndex s) {
  Server& server = servers_[s];
  double nic = 0, intra = 0;
  // Without a branch on the weight (which phases make unpredictable): demands are finite and
  // non-negative, so a job that demands nothing adds +0.0, which leaves a non-negative sum as it
  // is; x * 1.0 is x. The exact model's sums are unchanged.
  for (std::size_t i = 0; i < server.jobs.size(); ++i) {
    const double weight = demand_weight_[server.jobs[i]];
    nic += server.demands[i].nic_ru * weight;
    intra += server.demands[i].intra_ru * weight;
  }
  server.nic_demand_ru = nic;
  server.intra_demand_ru = intra;
  // Formed once per change rather than once per job: the same divisions give the same bits.
  const double nic_share = nic > server.nic_capacity_ru ? server.nic_capacity_ru / nic : 1;
  const double intra_factor = std::max(1.0, intra / server.intra_capacity_ru);
  Factors& factors = factors_[s];
  if (nic_share == factors.nic_share && intra_factor == factors.intra_factor) return;
  factors.nic_share = nic_share;
  factors.intra_factor = intra_factor;
  markChanged(s);
}

void NetworkState::recomputePlacedDemand(ServerIndex s) {
  Server& server = servers_[s];
  server.nic_placed_ru = 0;
  server.intra_placed_ru = 0;
  for (const Demand& demand : server.demands) {
    server.nic_placed_ru += demand.nic_ru;
    server.intra_placed_ru += demand.intra_ru;
  }
}

void NetworkState::markChanged(ServerIndex s) {
  if (factors_[s].changed_at <= taken_at_) changed_.push_back(s);
  factors_[s].changed_at = ++stamp_;
}

void NetworkState::takeChangedServers(std::vector<ServerIndex>& servers) {
  taken_at_ = stamp_;
  servers.clear();
  servers.swap(changed_);
}

}  // namespace mosim
