// Result files: jobs.csv round trips, summary.json, and the artifact's ground truth.
#define BOOST_TEST_MODULE output
#include <boost/test/unit_test.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include "mosim/error.hpp"
#include "mosim/metrics.hpp"
#include "mosim/output.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;
namespace fs = std::filesystem;

namespace {

const std::string kTruthDir = kTestData + "/truth/";
const std::string kPerJobResult =
    kArtifact + "/testbed/16gpu/5sched_v4_allreduce_phy_perjobresult.csv";

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

/// Same bits, or both NaN: what "reads back identically" means for a double.
bool identical(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) ||
         std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

/// Runs `action`, which must throw an InputError, and returns it.
template <typename Action>
InputError inputErrorOf(Action action) {
  try {
    action();
  } catch (const InputError& error) {
    return error;
  }
  BOOST_FAIL("expected an InputError");
  throw std::logic_error("unreachable");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(jobs_csv)

BOOST_AUTO_TEST_CASE(status_names) {
  BOOST_TEST(std::string(toString(JobStatus::Completed)) == "completed");
  BOOST_TEST(std::string(toString(JobStatus::Unplaceable)) == "unplaceable");
}

BOOST_AUTO_TEST_CASE(round_trip_is_bit_identical) {
  JobResult placed;
  placed.id = 7;
  placed.model = "bert";
  placed.num_gpus = 4;
  placed.servers = {0, 1, 1, 1};
  placed.submit_s = 0;
  placed.start_s = 0.1 + 0.2;  // 0.30000000000000004: needs all 17 digits
  placed.end_s = 1.0 / 3;
  placed.wait_s = placed.start_s - placed.submit_s;
  placed.training_s = placed.end_s - placed.start_s;
  placed.jct_s = 1e300;
  placed.compute_s = 5e-324;  // the smallest subnormal
  placed.comm_s = -0.0;
  placed.loading_s = 123456789.123456789;
  placed.iterations = 2.5;

  JobResult never_placed;  // ground-truth-like NaNs and no servers
  never_placed.id = 8;
  never_placed.model = "vgg16, batch 64 \"large\"";  // needs CSV quoting
  never_placed.num_gpus = 16;
  never_placed.submit_s = 12.75;
  never_placed.status = JobStatus::Unplaceable;

  const TemporaryFolder dir;
  const std::string path = dir / "jobs.csv";
  writeJobsCsv(path, {placed, never_placed});
  const std::vector<JobResult> back = readJobsCsv(path);

  BOOST_TEST_REQUIRE(back.size() == 2u);
  const JobResult* written[] = {&placed, &never_placed};
  for (std::size_t i = 0; i < back.size(); ++i) {
    const JobResult& a = *written[i];
    const JobResult& b = back[i];
    BOOST_TEST(a.id == b.id);
    BOOST_TEST(a.model == b.model);
    BOOST_TEST(a.num_gpus == b.num_gpus);
    BOOST_TEST(a.servers == b.servers);
    BOOST_TEST((a.status == b.status));
    const double expected[] = {a.submit_s,  a.start_s,   a.end_s,  a.wait_s,    a.training_s,
                               a.jct_s,     a.compute_s, a.comm_s, a.loading_s, a.iterations};
    const double actual[] = {b.submit_s,  b.start_s,   b.end_s,  b.wait_s,    b.training_s,
                             b.jct_s,     b.compute_s, b.comm_s, b.loading_s, b.iterations};
    for (std::size_t k = 0; k < std::size(expected); ++k)
      BOOST_TEST(identical(expected[k], actual[k]), "job " << a.id << " number " << k << ": "
                                                            << expected[k] << " vs " << actual[k]);
  }
}

BOOST_AUTO_TEST_CASE(layout_of_the_file) {
  JobResult job;
  job.id = 3;
  job.model = "resnet50";
  job.num_gpus = 2;
  job.servers = {0, 1};
  job.submit_s = 0;
  job.start_s = 0.1 + 0.2;
  job.end_s = 100;
  job.status = JobStatus::Completed;
  JobResult unplaceable;
  unplaceable.id = 4;
  unplaceable.status = JobStatus::Unplaceable;

  const TemporaryFolder dir;
  const std::string path = dir / "jobs.csv";
  writeJobsCsv(path, {job, unplaceable});
  // Shortest round-trip numbers, 0 without a decimal point, NaN as an empty field.
  BOOST_TEST(readFile(path) ==
             "job_id,model,num_gpus,servers,submit,start,end,wait,training,jct,compute,comm,"
             "loading,iterations,status\n"
             "3,resnet50,2,0|1,0,0.30000000000000004,100,,,,,,,,completed\n"
             "4,,0,,,,,,,,,,,,unplaceable\n");
}

BOOST_AUTO_TEST_CASE(no_jobs_gives_a_header_only) {
  const TemporaryFolder dir;
  const std::string path = dir / "jobs.csv";
  writeJobsCsv(path, {});
  BOOST_TEST(readJobsCsv(path).empty());
}

BOOST_AUTO_TEST_CASE(bad_fields_are_reported_with_line_and_column) {
  const TemporaryFolder dir;
  const std::string path = dir / "jobs.csv";
  const std::string header =
      "job_id,model,num_gpus,servers,submit,start,end,wait,training,jct,compute,comm,loading,"
      "iterations,status\n";
  const std::string good = "1,bert,1,0,0,0,1,0,1,1,,,,,completed\n";

  writeFile(path, header + good + "2,bert,1,0,zero,0,1,0,1,1,,,,,completed\n");
  InputError error = inputErrorOf([&] { readJobsCsv(path); });
  BOOST_TEST(error.file() == path);
  BOOST_TEST(error.line() == 3u);
  BOOST_TEST(error.field() == "submit");

  writeFile(path, header + "2,bert,2,0|x,0,0,1,0,1,1,,,,,completed\n");
  error = inputErrorOf([&] { readJobsCsv(path); });
  BOOST_TEST(error.line() == 2u);
  BOOST_TEST(error.field() == "servers");

  writeFile(path, header + good + good + "2,bert,1,0,0,0,1,0,1,1,,,,,done\n");
  error = inputErrorOf([&] { readJobsCsv(path); });
  BOOST_TEST(error.line() == 4u);
  BOOST_TEST(error.field() == "status");

  writeFile(path, "job_id,model\n1,bert\n");
  error = inputErrorOf([&] { readJobsCsv(path); });
  BOOST_TEST(error.field() == "num_gpus");  // the first missing column
}

BOOST_AUTO_TEST_CASE(unwritable_path_names_the_file) {
  const TemporaryFolder dir;
  const std::string path = dir / "no/such/dir/jobs.csv";
  const InputError error = inputErrorOf([&] { writeJobsCsv(path, {}); });
  BOOST_TEST(error.file() == path);
  BOOST_TEST(error.line() == 0u);
  BOOST_TEST(std::string(error.what()).find("No such file") != std::string::npos, error.what());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(summary_json)

BOOST_AUTO_TEST_CASE(keys_in_order_and_values) {
  Aggregates a;
  a.jobs = 30;
  a.avg_training_s = 1743.31;
  a.avg_jct_s = 2417.13;
  a.median_jct_s = 1302.86;
  a.p99_jct_s = 10067.23;
  a.makespan_s = 23355.35;
  a.avg_wait_s = 673.82;

  const TemporaryFolder dir;
  const std::string path = dir / "summary.json";
  writeSummaryJson(path, a, 2, 12345, 0.25);
  const std::string text = readFile(path);

  BOOST_TEST(text.starts_with("{\n  \"jobs\": 30,\n  \"avg_training\": 1743.31,"));  // indent 2
  BOOST_TEST(text.ends_with("\n}\n"));
  const auto json = nlohmann::json::parse(text);
  BOOST_TEST(json.size() == 10u);
  BOOST_TEST(json.at("jobs").get<std::size_t>() == 30u);
  BOOST_TEST(json.at("avg_training").get<double>() == 1743.31);
  BOOST_TEST(json.at("avg_jct").get<double>() == 2417.13);
  BOOST_TEST(json.at("median_jct").get<double>() == 1302.86);
  BOOST_TEST(json.at("p99_jct").get<double>() == 10067.23);
  BOOST_TEST(json.at("makespan").get<double>() == 23355.35);
  BOOST_TEST(json.at("avg_wait").get<double>() == 673.82);
  BOOST_TEST(json.at("skipped").get<std::size_t>() == 2u);
  BOOST_TEST(json.at("events").get<std::uint64_t>() == 12345u);
  BOOST_TEST(json.at("wall_seconds").get<double>() == 0.25);
}

BOOST_AUTO_TEST_CASE(unwritable_path_names_the_file) {
  const TemporaryFolder dir;
  const std::string path = dir / "missing/summary.json";
  const InputError error = inputErrorOf([&] { writeSummaryJson(path, Aggregates{}, 0, 0, 0); });
  BOOST_TEST(error.file() == path);
  BOOST_TEST(error.line() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(ground_truth)

BOOST_AUTO_TEST_CASE(artifact_16gpu_load_balancing) {
  if (!artifactPresent(kPerJobResult)) return;
  const std::vector<JobResult> truth = readGroundTruth(kPerJobResult, "k8s-load-balancing");
  BOOST_TEST_REQUIRE(truth.size() == 30u);
  // Row "k8s-load-balancing,1,bert,822.37,0,212.826,211.4991": start = arrival + wait,
  // end = arrival + JCT.
  BOOST_TEST(truth[1].id == 1);
  BOOST_TEST(truth[1].model == "bert");
  BOOST_TEST(truth[1].submit_s == 822.37);
  BOOST_TEST(truth[1].start_s == 822.37 + 0.0);
  BOOST_TEST(truth[1].end_s == 822.37 + 211.4991);
  BOOST_TEST(truth[1].training_s == 212.826);
  BOOST_TEST(std::isnan(truth[1].compute_s));  // the testbed has no compute split

  // mosim-reference.md §12; makespan = max(arrival + JCT) - min arrival.
  const Aggregates a = aggregate(truth);
  BOOST_TEST(a.jobs == 30u);
  BOOST_CHECK_SMALL(a.avg_training_s - 4222.35, 0.005);
  BOOST_CHECK_SMALL(a.avg_wait_s - 4946.81, 0.005);
  BOOST_CHECK_SMALL(a.avg_jct_s - 9168.98, 0.005);
  BOOST_CHECK_SMALL(a.median_jct_s - 8523.45, 0.005);
  BOOST_CHECK_SMALL(a.p99_jct_s - 30680.78, 0.005);
  BOOST_CHECK_SMALL(a.makespan_s - 44496.63, 0.005);

  // Table II, Tiresias: the simulated 16gpu profiling/none aggregates (mosim-reference §11)
  // against this truth give the paper's 58.71, 73.64, 67.19 and 47.51.
  BOOST_CHECK_SMALL(absolutePercentError(1743.31, a.avg_training_s) - 58.71, 0.01);
  BOOST_CHECK_SMALL(absolutePercentError(2417.13, a.avg_jct_s) - 73.64, 0.01);
  BOOST_CHECK_SMALL(absolutePercentError(10067.23, a.p99_jct_s) - 67.19, 0.01);
  BOOST_CHECK_SMALL(absolutePercentError(23355.35, a.makespan_s) - 47.51, 0.01);
}

BOOST_AUTO_TEST_CASE(artifact_16gpu_needs_a_placement) {
  if (!artifactPresent(kPerJobResult)) return;
  const InputError error = inputErrorOf([&] { readGroundTruth(kPerJobResult, ""); });
  BOOST_TEST(error.field() == "placement");
  const std::string message = error.what();
  for (const char* placement : {"k8s-load-balancing", "k8s-bin-packing", "colocate"})
    BOOST_TEST(message.find(placement) != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(per_job_sample_selects_one_placement) {
  const std::string path = kTruthDir + "perjob_two_placements.csv";
  const std::vector<JobResult> truth = readGroundTruth(path, "colocate");
  BOOST_TEST_REQUIRE(truth.size() == 2u);
  // "colocate,1,vgg16,10,5,50,55": start 10 + 5, end 10 + 55.
  BOOST_TEST(truth[1].id == 1);
  BOOST_TEST(truth[1].model == "vgg16");
  BOOST_TEST(truth[1].start_s == 15.0);
  BOOST_TEST(truth[1].end_s == 65.0);
  BOOST_TEST(truth[1].wait_s == 5.0);
  BOOST_TEST(truth[1].training_s == 50.0);
  BOOST_TEST(truth[1].jct_s == 55.0);
  BOOST_TEST((truth[1].status == JobStatus::Completed));
}

BOOST_AUTO_TEST_CASE(per_job_sample_placement_missing_or_ambiguous) {
  const std::string path = kTruthDir + "perjob_two_placements.csv";
  for (const std::string placement : {"", "k8s-load-balancing"}) {
    const InputError error = inputErrorOf([&] { readGroundTruth(path, placement); });
    BOOST_TEST(error.file() == path);
    BOOST_TEST(error.line() == 0u);
    BOOST_TEST(error.field() == "placement");
    BOOST_TEST(std::string(error.what()).find("present: colocate, k8s-bin-packing") !=
                   std::string::npos,
               error.what());
  }
}

BOOST_AUTO_TEST_CASE(per_policy_sample) {
  // 32gpu layout: "id" prefixes, two training_time columns of which the first counts.
  const std::vector<JobResult> truth = readGroundTruth(kTruthDir + "k8slb_sample.csv", "ignored");
  BOOST_TEST_REQUIRE(truth.size() == 3u);
  BOOST_TEST(truth[2].id == 12);
  BOOST_TEST(truth[2].model == "resnet50");
  BOOST_TEST(truth[2].submit_s == 0.0);
  BOOST_TEST(truth[2].start_s == 10.0);
  BOOST_TEST(truth[2].end_s == 110.25);
  BOOST_TEST(truth[2].training_s == 100.25);  // not the second column's 99
  BOOST_TEST(truth[2].wait_s == 10.0);
  BOOST_TEST(truth[2].jct_s == 110.25);
  // training (1200.5 + 1799.5 + 100.25) / 3; makespan last end 3000 - first arrival 0.
  const Aggregates a = aggregate(truth);
  BOOST_CHECK_SMALL(a.avg_training_s - 3100.25 / 3, 1e-9);
  BOOST_CHECK_SMALL(a.makespan_s - 3000, 1e-9);
}

BOOST_AUTO_TEST_CASE(malformed_samples) {
  std::string path = kTruthDir + "bad_number.csv";
  InputError error = inputErrorOf([&] { readGroundTruth(path, "colocate"); });
  BOOST_TEST(error.file() == path);
  BOOST_TEST(error.line() == 3u);
  BOOST_TEST(error.field() == "jcts");

  path = kTruthDir + "bad_id.csv";
  error = inputErrorOf([&] { readGroundTruth(path, ""); });
  BOOST_TEST(error.line() == 3u);
  BOOST_TEST(error.field() == "job_id");

  path = kTruthDir + "unknown_layout.csv";
  error = inputErrorOf([&] { readGroundTruth(path, ""); });
  BOOST_TEST(error.file() == path);
  const std::string message = error.what();
  BOOST_TEST(message.find("16gpu") != std::string::npos, message);
  BOOST_TEST(message.find("32gpu") != std::string::npos, message);

  path = kTruthDir + "no_such_file.csv";
  error = inputErrorOf([&] { readGroundTruth(path, ""); });
  BOOST_TEST(error.file() == path);
}

BOOST_AUTO_TEST_SUITE_END()
