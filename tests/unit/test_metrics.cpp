// Aggregates and fidelity metrics on hand-worked samples (semantics.md §4).
#define BOOST_TEST_MODULE metrics
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "mosim/metrics.hpp"

using namespace mosim;

namespace {

JobResult completedJob(JobId id, double submit_s, double start_s, double end_s) {
  JobResult job;
  job.id = id;
  job.submit_s = submit_s;
  job.start_s = start_s;
  job.end_s = end_s;
  job.wait_s = start_s - submit_s;
  job.training_s = end_s - start_s;
  job.jct_s = end_s - submit_s;
  return job;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(percentiles)

BOOST_AUTO_TEST_CASE(p99_interpolates_between_order_statistics) {
  // n = 4: rank 0.99 * 3 = 2.97 lies between x_(2) = 3 and x_(3) = 4, so 3 + 0.97 * (4 - 3) = 3.97.
  BOOST_CHECK_SMALL(percentile({4, 1, 3, 2}, 0.99) - 3.97, 1e-12);
  // rank 0.5 * 3 = 1.5: halfway between 2 and 3.
  BOOST_CHECK_SMALL(percentile({1, 2, 3, 4}, 0.5) - 2.5, 1e-12);
}

BOOST_AUTO_TEST_CASE(ends_and_single_values) {
  BOOST_TEST(percentile({5, 1, 9}, 0.0) == 1.0);
  BOOST_TEST(percentile({5, 1, 9}, 1.0) == 9.0);
  BOOST_TEST(percentile({7}, 0.99) == 7.0);
}

BOOST_AUTO_TEST_CASE(rejects_bad_input) {
  BOOST_CHECK_THROW(percentile({}, 0.5), std::invalid_argument);
  BOOST_CHECK_THROW(percentile({1, 2}, 1.5), std::invalid_argument);
  BOOST_CHECK_THROW(percentile({1, 2}, NAN), std::invalid_argument);
  BOOST_CHECK_THROW(percentile({1, NAN}, 0.5), std::invalid_argument);
  BOOST_CHECK_THROW(median({}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(median_of_odd_and_even_sizes) {
  // Odd: sorted {1, 2, 3}, the middle value is 2.
  BOOST_TEST(median({3, 1, 2}) == 2.0);
  // Even: sorted {1, 2, 3, 10}, the mean of the two middle values (2 + 3) / 2 = 2.5.
  BOOST_TEST(median({10, 1, 3, 2}) == 2.5);
  BOOST_TEST(median({42}) == 42.0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(aggregates)

BOOST_AUTO_TEST_CASE(covers_completed_jobs_only) {
  // A: submit 2, start 10, end 110 -> wait 8, training 100, JCT 108.
  // B: submit 5, start 5, end 305  -> wait 0, training 300, JCT 300.
  // C: unplaceable, submitted at 0; counting it would move the makespan's start to 0 and poison
  //    the means with NaN.
  JobResult unplaceable;
  unplaceable.id = 3;
  unplaceable.submit_s = 0;
  unplaceable.status = JobStatus::Unplaceable;
  const std::vector<JobResult> jobs = {completedJob(1, 2, 10, 110), unplaceable,
                                       completedJob(2, 5, 5, 305)};

  const Aggregates a = aggregate(jobs);
  BOOST_TEST(a.jobs == 2u);
  BOOST_CHECK_SMALL(a.avg_training_s - 200, 1e-9);  // (100 + 300) / 2
  BOOST_CHECK_SMALL(a.avg_jct_s - 204, 1e-9);       // (108 + 300) / 2
  BOOST_CHECK_SMALL(a.median_jct_s - 204, 1e-9);    // mean of the two middle values
  // rank 0.99 * 1 = 0.99: 108 + 0.99 * (300 - 108) = 108 + 190.08 = 298.08.
  BOOST_CHECK_SMALL(a.p99_jct_s - 298.08, 1e-9);
  BOOST_CHECK_SMALL(a.makespan_s - 303, 1e-9);  // last end 305 - first completed submit 2
  BOOST_CHECK_SMALL(a.avg_wait_s - 4, 1e-9);    // (8 + 0) / 2
}

BOOST_AUTO_TEST_CASE(needs_a_completed_job) {
  BOOST_CHECK_THROW(aggregate({}), std::invalid_argument);
  JobResult unplaceable;
  unplaceable.status = JobStatus::Unplaceable;
  BOOST_CHECK_THROW(aggregate({unplaceable}), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(fidelity)

BOOST_AUTO_TEST_CASE(absolute_percent_error) {
  // |110 - 100| / 100 * 100 = 10, and the same below the truth.
  BOOST_CHECK_SMALL(absolutePercentError(110, 100) - 10, 1e-12);
  BOOST_CHECK_SMALL(absolutePercentError(90, 100) - 10, 1e-12);
  BOOST_CHECK_SMALL(absolutePercentError(-5, -10) - 50, 1e-12);  // divides by |truth|
  BOOST_TEST(absolutePercentError(0, 0) == 0.0);
  BOOST_TEST(std::isinf(absolutePercentError(1, 0)));
}

BOOST_AUTO_TEST_CASE(table_ii_tiresias_errors) {
  // Tiresias (16gpu profiling/none, mosim-reference §11) against the k8s-load-balancing testbed
  // (§12), the paper's Table II: |1743.31 - 4222.35| / 4222.35 = 2479.04 / 4222.35 = 58.71 %, etc.
  BOOST_CHECK_SMALL(absolutePercentError(1743.31, 4222.35) - 58.71, 0.01);    // avg training
  BOOST_CHECK_SMALL(absolutePercentError(2417.13, 9168.98) - 73.64, 0.01);    // avg JCT
  BOOST_CHECK_SMALL(absolutePercentError(10067.23, 30680.78) - 67.19, 0.01);  // P99 JCT
  BOOST_CHECK_SMALL(absolutePercentError(23355.35, 44496.63) - 47.51, 0.01);  // makespan
}

BOOST_AUTO_TEST_CASE(ks_distance) {
  // a = {1,2,3}, b = {2,3,4}. ECDFs at the pooled points:
  //   v = 1: F_a = 1/3, F_b = 0   -> 1/3
  //   v = 2: F_a = 2/3, F_b = 1/3 -> 1/3
  //   v = 3: F_a = 1,   F_b = 2/3 -> 1/3
  //   v = 4: F_a = 1,   F_b = 1   -> 0
  // so KS = 1/3.
  BOOST_CHECK_SMALL(ksDistance({1, 2, 3}, {2, 3, 4}) - 1.0 / 3, 1e-12);
  BOOST_CHECK_SMALL(ksDistance({3, 1, 2}, {4, 2, 3}) - 1.0 / 3, 1e-12);  // order does not matter
  BOOST_TEST(ksDistance({1, 2, 3}, {3, 2, 1}) == 0.0);
  BOOST_TEST(ksDistance({1, 2}, {5, 6, 7}) == 1.0);  // disjoint
}

BOOST_AUTO_TEST_CASE(ks_distance_is_right_continuous_with_ties) {
  // a = {1,1,2}, b = {1,2,2}: at v = 1, counting every sample <= 1 gives F_a = 2/3 and
  // F_b = 1/3 (gap 1/3); at v = 2 both are 1. So KS = 1/3. Stepping one sample at a time instead of
  // one value at a time would see a false 2/3 after the two 1s of a.
  BOOST_CHECK_SMALL(ksDistance({1, 1, 2}, {1, 2, 2}) - 1.0 / 3, 1e-12);
  // Unequal sizes: a = {1}, b = {1, 2}: at v = 1, F_a = 1 and F_b = 1/2 -> 1/2.
  BOOST_CHECK_SMALL(ksDistance({1}, {1, 2}) - 0.5, 1e-12);
}

BOOST_AUTO_TEST_CASE(wasserstein_equal_sizes) {
  // Sorted pairs (1,2), (2,3), (3,4): mean |difference| = 1.
  BOOST_CHECK_SMALL(wasserstein1({1, 2, 3}, {2, 3, 4}) - 1, 1e-12);
  // {3,1} vs {0,2}: sorted pairs (1,0), (3,2) -> (1 + 1) / 2 = 1, not the unsorted |3-0|,|1-2|.
  BOOST_CHECK_SMALL(wasserstein1({3, 1}, {0, 2}) - 1, 1e-12);
  BOOST_TEST(wasserstein1({5, 6}, {6, 5}) == 0.0);
}

BOOST_AUTO_TEST_CASE(wasserstein_unequal_sizes_on_a_quantile_grid) {
  // a = {0, 10}, b = {0, 1, 2}: G = 3 points q = 0, 0.5, 1.
  //   quantiles of a: 0, 5 (halfway between 0 and 10), 10
  //   quantiles of b: 0, 1, 2
  //   |differences|: 0, 4, 8 -> mean 4.
  BOOST_CHECK_SMALL(wasserstein1({10, 0}, {2, 0, 1}) - 4, 1e-12);
  BOOST_CHECK_SMALL(wasserstein1({2, 0, 1}, {10, 0}) - 4, 1e-12);  // symmetric
}

BOOST_AUTO_TEST_CASE(distances_reject_empty_samples) {
  BOOST_CHECK_THROW(ksDistance({}, {1}), std::invalid_argument);
  BOOST_CHECK_THROW(ksDistance({1}, {}), std::invalid_argument);
  BOOST_CHECK_THROW(wasserstein1({}, {1}), std::invalid_argument);
  BOOST_CHECK_THROW(wasserstein1({1}, {}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(compare_with_truth) {
  // Truth: JCTs 100 and 200 (submits 0, makespan 200). Simulation: JCTs 110 and 220, plus an
  // unplaceable job that must not enter the JCT samples.
  const std::vector<JobResult> truth = {completedJob(1, 0, 0, 100), completedJob(2, 0, 50, 200)};
  JobResult unplaceable;
  unplaceable.status = JobStatus::Unplaceable;
  const std::vector<JobResult> simulated = {completedJob(1, 0, 0, 110), unplaceable,
                                            completedJob(2, 0, 55, 220)};

  const Fidelity f = compareWithTruth(simulated, truth);
  BOOST_TEST(f.simulated.jobs == 2u);
  BOOST_TEST(f.truth.jobs == 2u);
  // Every time is 10 % longer, so every APE is 10.
  BOOST_CHECK_SMALL(f.ape_avg_training - 10, 1e-9);  // 137.5 vs 125
  BOOST_CHECK_SMALL(f.ape_avg_jct - 10, 1e-9);       // 165 vs 150
  BOOST_CHECK_SMALL(f.ape_median_jct - 10, 1e-9);
  BOOST_CHECK_SMALL(f.ape_p99_jct - 10, 1e-9);
  BOOST_CHECK_SMALL(f.ape_makespan - 10, 1e-9);  // 220 vs 200
  BOOST_CHECK_SMALL(f.ape_avg_wait - 10, 1e-9);  // 27.5 vs 25
  // JCTs {110, 220} vs {100, 200}: F_sim jumps later at both points, so the gap is 1/2 at v = 100
  // and at v = 200; W1 = (10 + 20) / 2 = 15.
  BOOST_CHECK_SMALL(f.ks_jct - 0.5, 1e-12);
  BOOST_CHECK_SMALL(f.wasserstein_jct_s - 15, 1e-9);
}

BOOST_AUTO_TEST_SUITE_END()
