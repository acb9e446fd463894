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
    : rate_unit_Bps_(rate_unit_Bps), shares_(jobs), demanding_(jobs, 0) {
  for (const auto& server : spec.servers) {
    Server state;
    state.nic_capacity_ru = toRateUnits(server.nic_Bps);
    state.intra_capacity_ru = toRateUnits(server.intra_Bps);
    servers_.push_back(std::move(state));
  }
}

void NetworkState::addJob(JobIndex job, const Allocation& allocation, double net_rate_Bps) {
  auto& shares = shares_[job];
  shares.clear();
  for (ServerIndex s : allocation) {
    auto it = std::find_if(shares.begin(), shares.end(),
                           [s](const ServerShare& share) { return share.server == s; });
    if (it == shares.end()) {
      shares.push_back(ServerShare{s, 1, 0, 0});
      servers_[s].jobs.push_back(job);
    } else {
      ++it->workers;
    }
  }
  const int workers = static_cast<int>(allocation.size());
  const double net_rate_ru = toRateUnits(net_rate_Bps);
  for (auto& share : shares) {
    share.nic_demand_ru = ringNicDemand(share.workers, workers, net_rate_ru);
    share.intra_demand_ru = net_rate_ru * share.workers / workers;
  }
  demanding_[job] = 0;
}

void NetworkState::removeJob(JobIndex job) {
  const bool was_demanding = demanding_[job] != 0;
  demanding_[job] = 0;
  for (const auto& share : shares_[job]) {
    auto& jobs = servers_[share.server].jobs;
    jobs.erase(std::find(jobs.begin(), jobs.end(), job));  // keeps the placement order
    if (was_demanding) recomputeDemand(servers_[share.server]);
  }
  shares_[job].clear();
}

void NetworkState::setDemanding(JobIndex job, bool demanding) {
  if ((demanding_[job] != 0) == demanding) return;
  demanding_[job] = demanding ? 1 : 0;
  for (const auto& share : shares_[job]) recomputeDemand(servers_[share.server]);
}

// Recomputed from scratch, summing in placement order as the artifact does, so the totals never
// depend on the history of additions and removals.
void NetworkState::recomputeDemand(Server& server) {
  double nic = 0, intra = 0;
  const ServerIndex s = static_cast<ServerIndex>(&server - servers_.data());
  for (JobIndex job : server.jobs) {
    if (!demanding_[job]) continue;
    const ServerShare& share = shareOn(job, s);
    nic += share.nic_demand_ru;
    intra += share.intra_demand_ru;
  }
  server.nic_demand_ru = nic;
  server.intra_demand_ru = intra;
}

const ServerShare& NetworkState::shareOn(JobIndex job, ServerIndex s) const {
  for (const auto& share : shares_[job])
    if (share.server == s) return share;
  throw std::logic_error("job has no share on this server");
}

// R * (C / total), in this order, as the artifact computes it.
double NetworkState::allocated_ru(const ServerShare& share) const {
  const Server& server = servers_[share.server];
  if (server.nic_demand_ru > server.nic_capacity_ru)
    return share.nic_demand_ru * (server.nic_capacity_ru / server.nic_demand_ru);
  return share.nic_demand_ru;
}

}  // namespace mosim
