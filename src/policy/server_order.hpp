// Shared by the placement policies: the artifact's pre-checks and its stable sorts of servers.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

#include "mosim/placement.hpp"

namespace mosim::detail {

/// The artifact checks the whole cluster first: enough free GPUs and CPUs in total.
inline bool clusterHasRoom(const ClusterState& cluster, const PlacementRequest& request) {
  return cluster.totalFreeGpus() >= request.workers &&
         cluster.totalFreeCpus() >= request.workers * request.cpus_per_worker;
}

enum class Order { MostFreeFirst, LeastFreeFirst };

/// Server indices sorted by free GPUs; the sort is stable, so ties go to the lower index.
inline std::vector<ServerIndex> serversByFreeGpus(const ClusterState& cluster, Order order) {
  std::vector<ServerIndex> servers(cluster.servers());
  std::iota(servers.begin(), servers.end(), ServerIndex{0});
  std::stable_sort(servers.begin(), servers.end(), [&](ServerIndex a, ServerIndex b) {
    return order == Order::MostFreeFirst ? cluster.freeGpus(a) > cluster.freeGpus(b)
                                         : cluster.freeGpus(a) < cluster.freeGpus(b);
  });
  return servers;
}

/// How many workers fit on a server, limited by its free GPUs and CPUs.
inline int workersThatFit(const ClusterState& cluster, ServerIndex s, const PlacementRequest& r) {
  const int by_cpus = r.cpus_per_worker > 0 ? cluster.freeCpus(s) / r.cpus_per_worker
                                            : cluster.freeGpus(s);
  return std::min(cluster.freeGpus(s), by_cpus);
}

}  // namespace mosim::detail
