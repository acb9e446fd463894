#define BOOST_TEST_MODULE event_queue
#include <boost/test/unit_test.hpp>

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

// One pending event per slot: scheduling again moves it, cancel removes it.
BOOST_AUTO_TEST_CASE(rescheduling_moves_the_pending_event) {
  EventQueue queue(3);
  queue.schedule(0, 5, 0);
  queue.schedule(1, 3, 0);
  queue.schedule(2, 4, 0);
  queue.schedule(1, 10, 0);  // later
  queue.schedule(2, 1, 0);   // earlier
  queue.cancel(0);
  BOOST_TEST(!queue.pending(0));
  BOOST_TEST(queue.pop().slot == 2u);
  const auto last = queue.pop();
  BOOST_TEST(last.slot == 1u);
  BOOST_TEST(last.time_s == 10);
  BOOST_TEST(queue.empty());
}

// Many random moves keep the heap ordered.
BOOST_AUTO_TEST_CASE(random_operations_keep_order) {
  EventQueue queue(200);
  std::uint64_t state = 12345;
  auto next = [&] { return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
  for (int i = 0; i < 5000; ++i) {
    const auto slot = static_cast<EventQueue::Slot>(next() % 200);
    if (next() % 5 == 0)
      queue.cancel(slot);
    else
      queue.schedule(slot, static_cast<double>(next() % 1000), static_cast<std::uint8_t>(next() % 5));
  }
  double last_time = -1;
  int last_priority = -1;
  while (!queue.empty()) {
    const auto event = queue.pop();
    BOOST_TEST((event.time_s > last_time ||
                (event.time_s == last_time && event.priority >= last_priority)));
    last_time = event.time_s;
    last_priority = event.priority;
  }
}
