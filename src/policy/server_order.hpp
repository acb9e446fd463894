// Shared by the placement policies: the artifact's pre-checks and its stable sorts of servers.
#pragma once

#include <algorithm>
#include <vector>

#include "mosim/placement.hpp"

namespace mosim::detail {

/// True when the server's GPUs are of the requested type (any server when none is requested).
inline bool serverMatches(const ClusterState& cluster, ServerIndex s, const PlacementRequest& r) {
  return r.gpu_type.empty() || cluster.spec().servers[s].gpu_type == r.gpu_type;
}

/// The artifact checks the whole cluster first: enough free GPUs and CPUs in total. A job that
/// asks for a GPU type counts only the servers of that type.
inline bool clusterHasRoom(const ClusterState& cluster, const PlacementRequest& request) {
  if (request.gpu_type.empty())
    return cluster.totalFreeGpus() >= request.workers &&
           cluster.totalFreeCpus() >= request.workers * request.cpus_per_worker;
  int free_gpus = 0, free_cpus = 0;
  for (ServerIndex s = 0; s < cluster.servers(); ++s) {
    if (!serverMatches(cluster, s, request)) continue;
    free_gpus += cluster.freeGpus(s);
    free_cpus += cluster.freeCpus(s);
  }
  return free_gpus >= request.workers && free_cpus >= request.workers * request.cpus_per_worker;
}

enum class Order { MostFreeFirst, LeastFreeFirst };

/// Server indices sorted by free GPUs; the sort is stable, so ties go to the lower index. A
/// counting sort: free GPU counts are small integers, and this runs at every placement attempt.
inline std::vector<ServerIndex> serversByFreeGpus(const ClusterState& cluster, Order order) {
  int most = 0;
  for (ServerIndex s = 0; s < cluster.servers(); ++s) most = std::max(most, cluster.freeGpus(s));
  const auto key = [&](ServerIndex s) {
    return static_cast<std::size_t>(order == Order::LeastFreeFirst ? cluster.freeGpus(s)
                                                                    : most - cluster.freeGpus(s));
  };
  std::vector<std::size_t> next(static_cast<std::size_t>(most) + 2, 0);
  for (ServerIndex s = 0; s < cluster.servers(); ++s) ++next[key(s) + 1];
  for (std::size_t k = 1; k < next.size(); ++k) next[k] += next[k - 1];
  std::vector<ServerIndex> servers(cluster.servers());
  for (ServerIndex s = 0; s < cluster.servers(); ++s) servers[next[key(s)]++] = s;
  return servers;
}

/// How many workers fit on a server, limited by its free GPUs and CPUs; none on a server of
/// another GPU type than the job asks for.
inline int workersThatFit(const ClusterState& cluster, ServerIndex s, const PlacementRequest& r) {
  if (!serverMatches(cluster, s, r)) return 0;
  const int by_cpus = r.cpus_per_worker > 0 ? cluster.freeCpus(s) / r.cpus_per_worker
                                            : cluster.freeGpus(s);
  return std::min(cluster.freeGpus(s), by_cpus);
}

}  // namespace mosim::detail
