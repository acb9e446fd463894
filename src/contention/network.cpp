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
    : rate_unit_Bps_(rate_unit_Bps),
      shares_(jobs),
      demand_weight_(jobs, 0),
      uniform_nic_demand_(jobs, 0) {
  for (const auto& server : spec.servers) {
    Server state;
    state.nic_capacity_ru = toRateUnits(server.nic_Bps);
    state.intra_capacity_ru = toRateUnits(server.intra_Bps);
    servers_.push_back(std::move(state));
  }
  factors_.resize(servers_.size());
  changed_.resize(servers_.size());
}

void NetworkState::addJob(JobIndex job, const Allocation& allocation, double net_rate_Bps) {
  auto& shares = shares_[job];
  shares.clear();
  for (ServerIndex s : allocation) {
    auto it = std::find_if(shares.begin(), shares.end(),
                           [s](const ServerShare& share) { return share.server == s; });
    if (it == shares.end()) {
      shares.push_back(ServerShare{s, 1, 0, 0, 0});
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
    share.position = static_cast<std::uint32_t>(server.jobs.size());
    server.jobs.push_back(job);
    server.demands.push_back({share.nic_demand_ru, share.intra_demand_ru});
    server.demanded.push_back({0, 0});
    server.fully_demanding.resize((server.jobs.size() + 63) / 64);
    recomputePlacedDemand(share.server);
    markChanged(share.server);
  }
  uniform_nic_demand_[job] = std::all_of(shares.begin(), shares.end(), [&](const ServerShare& share) {
    return share.nic_demand_ru == shares.front().nic_demand_ru;
  });
  demand_weight_[job] = 0;
}

void NetworkState::removeJob(JobIndex job) {
  setDemandWeight(job, 0);
  for (const auto& share : shares_[job]) {
    Server& server = servers_[share.server];
    const auto at = static_cast<std::ptrdiff_t>(share.position);
    server.jobs.erase(server.jobs.begin() + at);  // keeps the placement order
    server.demands.erase(server.demands.begin() + at);
    server.demanded.erase(server.demanded.begin() + at);
    // The later jobs move down by one place, and so do their bits (this job's is clear).
    auto& words = server.fully_demanding;
    const std::size_t word = share.position / 64;
    const std::uint64_t below = (std::uint64_t{1} << (share.position % 64)) - 1;
    words[word] = (words[word] & below) | ((words[word] >> 1) & ~below);
    for (std::size_t next = word + 1; next < words.size(); ++next) {
      words[next - 1] |= words[next] << 63;
      words[next] >>= 1;
    }
    words.resize((server.jobs.size() + 63) / 64);
    for (auto later = server.jobs.begin() + at; later != server.jobs.end(); ++later)
      for (auto& other : shares_[*later])
        if (other.server == share.server) --other.position;
    recomputePlacedDemand(share.server);
    markChanged(share.server);
  }
  shares_[job].clear();
}

void NetworkState::setDemandWeight(JobIndex job, double weight) {
  if (demand_weight_[job] == weight) return;
  demand_weight_[job] = weight;
  for (const auto& share : shares_[job]) {
    Server& server = servers_[share.server];
    server.demanded[share.position] = {share.nic_demand_ru * weight, share.intra_demand_ru * weight};
    const std::uint64_t bit = std::uint64_t{1} << (share.position % 64);
    auto& word = server.fully_demanding[share.position / 64];
    word = weight == 1 ? word | bit : word & ~bit;
    // A sum changes only by a demand that is there, and matters only if it can bind.
    if ((server.nic_can_bind && share.nic_demand_ru != 0) ||
        (server.intra_can_bind && share.intra_demand_ru != 0))
      recomputeDemand(share.server);
  }
}

// Summed in placement order, as the artifact does, so that the totals never depend on the history
// of additions and removals. A total that cannot reach its capacity needs no summing: its factor
// is 1 whatever the demand.
[[gnu::always_inline]] inline void NetworkState::recomputeDemand(ServerIndex s) {
  const Server& server = servers_[s];
  double nic_share = 1, intra_factor = 1;
  if (server.nic_can_bind) {
    const double nic = demandSum(s, &Demand::nic_ru);
    // Formed once per change rather than once per job: the same divisions give the same bits.
    if (nic > server.nic_capacity_ru) nic_share = server.nic_capacity_ru / nic;
  }
  if (server.intra_can_bind)
    intra_factor = std::max(1.0, demandSum(s, &Demand::intra_ru) / server.intra_capacity_ru);
  Factors& factors = factors_[s];
  if (nic_share == factors.nic_share && intra_factor == factors.intra_factor) return;
  intra_saturated_servers_ += (intra_factor != 1) - (factors.intra_factor != 1);
  factors.nic_share = nic_share;
  factors.intra_factor = intra_factor;
  markChanged(s);
}

// Demand sums have relative rounding errors below n * 2^-53 for n jobs; with this margin a placed
// total below capacity proves that no sum of demanding jobs, in any order, exceeds it.
constexpr double kBelowCapacity = 1 - 1e-9;

void NetworkState::recomputePlacedDemand(ServerIndex s) {
  Server& server = servers_[s];
  server.nic_placed_ru = 0;
  server.intra_placed_ru = 0;
  for (const Demand& demand : server.demands) {
    server.nic_placed_ru += demand.nic_ru;
    server.intra_placed_ru += demand.intra_ru;
  }
  server.nic_can_bind = server.nic_placed_ru > server.nic_capacity_ru * kBelowCapacity;
  server.intra_can_bind = server.intra_placed_ru > server.intra_capacity_ru * kBelowCapacity;
}

}  // namespace mosim
