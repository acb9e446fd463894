#define BOOST_TEST_MODULE event_queue
#include <boost/test/unit_test.hpp>

#include <map>

#include "engine/event_queue.hpp"

using mosim::detail::EventQueue;

// Equal times go by priority, then by slot (the job id), whatever the order of insertion.
BOOST_AUTO_TEST_CASE(ties_break_by_priority_then_slot) {
  EventQueue queue(6);
  queue.schedule(4, 1.0, 2);
  queue.schedule(1, 1.0, 2);
  queue.schedule(5, 1.0, 0);
  queue.schedule(0, 2.0, 0);
  queue.schedule(3, 1.0, 4);
  queue.schedule(2, 0.5, 3);
  std::vector<EventQueue::Slot> order;
  while (!queue.empty()) order.push_back(queue.pop().slot);
  const std::vector<EventQueue::Slot> expected{2, 5, 1, 4, 3, 0};
  BOOST_TEST(order == expected, boost::test_tools::per_element());
}

// One pending event per slot: scheduling again moves it.
BOOST_AUTO_TEST_CASE(rescheduling_moves_the_pending_event) {
  EventQueue queue(3);
  queue.schedule(0, 5, 0);
  queue.schedule(1, 3, 0);
  queue.schedule(2, 4, 0);
  queue.schedule(1, 10, 0);  // later
  queue.schedule(2, 1, 0);   // earlier
  BOOST_TEST(queue.pop().slot == 2u);
  BOOST_TEST(!queue.pending(2));
  BOOST_TEST(queue.pop().slot == 0u);
  const auto last = queue.pop();
  BOOST_TEST(last.slot == 1u);
  BOOST_TEST(last.time_s == 10);
  BOOST_TEST(queue.empty());
}

// Random schedules, moves and pops, as the engine makes them: every pop returns the earliest
// pending event by (time, priority, slot), checked against a plain list of the pending events.
BOOST_AUTO_TEST_CASE(random_operations_pop_the_earliest_event) {
  EventQueue queue(200);
  std::map<EventQueue::Slot, std::pair<double, int>> pending;  // slot -> (time, priority)
  std::uint64_t state = 12345;
  auto next = [&] { return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
  const auto popEarliest = [&] {
    auto earliest = pending.begin();
    for (auto it = pending.begin(); it != pending.end(); ++it)
      if (it->second < earliest->second) earliest = it;  // ties: the lower slot, seen first
    const auto event = queue.pop();
    BOOST_TEST_REQUIRE(event.slot == earliest->first);
    BOOST_TEST(event.time_s == earliest->second.first);
    pending.erase(earliest);
  };
  int pops = 0;
  for (int i = 0; i < 20000; ++i) {
    if (next() % 3 == 0 && !pending.empty()) {
      popEarliest();
      ++pops;
    } else {
      const auto slot = static_cast<EventQueue::Slot>(next() % 200);
      const double time_s = static_cast<double>(next() % 1000);
      const int priority = static_cast<int>(next() % 5);
      queue.schedule(slot, time_s, static_cast<std::uint8_t>(priority));
      pending[slot] = {time_s, priority};
    }
  }
  BOOST_TEST(pops > 5000);
  while (!pending.empty()) popEarliest();
  BOOST_TEST(queue.empty());
}
