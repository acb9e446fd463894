#define BOOST_TEST_MODULE sweep_spec
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>

#include "mosim/sweep.hpp"
#include "test_support.hpp"
#include "workload/random.hpp"

namespace mosim::sweep {
std::ostream& operator<<(std::ostream& out, PointStatus status) { return out << static_cast<int>(status); }
}  // namespace mosim::sweep

using namespace mosim;
using namespace mosim::sweep;
using test::Expected;
using test::throwsInputError;

namespace {

SweepSpec parse(const std::string& text) { return parseSweepSpec(text, "spec.yaml"); }

const std::vector<std::string>& values(const SweepSpec& spec, std::size_t axis) {
  return spec.axes.at(axis).values;
}

}  // namespace

BOOST_AUTO_TEST_CASE(base_and_axes_in_the_order_written) {
  const SweepSpec spec = parse(
      "seed: 42\n"
      "base:\n"
      "  trace: synthetic\n"
      "  jobs: 200\n"
      "  nic-bandwidth: \"5 Gbps\"\n"
      "axes:\n"
      "  placement: [k8s-bin-packing, k8s-load-balancing]\n"
      "  seed: {values: [3, 1]}\n");
  BOOST_TEST(spec.seed == 42u);
  BOOST_TEST(spec.base.size() == 3u);
  BOOST_TEST(spec.base[2].name == "nic-bandwidth");
  BOOST_TEST(spec.base[2].value == "5 Gbps");
  BOOST_TEST(spec.base[2].line == 5u);
  BOOST_TEST(spec.axes.size() == 2u);
  BOOST_TEST(spec.axes[0].name == "placement");
  BOOST_TEST(spec.axes[1].name == "seed");
  BOOST_TEST(values(spec, 1) == (std::vector<std::string>{"3", "1"}));  // as written, not sorted
  BOOST_TEST(spec.axes[1].value_lines == (std::vector<std::size_t>{8, 8}));
  BOOST_TEST(spec.pointCount() == 4u);
}

// Ranges are exact decimals: repeated addition of 0.005 would give 0.015000000000000001.
BOOST_AUTO_TEST_CASE(ranges_give_exact_decimal_values) {
  const SweepSpec spec = parse(
      "axes:\n"
      "  jobs: {from: 1, to: 30}\n"
      "  fixed-ratio: {from: 0.005, to: 0.02, step: 0.005}\n"
      "  nic-bandwidth: {from: 5, to: 25, step: 10, unit: Gbps}\n"
      "  arrival-rate: {from: 0.1, to: 1, step: 0.3}\n");
  BOOST_TEST(values(spec, 0).size() == 30u);
  BOOST_TEST(values(spec, 0).front() == "1");
  BOOST_TEST(values(spec, 0).back() == "30");
  BOOST_TEST(values(spec, 1) == (std::vector<std::string>{"0.005", "0.01", "0.015", "0.02"}));
  BOOST_TEST(values(spec, 2) == (std::vector<std::string>{"5 Gbps", "15 Gbps", "25 Gbps"}));
  // 0.1, 0.4, 0.7, 1.0: the last step lands on `to` exactly.
  BOOST_TEST(values(spec, 3) == (std::vector<std::string>{"0.1", "0.4", "0.7", "1"}));
  BOOST_TEST(spec.pointCount() == 30u * 4u * 3u * 4u);
}

BOOST_AUTO_TEST_CASE(a_range_stops_below_an_unreached_end) {
  // 0, 0.3, 0.6, 0.9; the next, 1.2, is past 1.
  const SweepSpec spec = parse("axes:\n  fixed-ratio: {from: 0, to: 1, step: 0.3}\n");
  BOOST_TEST(values(spec, 0) == (std::vector<std::string>{"0", "0.3", "0.6", "0.9"}));
  // Negative bounds generate negative values, which go through the option like any other.
  BOOST_TEST(test::throwsInputError([] { parse("axes:\n  jobs: {from: -1, to: 1}\n"); },
                                    Expected{"spec.yaml", 2, "jobs", "axis value '-1' is rejected"}));
}

// Mixed radix, the last axis fastest: with axes of 3, 2 and 2 values, point p has coordinates
// (p / 4, (p / 2) % 2, p % 2).
BOOST_AUTO_TEST_CASE(points_enumerate_the_grid_last_axis_fastest) {
  const SweepSpec spec = parse(
      "axes:\n"
      "  seed: [1, 2, 3]\n"
      "  placement: [k8s-load-balancing, k8s-bin-packing]\n"
      "  contention: [none, fixed]\n");
  BOOST_TEST(spec.pointCount() == 12u);
  BOOST_TEST(spec.coordinates(0) == (std::vector<std::uint32_t>{0, 0, 0}));
  BOOST_TEST(spec.coordinates(1) == (std::vector<std::uint32_t>{0, 0, 1}));
  BOOST_TEST(spec.coordinates(2) == (std::vector<std::uint32_t>{0, 1, 0}));
  BOOST_TEST(spec.coordinates(7) == (std::vector<std::uint32_t>{1, 1, 1}));
  BOOST_TEST(spec.coordinates(11) == (std::vector<std::uint32_t>{2, 1, 1}));
  BOOST_TEST(spec.describePoint(6) == "seed=2, placement=k8s-bin-packing, contention=none");

  const Scenario scenario = spec.scenario(6);
  BOOST_TEST(scenario.placement == "k8s-bin-packing");
  BOOST_TEST(scenario.contention == "none");
}

// The scenario seed mixes only the spec's seed and the point's seed value: points that differ in
// policy get the same seed (common random numbers), points that differ in seed do not.
BOOST_AUTO_TEST_CASE(seeds_depend_on_the_spec_seed_and_the_seed_axis_only) {
  // SplitMix64's first output from state 0 is 0xE220A8397B1DCDAF (the reference sequence);
  // our finaliser adds the increment first, so splitmix64(0) is that output.
  BOOST_TEST(detail::splitmix64(0) == 0xE220A8397B1DCDAFULL);

  const SweepSpec spec = parse(
      "seed: 5\n"
      "axes:\n"
      "  seed: [1, 2]\n"
      "  placement: [k8s-load-balancing, k8s-bin-packing]\n"
      "  nic-bandwidth: [5 Gbps, 10 Gbps]\n");
  const std::uint64_t expected_1 = detail::splitmix64(detail::splitmix64(5) ^ 1) >> 1;
  const std::uint64_t expected_2 = detail::splitmix64(detail::splitmix64(5) ^ 2) >> 1;
  for (std::uint64_t point = 0; point < 4; ++point) BOOST_TEST(spec.scenarioSeed(point) == expected_1);
  for (std::uint64_t point = 4; point < 8; ++point) BOOST_TEST(spec.scenarioSeed(point) == expected_2);
  BOOST_TEST(expected_1 != expected_2);
  BOOST_TEST(spec.scenario(3).seed == expected_1);
  BOOST_TEST(expected_1 < (1ULL << 63));  // what the seed option accepts

  // Another spec seed moves every point's seed.
  const SweepSpec other = parse("seed: 6\naxes:\n  seed: [1, 2]\n");
  BOOST_TEST(other.scenarioSeed(0) != expected_1);
  // Without a seed axis the base's seed is mixed in; without either, 0.
  BOOST_TEST(parse("seed: 5\nbase: {seed: 2}\naxes:\n  jobs: [1]\n").scenarioSeed(0) == expected_2);
  BOOST_TEST(parse("seed: 5\naxes:\n  jobs: [1]\n").scenarioSeed(0) ==
             (detail::splitmix64(detail::splitmix64(5) ^ 0) >> 1));
}

BOOST_AUTO_TEST_CASE(the_hash_follows_the_text) {
  const SweepSpec a = parse("axes:\n  jobs: [1]\n");
  const SweepSpec b = parse("axes:\n  jobs: [1]  # a comment\n");
  BOOST_TEST(a.hash().size() == 16u);
  BOOST_TEST(a.hash() == parse("axes:\n  jobs: [1]\n").hash());
  BOOST_TEST(a.hash() != b.hash());
  // FNV-1a of the empty string is its offset basis.
  SweepSpec empty;
  BOOST_TEST(empty.hash() == "cbf29ce484222325");
}

BOOST_AUTO_TEST_CASE(shards_take_every_nth_point) {
  const Shard shard = parseShard("1/4");
  BOOST_TEST(shard.index == 1u);
  BOOST_TEST(shard.count == 4u);
  BOOST_TEST(shard.text() == "1/4");
  BOOST_TEST(shard.holds(1));
  BOOST_TEST(shard.holds(5));
  BOOST_TEST(!shard.holds(4));
  BOOST_TEST(parseShard("0/1").text() == "all");
  for (const char* bad : {"4/4", "1", "a/b", "1/0", "-1/4", "1/4/2"})
    BOOST_CHECK_THROW(parseShard(bad), std::invalid_argument);
}

// ---- Bad input: file, line, key, and what is wrong ----------------------------------------------

BOOST_AUTO_TEST_CASE(unknown_options_and_keys_are_errors) {
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: [1]\n  speed: [1, 2]\n"); },
                              Expected{"spec.yaml", 3, "speed", "unknown option"}));
  BOOST_TEST(throwsInputError([] { parse("base:\n  colour: red\naxes:\n  jobs: [1]\n"); },
                              Expected{"spec.yaml", 2, "colour", "unknown option"}));
  BOOST_TEST(throwsInputError([] { parse("metrics: [avg_jct]\naxes:\n  jobs: [1]\n"); },
                              Expected{"spec.yaml", 1, "metrics", "unknown key"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: {from: 1, upto: 3}\n"); },
                              Expected{"spec.yaml", 2, "upto", "unknown key"}));
}

BOOST_AUTO_TEST_CASE(empty_or_missing_axes_are_errors) {
  BOOST_TEST(throwsInputError([] { parse("axes:\n  placement: []\n"); },
                              Expected{"spec.yaml", 2, "placement", "no values"}));
  BOOST_TEST(throwsInputError([] { parse("base:\n  jobs: 3\n"); },
                              Expected{"spec.yaml", 1, "axes", "at least one axis"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  placement: colocate\n"); },
                              Expected{"spec.yaml", 2, "placement", "list of values"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: [1]\n  jobs: [2]\n"); },
                              Expected{"spec.yaml", 3, "jobs", "twice"}));
  BOOST_TEST(throwsInputError([] { parse("base:\n  jobs: 3\naxes:\n  jobs: [1]\n"); },
                              Expected{"spec.yaml", 4, "jobs", "both an axis and in `base` (line 2)"}));
}

// A rejected value names the axis, the value, the option's reason, and the first point that has
// it: with contention (2 values) after placement, placement's second value starts at point 2.
BOOST_AUTO_TEST_CASE(every_axis_value_is_checked_before_any_work) {
  BOOST_TEST(throwsInputError(
      [] { parse("axes:\n  placement:\n    - k8s-bin-packing\n    - spread\n  contention: [none, fixed]\n"); },
      Expected{"spec.yaml", 4, "placement",
               "axis value 'spread' is rejected, e.g. at point 2 (placement=spread, contention=none): "
               "--placement 'spread': unknown name"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  nic-bandwidth: [5 Gbps, 463]\n"); },
                              Expected{"spec.yaml", 2, "nic-bandwidth", "'463' is rejected, e.g. at point 1"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  servers: {from: 0, to: 2}\n"); },
                              Expected{"spec.yaml", 2, "servers", "'0' is rejected, e.g. at point 0"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  seed: [1, -2]\n"); },
                              Expected{"spec.yaml", 2, "seed", "'-2' is rejected"}));
  BOOST_TEST(throwsInputError([] { parse("base:\n  queue: lifo\naxes:\n  jobs: [1]\n"); },
                              Expected{"spec.yaml", 2, "queue", "--queue 'lifo'"}));
}

BOOST_AUTO_TEST_CASE(bad_ranges_and_seeds_are_errors) {
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: {from: 3, to: 1}\n"); },
                              Expected{"spec.yaml", 2, "jobs", "below `from`"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: {from: 1, to: 3, step: 0}\n"); },
                              Expected{"spec.yaml", 2, "jobs", "step` must be positive"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: {from: one, to: 3}\n"); },
                              Expected{"spec.yaml", 2, "jobs", "not a plain decimal"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: {from: 1}\n"); },
                              Expected{"spec.yaml", 2, "jobs", "needs `from` and `to`"}));
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: {from: 0, to: 1000000000}\n"); },
                              Expected{"spec.yaml", 2, "jobs", "more than 100000000"}));
  BOOST_TEST(throwsInputError([] { parse("seed: -1\naxes:\n  jobs: [1]\n"); },
                              Expected{"spec.yaml", 1, "seed", "'-1'"}));
}

BOOST_AUTO_TEST_CASE(malformed_yaml_names_the_line) {
  BOOST_TEST(throwsInputError([] { parse("axes:\n  jobs: [1, 2\n  placement: [colocate]\n"); },
                              Expected{"spec.yaml", 3, "", "malformed YAML"}));
  BOOST_TEST(throwsInputError([] { parse("- just\n- a list\n"); },
                              Expected{"spec.yaml", 1, "", "a sweep spec is a map"}));
  BOOST_TEST(throwsInputError([] { readSweepSpec(test::kTestData + "/sweeps/absent.yaml"); },
                              Expected{test::kTestData + "/sweeps/absent.yaml", 0, "", "cannot open"}));
}

// ---- Running points -----------------------------------------------------------------------------

namespace {
const char* kSmall =
    "seed: 3\n"
    "base: {trace: synthetic, jobs: 12, servers: 2, gpus-per-server: 8}\n"
    "axes:\n"
    "  seed: [1, 2]\n"
    "  placement: [k8s-load-balancing, k8s-bin-packing]\n"
    "  contention: [fixed, paper]\n";
}

BOOST_AUTO_TEST_CASE(a_point_is_the_same_every_time) {
  const SweepSpec spec = parse(kSmall);
  for (std::uint64_t point : {0u, 3u, 7u}) {
    const PointResult a = runPoint(spec, point, true), b = runPoint(spec, point, true);
    BOOST_TEST(a.status == PointStatus::Ok);
    BOOST_TEST(a.point == point);
    BOOST_TEST(a.jobs + a.skipped == 12u);
    BOOST_TEST(a.per_job.size() == 12u);
    BOOST_TEST(a.events > 0u);
    BOOST_TEST(sameResult(a, b));
  }
}

// Common random numbers: points 0..3 (seed 1) replay one trace whatever the policy; point 4
// (seed 2) another.
BOOST_AUTO_TEST_CASE(points_that_differ_in_policy_replay_the_same_trace) {
  const SweepSpec spec = parse(kSmall);
  auto submits = [&](std::uint64_t point) {
    std::vector<double> times;
    for (const JobRow& row : runPoint(spec, point, true).per_job) times.push_back(row.submit_s);
    return times;
  };
  const std::vector<double> trace_1 = submits(0);
  BOOST_TEST(submits(1) == trace_1);
  BOOST_TEST(submits(3) == trace_1);
  BOOST_TEST(submits(4) != trace_1);
  // ... while the policies do change the outcome: fixed vs paper contention.
  BOOST_TEST(runPoint(spec, 0, false).aggregates.avg_jct_s != runPoint(spec, 1, false).aggregates.avg_jct_s);
}

BOOST_AUTO_TEST_CASE(a_rejected_scenario_is_a_failed_point_not_an_exception) {
  // A synthetic trace needs --jobs or --horizon: prepareScenario rejects every point.
  const SweepSpec spec = parse("base: {trace: synthetic}\naxes:\n  placement: [colocate]\n");
  const PointResult result = runPoint(spec, 0, false);
  BOOST_TEST(result.status == PointStatus::Failed);
  BOOST_TEST(result.error.find("needs --jobs") != std::string::npos, result.error);
  BOOST_TEST(std::isnan(result.aggregates.avg_jct_s));
  BOOST_TEST(result.jobs == 0u);
}

BOOST_AUTO_TEST_CASE(a_point_where_no_job_fits_has_no_aggregates) {
  // Both jobs of the trace ask for 64 GPUs; the cluster has 2 x 8.
  const SweepSpec spec = parse("base: {trace: " + test::kTestData +
                               "/sweeps/too_big.csv, servers: 2}\naxes:\n  placement: [k8s-bin-packing]\n");
  const PointResult result = runPoint(spec, 0, true);
  BOOST_TEST(result.status == PointStatus::NoCompletedJob);
  BOOST_TEST(result.skipped == 2u);
  BOOST_TEST(result.jobs == 0u);
  BOOST_TEST(std::isnan(result.aggregates.p99_jct_s));
  BOOST_TEST(result.per_job.size() == 2u);
  BOOST_TEST(result.per_job[0].status == 1u);
}
