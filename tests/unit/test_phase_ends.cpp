#define BOOST_TEST_MODULE phase_ends
#include <boost/test/unit_test.hpp>

#include <random>

#include "engine/communicating_jobs.hpp"
#include "engine/phase_ends.hpp"

using mosim::JobIndex;
using mosim::detail::CommunicatingJobs;
using mosim::detail::ComputingJobs;
using mosim::detail::earliestEnd;

// The earliest time wins; at equal times the lowest job, wherever it sits (here after the first
// of the tied ones, and past the four-wide part of the scan).
BOOST_AUTO_TEST_CASE(the_earliest_end_breaks_ties_by_the_lowest_job) {
  const std::vector<double> ends{5, 3, 7, 9, 8, 3, 4};
  const std::vector<JobIndex> jobs{0, 6, 1, 2, 3, 4, 5};
  const auto [time_s, job] = earliestEnd(ends, jobs);
  BOOST_TEST(time_s == 3);
  BOOST_TEST(job == 4u);
  const std::vector<double> one_end{2.5};
  const std::vector<JobIndex> one_job{9};
  BOOST_TEST(earliestEnd(one_end, one_job).second == 9u);
}

// Random sets against a plain scan, sizes around the four-wide blocks and ties included.
BOOST_AUTO_TEST_CASE(the_earliest_end_agrees_with_a_plain_scan) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 2000; ++round) {
    const std::size_t n = 1 + random() % 11;
    std::vector<double> ends;
    std::vector<JobIndex> jobs;
    for (std::size_t i = 0; i < n; ++i) {
      ends.push_back(static_cast<double>(random() % 4));  // many ties
      jobs.push_back(static_cast<JobIndex>(random() % 1000));
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < n; ++i)
      if (ends[i] < ends[best] || (ends[i] == ends[best] && jobs[i] < jobs[best])) best = i;
    const auto [time_s, job] = earliestEnd(ends, jobs);
    BOOST_TEST(time_s == ends[best]);
    BOOST_TEST(job == jobs[best]);
  }
}

// The earliest compute end is remembered while it stays, replaced by an earlier one, and found
// again once taken.
BOOST_AUTO_TEST_CASE(computing_jobs_keep_their_earliest_end) {
  ComputingJobs computing(8);
  computing.insert(3, 10);
  computing.insert(5, 4);
  BOOST_TEST(computing.earliest().second == 5u);
  computing.insert(1, 4);  // same time, lower job
  BOOST_TEST(computing.earliest().second == 1u);
  computing.insert(7, 12);
  computing.erase(1);
  BOOST_TEST(computing.earliest().second == 5u);
  computing.erase(7);  // not the earliest
  BOOST_TEST(computing.earliest().second == 5u);
  computing.erase(5);
  const auto [time_s, job] = computing.earliest();
  BOOST_TEST(time_s == 10);
  BOOST_TEST(job == 3u);
}

// §6.2 by hand: T_net = 2 s, entering at t = 0 at S = 1 ends at 2. At t = 0.5 the factor becomes
// 2: 0.5 uncontended seconds done, 1.5 left at S = 2, end 0.5 + 3 = 3.5. At t = 1.5 (S back to 1):
// 0.5 + 1.0 / 2 = 1 done, 1 left, end 2.5. A second job entering at 1.5 with 0.25 s done at S = 4
// ends at 1.5 + 1.75 * 4 = 8.5.
BOOST_AUTO_TEST_CASE(communication_advances_in_uncontended_seconds) {
  CommunicatingJobs communicating(4);
  BOOST_TEST(communicating.insert(2, 0, 2, 0, 1) == 2);
  BOOST_TEST(communicating.closeSegment(2, 0.5, 2) == 3.5);
  BOOST_TEST(communicating.progress_s(2) == 0.5);
  communicating.nextSlowdowns()[0] = 1;
  communicating.closeAllSegments(1.5);
  BOOST_TEST(communicating.progress_s(2) == 1);
  BOOST_TEST(communicating.end_s(2) == 2.5);
  BOOST_TEST(communicating.insert(0, 1.5, 2, 0.25, 4) == 8.5);
  BOOST_TEST(communicating.earliest().second == 2u);
  communicating.erase(2);
  BOOST_TEST(communicating.size() == 1u);
  BOOST_TEST(communicating.earliest().first == 8.5);
  BOOST_TEST(communicating.slowdown(0) == 4);
  BOOST_TEST(!communicating.contains(2));
}
