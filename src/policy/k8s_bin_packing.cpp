// k8s-bin-packing (Kubernetes MostAllocated), as the artifact implements it (mosim-reference.md
// §5.2): servers sorted by free GPUs, fewest first; each takes as many workers as fit. A job is
// split whenever the fullest server with free GPUs cannot hold it all, even if another could.
#include "server_order.hpp"

namespace mosim {
namespace {

class K8sBinPacking final : public PlacementPolicy {
 public:
  std::optional<Allocation> place(const ClusterState& cluster,
                                  const PlacementRequest& request) const override {
    if (!detail::clusterHasRoom(cluster, request)) return std::nullopt;
    Allocation allocation;
    for (ServerIndex s : detail::serversByFreeGpus(cluster, detail::Order::LeastFreeFirst)) {
      const int remaining = request.workers - static_cast<int>(allocation.size());
      const int take = std::min(detail::workersThatFit(cluster, s, request), remaining);
      allocation.insert(allocation.end(), static_cast<std::size_t>(take), s);
    }
    if (static_cast<int>(allocation.size()) < request.workers) return std::nullopt;
    return allocation;
  }
};

}  // namespace

MOSIM_REGISTER(PlacementRegistry, "k8s-bin-packing",
               "fill servers with the fewest free GPUs first (Kubernetes MostAllocated, as the "
               "artifact does it)",
               [] { return std::make_unique<K8sBinPacking>(); })

}  // namespace mosim
