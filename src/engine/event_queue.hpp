// A min-heap of pending events with at most one event per slot (a job, or the scheduler), so an
// event can be moved in place when a job's expected end changes. Events are ordered by
// (time, priority, slot): simultaneous events never depend on the history of the heap.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace mosim::detail {

class EventQueue {
 public:
  using Slot = std::uint32_t;
  struct Event {
    double time_s;
    std::uint8_t priority;
    Slot slot;
  };

  explicit EventQueue(std::size_t slots) : events_(slots), position_(slots, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  bool pending(Slot slot) const { return position_[slot] != kAbsent; }
  const Event& event(Slot slot) const { return events_[slot]; }
  const Event& top() const { return events_[heap_.front()]; }

  /// Adds the slot's event, or moves it if one is pending.
  void schedule(Slot slot, double time_s, std::uint8_t priority) {
    const bool pending_here = position_[slot] != kAbsent;
    if (pending_here && events_[slot].time_s == time_s && events_[slot].priority == priority)
      return;  // unchanged: the common case when a recompute leaves a job's end where it was
    events_[slot] = Event{time_s, priority, slot};
    if (!pending_here) {
      position_[slot] = heap_.size();
      heap_.push_back(slot);
    }
    const std::size_t at = siftUp(position_[slot]);
    siftDown(at);
  }

  Event pop() {
    const Event first = top();
    removeAt(0);
    return first;
  }

  void cancel(Slot slot) {
    if (pending(slot)) removeAt(position_[slot]);
  }

 private:
  static constexpr std::size_t kAbsent = std::numeric_limits<std::size_t>::max();

  bool before(Slot a, Slot b) const {
    const Event& x = events_[a];
    const Event& y = events_[b];
    if (x.time_s != y.time_s) return x.time_s < y.time_s;
    if (x.priority != y.priority) return x.priority < y.priority;
    return x.slot < y.slot;
  }

  void place(std::size_t at, Slot slot) {
    heap_[at] = slot;
    position_[slot] = at;
  }

  std::size_t siftUp(std::size_t at) {
    const Slot slot = heap_[at];
    while (at > 0) {
      const std::size_t parent = (at - 1) / 2;
      if (!before(slot, heap_[parent])) break;
      place(at, heap_[parent]);
      at = parent;
    }
    place(at, slot);
    return at;
  }

  void siftDown(std::size_t at) {
    const Slot slot = heap_[at];
    for (;;) {
      std::size_t child = 2 * at + 1;
      if (child >= heap_.size()) break;
      if (child + 1 < heap_.size() && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], slot)) break;
      place(at, heap_[child]);
      at = child;
    }
    place(at, slot);
  }

  void removeAt(std::size_t at) {
    const Slot removed = heap_[at];
    const Slot last = heap_.back();
    heap_.pop_back();
    position_[removed] = kAbsent;
    if (at == heap_.size()) return;
    place(at, last);
    siftDown(siftUp(at));
  }

  std::vector<Event> events_;
  std::vector<std::size_t> position_;
  std::vector<Slot> heap_;
};

}  // namespace mosim::detail
