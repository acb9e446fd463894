#include "mosim/contention.hpp"

#include <algorithm>
#include <stdexcept>

namespace mosim {

std::unique_ptr<ContentionModel> makeContentionModel(const std::string& name,
                                                     const ContentionParams& params) {
  try {
    return ContentionRegistry::instance().create(name, params);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("contention model: ") + e.what());
  }
}

bool ContentionModel::canCongest(const NetworkState&, ServerIndex) const { return true; }

double nicSlowdown(const NetworkState& network, JobIndex job, double min_bandwidth_Bps) {
  const double min_bandwidth_ru = network.toRateUnits(min_bandwidth_Bps);
  double slowdown = 1;
  for (const auto& share : network.shares(job)) {
    const double allocated_ru = std::max(network.allocated_ru(share), min_bandwidth_ru);
    slowdown = std::max(slowdown, share.nic_demand_ru / allocated_ru);
  }
  return slowdown;
}

}  // namespace mosim
