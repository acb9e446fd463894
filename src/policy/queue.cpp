#include "mosim/queue.hpp"

#include <stdexcept>

namespace mosim {

std::unique_ptr<QueuePolicy> makeQueuePolicy(const std::string& name) {
  try {
    return QueueRegistry::instance().create(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("queue: ") + e.what());
  }
}

}  // namespace mosim
