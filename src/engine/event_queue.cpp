#include "engine/event_queue.hpp"

namespace mosim::detail {

void EventQueue::insertOrMove(const Event& event) {
  if (!pending(event.slot)) {
    heap_.push_back(event);
    siftUp(heap_.size() - 1, event);
    return;
  }
  const std::size_t at = position_[event.slot];
  if (before(event, heap_[at]))
    siftUp(at, event);
  else
    siftDown(at, event);
}

}  // namespace mosim::detail
