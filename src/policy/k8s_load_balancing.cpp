// k8s-load-balancing (Kubernetes LeastAllocated), as the artifact implements it (mosim-reference.md
// §5.2): servers sorted once by free GPUs, most first; then round-robin over that fixed order, one
// worker per server with room per round. Nearly every multi-GPU job is spread over all servers.
#include "server_order.hpp"

namespace mosim {
namespace {

class K8sLoadBalancing final : public PlacementPolicy {
 public:
  std::optional<Allocation> place(const ClusterState& cluster,
                                  const PlacementRequest& request) const override {
    if (!detail::clusterHasRoom(cluster, request)) return std::nullopt;
    const auto order = detail::serversByFreeGpus(cluster, detail::Order::MostFreeFirst);
    std::vector<int> room(cluster.servers());
    for (ServerIndex s : order) room[s] = detail::workersThatFit(cluster, s, request);

    Allocation allocation;
    bool progressed = true;
    while (static_cast<int>(allocation.size()) < request.workers && progressed) {
      progressed = false;
      for (ServerIndex s : order) {
        if (static_cast<int>(allocation.size()) == request.workers) break;
        if (room[s] == 0) continue;
        --room[s];
        allocation.push_back(s);
        progressed = true;
      }
    }
    if (static_cast<int>(allocation.size()) < request.workers) return std::nullopt;
    return allocation;
  }
};

}  // namespace

MOSIM_REGISTER(PlacementRegistry, "k8s-load-balancing",
               "spread workers round-robin over servers, most free GPUs first (Kubernetes "
               "LeastAllocated, as the artifact does it)",
               [] { return std::make_unique<K8sLoadBalancing>(); })

}  // namespace mosim
