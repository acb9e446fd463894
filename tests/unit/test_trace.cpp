#define BOOST_TEST_MODULE trace
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

#include "mosim/error.hpp"
#include "mosim/job.hpp"
#include "mosim/trace.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kTraces = kTestData + "/traces/";

// True when reading `name` from tests/data/traces with `reader` throws an InputError naming that
// file with the expected line, field and message part.
template <typename Reader>
bool rejects(Reader reader, const std::string& name, std::size_t line, const std::string& field,
             const std::string& fragment) {
  const std::string path = kTraces + name;
  return throwsInputError([&] { reader(path); }, {path, line, field, fragment});
}

}  // namespace

BOOST_AUTO_TEST_CASE(model_names) {
  BOOST_TEST(canonicalModelName("workload_01") == "alexnet");
  BOOST_TEST(canonicalModelName("workload_02") == "bert");
  BOOST_TEST(canonicalModelName("workload_04") == "densenet100_k12");
  BOOST_TEST(canonicalModelName("workload_05") == "densenet40_k12");
  BOOST_TEST(canonicalModelName("workload_06") == "googlenet");
  BOOST_TEST(canonicalModelName("workload_07") == "gpt2");
  BOOST_TEST(canonicalModelName("workload_11") == "inception3");
  BOOST_TEST(canonicalModelName("workload_12") == "resnet110");
  BOOST_TEST(canonicalModelName("workload_13") == "resnet44");
  BOOST_TEST(canonicalModelName("workload_14") == "resnet50");
  BOOST_TEST(canonicalModelName("workload_16") == "vgg16");
  BOOST_TEST(canonicalModelName("workload_17") == "wav2vec2");
  BOOST_TEST(canonicalModelName("workload_18") == "whisper");
  BOOST_TEST(canonicalModelName("workload_15") == "workload_15");  // unknown: unchanged
  BOOST_TEST(canonicalModelName("bert") == "bert");
  BOOST_TEST(canonicalModelName("") == "");
}

BOOST_AUTO_TEST_CASE(mosim_trace) {
  const Trace trace = readMosimTrace(kTraces + "mosim_ok.csv");
  BOOST_TEST(trace.path == kTraces + "mosim_ok.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 4u);
  const Job& first = trace.jobs[0];
  BOOST_TEST(first.id == 0);
  BOOST_TEST(first.model == "bert");
  BOOST_TEST(first.submit_s == 0.0);
  BOOST_TEST(first.num_gpus == 2);
  BOOST_TEST(first.duration_s == 100.0);
  BOOST_TEST(first.cpus_per_worker == 0);
  BOOST_TEST(first.source_line == 2u);
  BOOST_TEST(trace.jobs[1].model == "vgg16");  // workload ids are canonicalised
  BOOST_TEST(trace.jobs[1].submit_s == 10.5);
  BOOST_TEST(trace.jobs[1].source_line == 4u);  // after the blank line
  BOOST_TEST(trace.jobs[2].model == "");        // no model: pure compute
  BOOST_TEST(trace.jobs[2].submit_s == 20.0);   // quoted number
  BOOST_TEST(trace.jobs[2].duration_s == 30.25);
  BOOST_TEST(trace.jobs[3].id == 3);
  BOOST_TEST(trace.jobs[3].duration_s == 1000.0);
  BOOST_TEST(trace.jobs[3].model == "my \"quoted\" model");
  BOOST_TEST(trace.jobs[3].submit_s == 5.0);  // file order is kept; the engine sorts
}

BOOST_AUTO_TEST_CASE(artifact_trace) {
  const Trace trace = readArtifactTrace(kTraces + "artifact_ok.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 2u);
  BOOST_TEST(trace.jobs[0].model == "inception3");
  BOOST_TEST(trace.jobs[0].num_gpus == 4);
  BOOST_TEST(trace.jobs[0].duration_s == 673.0);
  BOOST_TEST(trace.jobs[0].cpus_per_worker == 5);
  BOOST_TEST(trace.jobs[1].model == "resnet44");
  BOOST_TEST(trace.jobs[1].submit_s == 12.5);
  BOOST_TEST(trace.jobs[1].source_line == 3u);
}

BOOST_AUTO_TEST_CASE(read_trace_detects_the_format) {
  BOOST_TEST(readTrace(kTraces + "mosim_ok.csv").jobs.size() == 4u);
  BOOST_TEST(readTrace(kTraces + "artifact_ok.csv").jobs.front().model == "inception3");
  BOOST_TEST(rejects(readTrace, "unknown_format.csv", 1, "", "arrival_time"));
  BOOST_TEST(rejects(readTrace, "unknown_format.csv", 1, "", "submit_time"));
}

BOOST_AUTO_TEST_CASE(malformed_mosim_traces) {
  BOOST_TEST(rejects(readMosimTrace, "missing_column.csv", 1, "duration", "missing"));
  BOOST_TEST(rejects(readMosimTrace, "not_a_number.csv", 3, "submit_time", "'abc' is not a number"));
  BOOST_TEST(rejects(readMosimTrace, "duration_zero.csv", 3, "duration", "positive"));
  BOOST_TEST(rejects(readMosimTrace, "duration_negative.csv", 2, "duration", "positive"));
  BOOST_TEST(rejects(readMosimTrace, "duration_nan.csv", 2, "duration", "finite"));
  BOOST_TEST(rejects(readMosimTrace, "duration_inf.csv", 2, "duration", "finite"));
  BOOST_TEST(rejects(readMosimTrace, "submit_negative.csv", 2, "submit_time", "negative"));
  BOOST_TEST(rejects(readMosimTrace, "gpus_zero.csv", 3, "num_gpus", "positive"));
  BOOST_TEST(rejects(readMosimTrace, "gpus_fractional.csv", 4, "num_gpus", "'1.5' is not a whole number"));
  BOOST_TEST(rejects(readMosimTrace, "duplicate_id.csv", 5, "job_id", "duplicate job id 7 (first on line 2)"));
  BOOST_TEST(rejects(readMosimTrace, "empty.csv", 0, "", "no data rows"));
  BOOST_TEST(rejects(readMosimTrace, "header_only.csv", 0, "", "no data rows"));
  BOOST_TEST(rejects(readMosimTrace, "too_many_fields.csv", 3, "", "5 fields"));
  // readTrace reports the same errors.
  BOOST_TEST(rejects(readTrace, "duplicate_id.csv", 5, "job_id", "first on line 2"));
  BOOST_TEST(rejects(readTrace, "empty.csv", 0, "", "no data rows"));
}

BOOST_AUTO_TEST_CASE(malformed_artifact_traces) {
  BOOST_TEST(rejects(readArtifactTrace, "artifact_gpu_per_worker.csv",
                     3, "gpu_per_worker", "only one GPU per worker is supported"));
  BOOST_TEST(rejects(readArtifactTrace, "artifact_ps.csv", 2, "ps", "parameter servers"));
  // Validation names the artifact's own columns.
  BOOST_TEST(rejects(readArtifactTrace, "artifact_duration_zero.csv", 3, "duration", "positive"));
  BOOST_TEST(rejects(readArtifactTrace, "mosim_ok.csv", 1, "arrival_time", "missing"));
}

BOOST_AUTO_TEST_CASE(validate_trace) {
  Trace trace;
  trace.path = "built.csv";
  const auto rejected = [&](std::size_t line, const std::string& field) {
    try {
      validateTrace(trace);
    } catch (const InputError& error) {
      BOOST_TEST_MESSAGE(error.what());
      return error.file() == "built.csv" && error.line() == line && error.field() == field;
    }
    return false;
  };
  BOOST_TEST(rejected(0, ""));  // no jobs

  trace.jobs.push_back({1, "bert", 0.0, 2, 10.0, 0, 2});
  trace.jobs.push_back({2, "", 5.0, 1, 10.0, 0, 3});
  BOOST_CHECK_NO_THROW(validateTrace(trace));

  trace.jobs[1].submit_s = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(rejected(3, "submit_time"));
  trace.jobs[1].submit_s = std::numeric_limits<double>::infinity();
  BOOST_TEST(rejected(3, "submit_time"));
  trace.jobs[1].submit_s = 5.0;
  trace.jobs[1].duration_s = std::numeric_limits<double>::infinity();
  BOOST_TEST(rejected(3, "duration"));
  trace.jobs[1].duration_s = -1;
  BOOST_TEST(rejected(3, "duration"));
  trace.jobs[1].duration_s = 10;
  trace.jobs[1].num_gpus = -2;
  BOOST_TEST(rejected(3, "num_gpus"));
  trace.jobs[1].num_gpus = 1;
  trace.jobs[1].id = 1;
  BOOST_TEST(rejected(3, "job_id"));
}

BOOST_AUTO_TEST_CASE(artifact_16gpu_trace) {
  if (!artifactPresent()) return;
  const Trace trace = readTrace(kArtifact + "/trace/testbed-trace-16gpu.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 30u);
  const Job& job3 = trace.jobs[3];
  BOOST_TEST(job3.id == 3);
  BOOST_TEST(job3.model == "vgg16");
  BOOST_TEST(job3.num_gpus == 2);
  BOOST_TEST(job3.submit_s == 2163.19);
  BOOST_TEST(job3.duration_s == 2299.0);
  BOOST_TEST(job3.cpus_per_worker == 5);
  BOOST_TEST(job3.source_line == 5u);
  BOOST_TEST(trace.jobs.back().submit_s == 15343.23);
}

BOOST_AUTO_TEST_CASE(artifact_32gpu_trace) {
  if (!artifactPresent()) return;
  const Trace trace = readTrace(kArtifact + "/trace/testbed-trace-32gpu.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 60u);
  for (const Job& job : trace.jobs) {
    BOOST_TEST(job.submit_s == 0.0);
    BOOST_TEST(job.model.rfind("workload_", 0) == std::string::npos, "job " << job.id << ": " << job.model);
  }
  BOOST_TEST(trace.jobs[0].model == "inception3");
  BOOST_TEST(trace.jobs[0].num_gpus == 4);
  BOOST_TEST(trace.jobs[1].model == "vgg16");
}
