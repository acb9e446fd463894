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

void ContentionModel::slowdowns(const NetworkState& network, std::span<const JobIndex> jobs,
                                std::span<double> factors) const {
  for (std::size_t i = 0; i < jobs.size(); ++i) factors[i] = slowdown(network, jobs[i]);
}

}  // namespace mosim
