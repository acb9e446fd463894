#define BOOST_TEST_MODULE synthetic
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mosim/synthetic.hpp"
#include "mosim/trace.hpp"
#include "workload/random.hpp"

using namespace mosim;

namespace {

std::string csvOf(const Trace& trace) {
  std::ostringstream out;
  writeMosimTrace(out, trace);
  return out.str();
}

/// numpy's default quantile: linear interpolation between order statistics of sorted values.
double quantile(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(position);
  if (below + 1 >= sorted.size()) return sorted.back();
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + (sorted[below + 1] - sorted[below]) * fraction;
}

}  // namespace

BOOST_AUTO_TEST_CASE(portable_log_and_exp_agree_with_libm) {
  for (double x : {1e-300, 1e-10, 0.1, 0.5, 0.7071, 1.0, 1.5, 2.0, 3.0, 10.0, 1186.0, 4628239.0,
                   1e300}) {
    BOOST_TEST(detail::portableLog(x) == std::log(x), boost::test_tools::tolerance(1e-15));
  }
  BOOST_TEST(detail::portableLog(1.0) == 0.0);
  for (double x : {-700.0, -20.0, -1.0, -1e-9, 0.0, 0.3, 1.0, 7.08, 15.3, 700.0})
    BOOST_TEST(detail::portableExp(x) == std::exp(x), boost::test_tools::tolerance(1e-15));
  BOOST_TEST(detail::portableExp(0.0) == 1.0);
  BOOST_TEST(std::isinf(detail::portableExp(800.0)));
}

BOOST_AUTO_TEST_CASE(the_figures_are_the_documented_ones) {
  const auto shares = phillyGpuShares();
  BOOST_TEST_REQUIRE(shares.size() == 6u);
  double total = 0;
  for (const GpuShare& share : shares) total += share.share;
  BOOST_TEST(total == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(shares[0].gpus == 1);
  BOOST_TEST(shares[0].share == 4685 / 10879.0);
  BOOST_TEST(shares[5].gpus == 32);

  // facts.md: 10% 61 s, 25% 131 s, 50% 1,186 s, 75% 3,342 s, 90% 12,859 s, 99% 287,283 s.
  BOOST_TEST(phillyDurationQuantile_s(0.10) == 61.0);
  BOOST_TEST(phillyDurationQuantile_s(0.25) == 131.0);
  BOOST_TEST(phillyDurationQuantile_s(0.50) == 1186.0);
  BOOST_TEST(phillyDurationQuantile_s(0.75) == 3341.5);
  BOOST_TEST(phillyDurationQuantile_s(0.90) == 12859.4);
  BOOST_TEST(phillyDurationQuantile_s(0.99) == 287283.2);
  BOOST_TEST(phillyDurationQuantile_s(0.0) == 1.0);
  BOOST_TEST(phillyDurationQuantile_s(1.0) == 4628239.0);
  // Log-linear between knots: halfway from 0.5 (1,186 s) to 0.55 (1,500 s) is their geometric mean.
  BOOST_TEST(phillyDurationQuantile_s(0.525) == std::sqrt(1186.0 * 1500.0),
             boost::test_tools::tolerance(1e-13));
  const auto knots = phillyDurationKnots();
  for (std::size_t i = 1; i < knots.size(); ++i) {
    BOOST_TEST(knots[i].quantile > knots[i - 1].quantile);
    BOOST_TEST(knots[i].value_s >= knots[i - 1].value_s);
  }
}

// Golden values: the first jobs of seed 2026, as every machine must produce them.
BOOST_AUTO_TEST_CASE(the_same_seed_gives_the_same_trace) {
  SyntheticSpec spec;
  spec.seed = 2026;
  spec.jobs = 3;
  const Trace trace = generateSyntheticTrace(spec);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  BOOST_TEST(trace.jobs[0].submit_s == 76.397418021088242);
  BOOST_TEST(trace.jobs[0].num_gpus == 4);
  BOOST_TEST(trace.jobs[0].duration_s == 1085.2266434525357);
  BOOST_TEST(trace.jobs[2].submit_s == 429.8820923706545);
  BOOST_TEST(trace.jobs[2].num_gpus == 8);
  BOOST_TEST(trace.jobs[2].duration_s == 3659.7534332871987);
  BOOST_TEST(trace.jobs[2].id == 2);
  BOOST_TEST(trace.jobs[2].model == "");

  // The documented draw order: gap, GPU count, duration from one mt19937_64 stream.
  std::mt19937_64 random(2026);
  const double gap_s = detail::exponentialGap_s(random, 0.005);
  BOOST_TEST(trace.jobs[0].submit_s == gap_s);

  spec.jobs = 1000;
  BOOST_TEST(csvOf(generateSyntheticTrace(spec)) == csvOf(generateSyntheticTrace(spec)));
  SyntheticSpec other = spec;
  other.seed = 2027;
  BOOST_TEST(csvOf(generateSyntheticTrace(spec)) != csvOf(generateSyntheticTrace(other)));
}

// 200,000 jobs: every documented figure within a tolerance far above the sampling noise
// (GPU shares: standard deviation <= 0.0011; quantiles: ~1%; mean: ~2% for this tail).
BOOST_AUTO_TEST_CASE(a_large_sample_matches_philly) {
  SyntheticSpec spec;
  spec.seed = 1;
  spec.jobs = 200000;
  const Trace trace = generateSyntheticTrace(spec);
  BOOST_TEST_REQUIRE(trace.jobs.size() == spec.jobs);

  std::map<int, std::size_t> by_gpus;
  std::vector<double> durations;
  double sum_s = 0;
  for (const Job& job : trace.jobs) {
    ++by_gpus[job.num_gpus];
    durations.push_back(job.duration_s);
    sum_s += job.duration_s;
  }
  for (const GpuShare& share : phillyGpuShares())
    BOOST_TEST(static_cast<double>(by_gpus[share.gpus]) / 200000.0 == share.share,
               boost::test_tools::tolerance(0.005 / share.share));
  BOOST_TEST(by_gpus.size() == 6u);

  std::sort(durations.begin(), durations.end());
  const std::pair<double, double> targets[] = {{0.10, 61},    {0.25, 131},     {0.50, 1186},
                                               {0.75, 3342},  {0.90, 12859},   {0.99, 287283}};
  for (const auto& [p, target_s] : targets)
    BOOST_TEST(quantile(durations, p) == target_s, boost::test_tools::tolerance(0.04));
  BOOST_TEST(sum_s / 200000.0 == 14613.0, boost::test_tools::tolerance(0.06));  // facts.md mean
  BOOST_TEST(durations.front() >= 1.0);

  // Poisson arrivals at 0.005/s: mean gap 200 s.
  const double mean_gap_s = trace.jobs.back().submit_s / 200000.0;
  BOOST_TEST(mean_gap_s == 200.0, boost::test_tools::tolerance(0.01));
  for (std::size_t i = 1; i < trace.jobs.size(); ++i)
    BOOST_REQUIRE(trace.jobs[i].submit_s >= trace.jobs[i - 1].submit_s);
}

BOOST_AUTO_TEST_CASE(horizon_and_gpu_cap) {
  SyntheticSpec spec;
  spec.seed = 5;
  spec.horizon_s = 2e6;  // 10,000 arrivals expected at 0.005/s
  spec.max_gpus = 8;
  const Trace trace = generateSyntheticTrace(spec);
  BOOST_TEST(trace.jobs.size() > 9700u);
  BOOST_TEST(trace.jobs.size() < 10300u);
  std::size_t one_gpu = 0;
  for (const Job& job : trace.jobs) {
    BOOST_TEST_REQUIRE(job.submit_s < 2e6);
    BOOST_TEST_REQUIRE(job.num_gpus <= 8);
    one_gpu += job.num_gpus == 1;
  }
  // Without 16 and 32, 1 GPU has 4,685 of the 10,216 remaining jobs: 0.4586.
  BOOST_TEST(static_cast<double>(one_gpu) / static_cast<double>(trace.jobs.size()) == 0.4586,
             boost::test_tools::tolerance(0.03));
}

BOOST_AUTO_TEST_CASE(bad_specs) {
  SyntheticSpec spec;
  BOOST_CHECK_THROW(generateSyntheticTrace(spec), std::invalid_argument);  // no count, no horizon
  spec.jobs = 10;
  spec.horizon_s = 100;
  BOOST_CHECK_THROW(generateSyntheticTrace(spec), std::invalid_argument);  // both
  spec.horizon_s = 0;
  spec.rate_per_s = 0;
  BOOST_CHECK_THROW(generateSyntheticTrace(spec), std::invalid_argument);
  spec.rate_per_s = NAN;
  BOOST_CHECK_THROW(generateSyntheticTrace(spec), std::invalid_argument);
  spec.rate_per_s = 0.005;
  spec.max_gpus = -1;
  BOOST_CHECK_THROW(generateSyntheticTrace(spec), std::invalid_argument);
}

// ---- Resampling ---------------------------------------------------------------------------------

namespace {

Trace smallSource() {
  Trace source;
  source.path = "source.csv";
  const std::pair<int, double> jobs[] = {{1, 100}, {2, 200}, {4, 400}, {8, 800}};
  for (std::size_t i = 0; i < 4; ++i) {
    Job job;
    job.id = static_cast<JobId>(10 + i);
    job.submit_s = 1000.0 * static_cast<double>(i);  // mean rate 3 / 3000 s = 0.001/s
    job.num_gpus = jobs[i].first;
    job.duration_s = jobs[i].second;
    job.model = fmt::format("m{}", i);
    job.name = fmt::format("n{}", i);
    source.jobs.push_back(job);
  }
  return source;
}

}  // namespace

BOOST_AUTO_TEST_CASE(resampling_keeps_jobs_and_redraws_arrivals) {
  const Trace source = smallSource();
  ResampleSpec spec;
  spec.seed = 3;
  spec.jobs = 20000;
  const Trace trace = resampleTrace(source, spec);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 20000u);
  std::map<int, std::size_t> drawn;
  for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
    const Job& job = trace.jobs[i];
    BOOST_REQUIRE(job.id == static_cast<JobId>(i));
    // A drawn job is one of the source's, whole: GPUs, duration, model and name together.
    BOOST_REQUIRE(job.duration_s == 100.0 * job.num_gpus);
    BOOST_REQUIRE(job.model.substr(1) == job.name.substr(1));
    ++drawn[job.num_gpus];
  }
  for (int gpus : {1, 2, 4, 8})
    BOOST_TEST(static_cast<double>(drawn[gpus]) / 20000.0 == 0.25, boost::test_tools::tolerance(0.06));
  // The source's mean rate, 0.001/s: 20,000 arrivals take about 2e7 s.
  BOOST_TEST(trace.jobs.back().submit_s == 2e7, boost::test_tools::tolerance(0.03));
  BOOST_TEST(csvOf(trace) == csvOf(resampleTrace(source, spec)));

  spec.rate_per_s = 0.01;
  BOOST_TEST(resampleTrace(source, spec).jobs.back().submit_s == 2e6, boost::test_tools::tolerance(0.03));
}

BOOST_AUTO_TEST_CASE(resampling_can_keep_submit_times) {
  ResampleSpec spec;
  spec.seed = 4;
  spec.jobs = 100;
  spec.arrivals = ResampleArrivals::Keep;
  const Trace trace = resampleTrace(smallSource(), spec);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 100u);
  for (std::size_t i = 0; i < trace.jobs.size(); ++i) {
    const Job& job = trace.jobs[i];
    // Job k of the source (k GPUs = 2^k) submitted at 1000 k.
    const double k = std::log2(job.num_gpus);
    BOOST_TEST(job.submit_s == 1000.0 * k);
    if (i > 0) BOOST_TEST(job.submit_s >= trace.jobs[i - 1].submit_s);
  }
}

BOOST_AUTO_TEST_CASE(resampling_errors) {
  ResampleSpec spec;
  spec.jobs = 10;
  BOOST_CHECK_THROW(resampleTrace(Trace{}, spec), std::invalid_argument);
  Trace one = smallSource();
  one.jobs.resize(1);
  BOOST_CHECK_THROW(resampleTrace(one, spec), std::invalid_argument);  // no rate to keep
  spec.rate_per_s = 0.1;
  BOOST_TEST(resampleTrace(one, spec).jobs.size() == 10u);
  spec.jobs = 0;
  BOOST_CHECK_THROW(resampleTrace(one, spec), std::invalid_argument);
}
