// A min-heap of pending events with at most one event per slot (a job, or the scheduler), so an
// event can be moved in place when a job's expected end changes. Events are ordered by
// (time, priority, slot): simultaneous events never depend on the history of the heap.
//
// The phase-level model recomputes every communicating job's event at every phase boundary, so
// an unchanged event costs one inline comparison, the heap holds the events themselves (no
// indirection when comparing), and a moved event is sifted only in the direction it moved.
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

  explicit EventQueue(std::size_t slots) : position_(slots, kAbsent) {}

  bool empty() const { return heap_.empty(); }
  bool pending(Slot slot) const { return position_[slot] != kAbsent; }
  /// The slot's pending event (only while pending(slot)).
  const Event& event(Slot slot) const { return heap_[position_[slot]]; }
  const Event& top() const { return heap_.front(); }

  /// Adds the slot's event, or moves it if one is pending.
  void schedule(Slot slot, double time_s, std::uint8_t priority) {
    // Inline, the check alone: most calls find the event unchanged (the phase-level model
    // recomputes every communicating job's end at every update, and few move).
    const std::uint32_t at = position_[slot];
    if (at != kAbsent && heap_[at].time_s == time_s && heap_[at].priority == priority) return;
    insertOrMove(Event{time_s, priority, slot});
  }

  /// The order of events: by time, then priority, then slot.
  static bool before(const Event& x, const Event& y) {
    if (x.time_s != y.time_s) return x.time_s < y.time_s;
    if (x.priority != y.priority) return x.priority < y.priority;
    return x.slot < y.slot;
  }

  /// Removes and returns the earliest event: the last one fills the root's hole from above.
  Event pop() {
    const Event first = top();
    const Event last = heap_.back();
    heap_.pop_back();
    position_[first.slot] = kAbsent;
    if (!heap_.empty()) siftDown(0, last);
    return first;
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

  /// Adds or moves the slot's event (event_queue.cpp: out of line, so that schedule's common case
  /// stays small where it is inlined).
  void insertOrMove(const Event& event);

  void place(std::size_t at, const Event& event) {
    heap_[at] = event;
    position_[event.slot] = static_cast<std::uint32_t>(at);
  }

  /// Puts `event` at the hole `at` or above it, moving the later parents down.
  void siftUp(std::size_t at, const Event& event) {
    while (at > 0) {
      const std::size_t parent = (at - 1) / 2;
      if (!before(event, heap_[parent])) break;
      place(at, heap_[parent]);
      at = parent;
    }
    place(at, event);
  }

  /// Puts `event` at the hole `at` or below it, moving the earlier children up.
  void siftDown(std::size_t at, const Event& event) {
    const std::size_t size = heap_.size();
    for (;;) {
      std::size_t child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], event)) break;
      place(at, heap_[child]);
      at = child;
    }
    place(at, event);
  }

  std::vector<Event> heap_;
  std::vector<std::uint32_t> position_;
};

}  // namespace mosim::detail
