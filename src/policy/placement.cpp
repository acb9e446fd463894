#include "mosim/placement.hpp"

#include <stdexcept>

namespace mosim {

std::unique_ptr<PlacementPolicy> makePlacementPolicy(const std::string& name) {
  try {
    return PlacementRegistry::instance().create(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("placement policy: ") + e.what());
  }
}

bool fitsEmptyCluster(const PlacementPolicy& policy, const ClusterSpec& spec,
                      const PlacementRequest& request) {
  return policy.place(ClusterState(spec), request).has_value();
}

}  // namespace mosim
