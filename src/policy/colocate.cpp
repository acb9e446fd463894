// colocate (mosim-reference.md §5.2): all workers on one server, the one with the most free GPUs
// (worst fit); a job that no single server can hold waits.
#include "server_order.hpp"

namespace mosim {
namespace {

class Colocate final : public PlacementPolicy {
 public:
  std::optional<Allocation> place(const ClusterState& cluster,
                                  const PlacementRequest& request) const override {
    if (!detail::clusterHasRoom(cluster, request)) return std::nullopt;
    for (ServerIndex s : detail::serversByFreeGpus(cluster, detail::Order::MostFreeFirst)) {
      if (detail::workersThatFit(cluster, s, request) >= request.workers)
        return Allocation(static_cast<std::size_t>(request.workers), s);
    }
    return std::nullopt;
  }
};

}  // namespace

MOSIM_REGISTER(PlacementRegistry, "colocate",
               "all workers on the one server with the most free GPUs, or wait",
               [] { return std::make_unique<Colocate>(); })

}  // namespace mosim
