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

}  // namespace mosim
