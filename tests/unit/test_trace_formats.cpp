#define BOOST_TEST_MODULE trace_formats
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>

#include "mosim/error.hpp"
#include "mosim/synthetic.hpp"
#include "mosim/trace.hpp"
#include "test_support.hpp"
#include "trace/trace_readers.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kTraces = kTestData + "/traces/";

Trace read(const std::string& name, const TraceOptions& options = {}) {
  return readTraceFile(kTraces + name, options);
}

bool rejects(const std::string& name, std::size_t line, const std::string& field,
             const std::string& fragment, const TraceOptions& options = {}) {
  const std::string path = kTraces + name;
  return throwsInputError([&] { readTraceFile(path, options); }, {path, line, field, fragment});
}

std::size_t skipped(const Trace& trace, const std::string& reason) {
  const auto found = trace.report.skipped.find(reason);
  return found == trace.report.skipped.end() ? 0 : found->second;
}

}  // namespace

// ---- Timestamps ---------------------------------------------------------------------------------

// 2017-10-03 00:00:00 UTC is 17,442 days after 1970-01-01: 1,506,988,800 s. 02:47:23 adds 10,043 s.
BOOST_AUTO_TEST_CASE(timestamps) {
  using detail::parseTimestamp_s;
  BOOST_TEST(*parseTimestamp_s("1970-01-01 00:00:00") == 0.0);
  BOOST_TEST(*parseTimestamp_s("2017-10-03 02:47:23") == 1506998843.0);
  BOOST_TEST(*parseTimestamp_s("2017-10-03T02:47:23Z") == 1506998843.0);
  BOOST_TEST(*parseTimestamp_s("2017-10-03T04:47:23+02:00") == 1506998843.0);
  BOOST_TEST(*parseTimestamp_s("2017-10-03 01:47:23-0100") == 1506998843.0);
  BOOST_TEST(*parseTimestamp_s("2017-10-03 02:47:23.25") == 1506998843.25);
  BOOST_TEST(*parseTimestamp_s("2017-10-03") == 1506988800.0);
  BOOST_TEST(*parseTimestamp_s(" 1506998843 ") == 1506998843.0);  // epoch seconds
  BOOST_TEST(*parseTimestamp_s("2016-02-29 00:00:00") == 1456704000.0);  // a leap day
  BOOST_TEST(*parseTimestamp_s("1969-12-31 23:59:59") == -1.0);
  for (const char* missing : {"", "None", "null", "NULL", "NaN", "NaT", "NA"})
    BOOST_TEST(!parseTimestamp_s(missing).has_value(), missing);
  BOOST_TEST(*parseTimestamp_s("2017-10-03 02:47") == 1506998820.0);  // seconds are optional
  for (const char* bad : {"2017-02-29 00:00:00", "2017-13-01", "2017-10-32", "2017-10-03 24:00:00",
                          "2017-10-03 02:47:23 UTC", "2017-10-03 02:47:23.", "yesterday", "17-10-03"})
    BOOST_CHECK_THROW(parseTimestamp_s(bad), std::invalid_argument);
}

// ---- Detection ----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(formats_are_detected_from_the_content) {
  const std::pair<const char*, TraceFormat> cases[] = {
      {"mosim_ok.csv", TraceFormat::Mosim},         {"artifact_ok.csv", TraceFormat::Artifact},
      {"philly/ok.json", TraceFormat::PhillyJson},  {"helios/ok.csv", TraceFormat::Helios},
      {"acme/ok.csv", TraceFormat::Acme},           {"tiresias/ok.csv", TraceFormat::Tiresias},
      {"muri/ok.csv", TraceFormat::Tiresias},       {"pollux/ok.csv", TraceFormat::Pollux},
      {"mosim/gpu_types.csv", TraceFormat::Mosim},
  };
  for (const auto& [name, format] : cases)
    BOOST_TEST((detectTraceFormat(kTraces + name) == format), name);
  BOOST_TEST(throwsInputError([] { detectTraceFormat(kTraces + "mosim/unknown_format.csv"); },
                              {kTraces + "mosim/unknown_format.csv", 1, "", "unknown trace format"}));
  BOOST_TEST(rejects("mosim/unknown_format.csv", 1, "", "Philly JSON"));
  BOOST_TEST(rejects("empty.csv", 0, "", "no data rows"));
}

BOOST_AUTO_TEST_CASE(format_names) {
  for (TraceFormat format : {TraceFormat::Auto, TraceFormat::Mosim, TraceFormat::Artifact,
                             TraceFormat::PhillyJson, TraceFormat::Helios, TraceFormat::Acme,
                             TraceFormat::Tiresias, TraceFormat::Pollux})
    BOOST_TEST((parseTraceFormat(traceFormatName(format)) == format));
  BOOST_TEST((parseTraceFormat("philly-json") == TraceFormat::PhillyJson));
  BOOST_CHECK_THROW(parseTraceFormat("csv"), std::invalid_argument);
  BOOST_TEST(parseStatusList("all").empty());
  BOOST_TEST(parseStatusList("").empty());
  BOOST_TEST((parseStatusList("pass, killed") == std::vector<std::string>{"pass", "killed"}));
  BOOST_CHECK_THROW(parseStatusList("pass,,killed"), std::invalid_argument);
  BOOST_CHECK_THROW(parseTimeOrigin("start"), std::invalid_argument);
  BOOST_CHECK_THROW(parseTimeUnit("us"), std::invalid_argument);
  BOOST_CHECK_THROW(parsePhillyAttempts("first"), std::invalid_argument);
  try {
    TraceOptionTexts texts;
    texts.time_unit = "minutes";
    parseTraceOptions(texts);
    BOOST_FAIL("expected an error");
  } catch (const std::invalid_argument& error) {
    BOOST_TEST(std::string(error.what()).find("--time-unit") != std::string::npos);
  }
}

// ---- Philly JSON --------------------------------------------------------------------------------

// philly/ok.json, by hand:
//  A 0001 Pass, submitted 02:47:23; attempt 1 02:50:00-03:00:00 (600 s) on m1 gpu0, gpu1 and m2
//    gpu0 = 3 GPUs; attempt 2 03:05:00-03:35:30 (1,830 s) on m3 gpu0, gpu1 = 2 GPUs.
//    All: 3 GPUs, 2,430 s. Last: 2 GPUs, 1,830 s.
//  B 0002 Killed, submitted 02:40:00 (the first); one attempt of 600 s on m1 gpu2, gpu3 (gpu2 is
//    listed twice) = 2 GPUs.
//  C 0003 no attempts; D 0004 its only attempt has no end; E 0005 no GPUs in its detail;
//  F 0006 submitted_time null; H 0008 Killed and its attempt ends before it starts.
//  G 0007 submitted at epoch 1507000000 = 03:06:40; one 60 s attempt on one GPU (m5 gpu7, listed
//    twice, the second time with "gpus" before "ip").
// Kept A, B, G as jobs 0, 1, 2; times from B's 02:40:00: A at 443 s, G at 1,600 s.
BOOST_AUTO_TEST_CASE(philly_json_every_status) {
  const Trace trace = read("philly/ok.json");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  const Job& a = trace.jobs[0];
  BOOST_TEST(a.id == 0);
  BOOST_TEST(a.name == "application_1_0001");
  BOOST_TEST(a.submit_s == 443.0);
  BOOST_TEST(a.num_gpus == 3);
  BOOST_TEST(a.duration_s == 2430.0);
  BOOST_TEST(a.source_line == 2u);
  BOOST_TEST(a.model == "");
  const Job& b = trace.jobs[1];
  BOOST_TEST(b.name == "application_1_0002");
  BOOST_TEST(b.submit_s == 0.0);
  BOOST_TEST(b.num_gpus == 2);
  BOOST_TEST(b.duration_s == 600.0);
  BOOST_TEST(b.source_line == 9u);
  const Job& g = trace.jobs[2];
  BOOST_TEST(g.id == 2);
  BOOST_TEST(g.name == "application_1_0007");
  BOOST_TEST(g.submit_s == 1600.0);
  BOOST_TEST(g.num_gpus == 1);
  BOOST_TEST(g.duration_s == 60.0);
  BOOST_TEST(g.source_line == 27u);

  BOOST_TEST(trace.report.kept == 3u);
  BOOST_TEST(trace.report.skippedTotal() == 5u);
  BOOST_TEST(skipped(trace, "no attempts") == 1u);
  BOOST_TEST(skipped(trace, "no attempt with start and end times") == 1u);
  BOOST_TEST(skipped(trace, "zero GPUs") == 1u);
  BOOST_TEST(skipped(trace, "no submit time") == 1u);
  BOOST_TEST(skipped(trace, "attempt ends before it starts") == 1u);
  BOOST_TEST(trace.report.source == kTraces + "philly/ok.json (philly)");
  BOOST_TEST(trace.report.examples.size() == 5u);
  BOOST_TEST(trace.report.examples[0] ==
             kTraces + "philly/ok.json:13: job application_1_0003: no attempts");
  BOOST_TEST(trace.report.summary().find("3 jobs kept, 5 skipped (") != std::string::npos);
}

// Only Pass: B, D and H are skipped for their status (D and H before their other faults); the
// origin moves to A's 02:47:23, so G submits at 03:06:40 - 02:47:23 = 1,157 s.
BOOST_AUTO_TEST_CASE(philly_json_pass_only) {
  TraceOptions options;
  options.statuses = {"pass"};
  const Trace trace = read("philly/ok.json", options);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 2u);
  BOOST_TEST(trace.jobs[0].name == "application_1_0001");
  BOOST_TEST(trace.jobs[0].submit_s == 0.0);
  BOOST_TEST(trace.jobs[1].id == 1);
  BOOST_TEST(trace.jobs[1].submit_s == 1157.0);
  BOOST_TEST(skipped(trace, "status Killed") == 2u);
  BOOST_TEST(skipped(trace, "status Failed") == 1u);
  BOOST_TEST(skipped(trace, "no attempts") == 1u);
  BOOST_TEST(trace.report.skippedTotal() == 6u);
}

BOOST_AUTO_TEST_CASE(philly_json_last_attempt_and_absolute_times) {
  TraceOptions options;
  options.philly_attempts = PhillyAttempts::Last;
  options.time_origin = TimeOrigin::File;
  const Trace trace = read("philly/ok.json", options);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  BOOST_TEST(trace.jobs[0].num_gpus == 2);
  BOOST_TEST(trace.jobs[0].duration_s == 1830.0);
  BOOST_TEST(trace.jobs[0].submit_s == 1506998843.0);
  BOOST_TEST(trace.jobs[2].submit_s == 1507000000.0);
}

BOOST_AUTO_TEST_CASE(malformed_philly_json) {
  BOOST_TEST(rejects("philly/malformed.json", 4, "", "malformed JSON"));
  BOOST_TEST(rejects("philly/truncated.json", 5, "", "malformed JSON"));
  BOOST_TEST(rejects("philly/not_an_array.json", 1, "", "JSON array"));
  BOOST_TEST(rejects("philly/bad_timestamp.json", 6, "submitted_time", "2017-10-32"));
  BOOST_TEST(rejects("philly/attempts_not_a_list.json", 5, "attempts", "expected a list of attempts"));
  BOOST_TEST(rejects("philly/record_not_an_object.json", 5, "", "a job record must be a JSON object"));
  BOOST_TEST(rejects("philly/all_skipped.json", 0, "", "no usable jobs"));
  BOOST_TEST(rejects("philly/all_skipped.json", 0, "", "no usable jobs: 2 skipped (2 no attempts)"));
  // A CSV read as Philly JSON is malformed JSON, not a crash.
  TraceOptions philly;
  philly.format = TraceFormat::PhillyJson;
  BOOST_TEST(rejects("tiresias/ok.csv", 1, "", "malformed JSON", philly));
}

// ---- Helios and Acme ----------------------------------------------------------------------------

// helios/ok.csv: j1 8 GPUs, 3,600 s at 00:00:10; j2 no GPUs; j3 no duration, so end - start =
// 00:10:30 - 00:00:30 = 600 s, at 00:00:05 (the first); j4 no submit time; j5 ends before it starts;
// j6 duration nan; j7 -2 GPUs. Kept j1 (at 5 s) and j3 (at 0 s).
BOOST_AUTO_TEST_CASE(helios) {
  const Trace trace = read("helios/ok.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 2u);
  BOOST_TEST(trace.jobs[0].id == 0);
  BOOST_TEST(trace.jobs[0].name == "j1");
  BOOST_TEST(trace.jobs[0].submit_s == 5.0);
  BOOST_TEST(trace.jobs[0].num_gpus == 8);
  BOOST_TEST(trace.jobs[0].duration_s == 3600.0);
  BOOST_TEST(trace.jobs[0].cpus_per_worker == 0);
  BOOST_TEST(trace.jobs[1].name == "j3");
  BOOST_TEST(trace.jobs[1].submit_s == 0.0);
  BOOST_TEST(trace.jobs[1].num_gpus == 2);
  BOOST_TEST(trace.jobs[1].duration_s == 600.0);
  BOOST_TEST(trace.jobs[1].source_line == 4u);
  BOOST_TEST(skipped(trace, "zero GPUs") == 1u);
  BOOST_TEST(skipped(trace, "no submit time") == 1u);
  BOOST_TEST(skipped(trace, "ends before it starts") == 1u);
  BOOST_TEST(skipped(trace, "duration not finite") == 1u);
  BOOST_TEST(skipped(trace, "negative GPU count") == 1u);
  BOOST_TEST(trace.report.skippedTotal() == 5u);

  TraceOptions completed;
  completed.statuses = {"completed"};  // any case
  const Trace only = read("helios/ok.csv", completed);
  BOOST_TEST_REQUIRE(only.jobs.size() == 1u);
  BOOST_TEST(only.jobs[0].submit_s == 0.0);
  BOOST_TEST(skipped(only, "status CANCELLED") == 1u);
  BOOST_TEST(skipped(only, "status FAILED") == 1u);
  BOOST_TEST(skipped(only, "status TIMEOUT") == 1u);
}

// acme/ok.csv, epoch seconds: dlc1 at 1690000000 (0 s), dlc2 at +50 s; dlc3 is a CPU job.
BOOST_AUTO_TEST_CASE(acme) {
  const Trace trace = read("acme/ok.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 2u);
  BOOST_TEST(trace.jobs[0].name == "dlc1");
  BOOST_TEST(trace.jobs[0].submit_s == 0.0);
  BOOST_TEST(trace.jobs[0].duration_s == 3600.0);
  BOOST_TEST(trace.jobs[1].num_gpus == 16);
  BOOST_TEST(trace.jobs[1].submit_s == 50.0);
  BOOST_TEST(trace.jobs[1].duration_s == 500.0);
  BOOST_TEST(skipped(trace, "zero GPUs") == 1u);
  BOOST_TEST(trace.report.source == kTraces + "acme/ok.csv (acme)");
}

BOOST_AUTO_TEST_CASE(malformed_helios) {
  BOOST_TEST(rejects("helios/bad_gpu_count.csv", 3, "gpu_num", "'two' is not a number"));
  BOOST_TEST(rejects("helios/bad_timestamp.csv", 3, "start_time", "2020-13-01"));
  BOOST_TEST(rejects("helios/no_duration.csv", 1, "duration", "start_time and end_time"));
}

// ---- Tiresias and Muri --------------------------------------------------------------------------

// tiresias/ok.csv, seconds: jobs 1, 2 and 5 are kept with their own ids; job 3 has no GPUs, job 4
// no duration. The first kept job submits at 10 s, so the times become 0, 15 and 40.
BOOST_AUTO_TEST_CASE(tiresias_seconds) {
  const Trace trace = read("tiresias/ok.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  BOOST_TEST(trace.jobs[0].id == 1);
  BOOST_TEST(trace.jobs[0].model == "resnet50");
  BOOST_TEST(trace.jobs[0].submit_s == 0.0);
  BOOST_TEST(trace.jobs[0].duration_s == 3600.0);
  BOOST_TEST(trace.jobs[1].id == 2);
  BOOST_TEST(trace.jobs[1].submit_s == 15.0);
  BOOST_TEST(trace.jobs[1].num_gpus == 4);
  BOOST_TEST(trace.jobs[2].id == 5);
  BOOST_TEST(trace.jobs[2].model == "gpt2");
  BOOST_TEST(trace.jobs[2].submit_s == 40.0);
  BOOST_TEST(trace.jobs[2].name == "");  // numeric ids need no name
  BOOST_TEST(skipped(trace, "zero GPUs") == 1u);
  BOOST_TEST(skipped(trace, "zero duration") == 1u);

  TraceOptions keep;
  keep.time_origin = TimeOrigin::File;
  BOOST_TEST(read("tiresias/ok.csv", keep).jobs[0].submit_s == 10.0);
}

// muri/ok.csv has Muri's extra columns, so its times are milliseconds: 201,694,000 ms = 201,694 s.
BOOST_AUTO_TEST_CASE(muri_milliseconds) {
  const Trace trace = read("muri/ok.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  BOOST_TEST(trace.jobs[0].model == "dqn");
  BOOST_TEST(trace.jobs[0].duration_s == 2868294.0);
  BOOST_TEST(trace.jobs[1].submit_s == 201694.0);
  BOOST_TEST(trace.jobs[1].duration_s == 4472936.0);
  BOOST_TEST(trace.jobs[2].submit_s == 724670.0);
  BOOST_TEST(skipped(trace, "duration not finite") == 1u);

  TraceOptions seconds;
  seconds.tiresias_time_unit = TimeUnit::Seconds;
  BOOST_TEST(read("muri/ok.csv", seconds).jobs[1].submit_s == 201694000.0);
  TraceOptions milliseconds;
  milliseconds.tiresias_time_unit = TimeUnit::Milliseconds;
  BOOST_TEST(read("tiresias/ok.csv", milliseconds).jobs[0].duration_s == 3.6);
}

BOOST_AUTO_TEST_CASE(malformed_tiresias) {
  BOOST_TEST(rejects("tiresias/bad_job_id.csv", 3, "job_id", "'x2' is not a number"));
  BOOST_TEST(rejects("tiresias/fractional_gpus.csv", 3, "num_gpu", "not a whole GPU count"));
}

BOOST_AUTO_TEST_CASE(muri_traces_from_shared_data) {
  const std::string path = kTestData + "/../../../shared/data/muri-philly-traces/trace1.csv";
  if (!artifactPresent(path)) return;
  const Trace trace = readTraceFile(path, {});
  BOOST_TEST(trace.jobs.size() == 1494u);
  BOOST_TEST(trace.report.skippedTotal() == 0u);
  BOOST_TEST(trace.jobs[1].submit_s == 201694.0);
}

// ---- Pollux -------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(pollux_needs_a_duration) {
  BOOST_TEST(rejects("pollux/ok.csv", 1, "duration", "--pollux-duration"));

  TraceOptions fixed;
  fixed.pollux_duration_s = 600;
  const Trace trace = read("pollux/ok.csv", fixed);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  BOOST_TEST(trace.jobs[0].name == "cifar10-0");
  BOOST_TEST(trace.jobs[0].model == "cifar10");
  BOOST_TEST(trace.jobs[1].id == 1);
  BOOST_TEST(trace.jobs[1].model == "resnet50");
  BOOST_TEST(trace.jobs[1].workload.dataset == "imagenet");
  BOOST_TEST(trace.jobs[1].num_gpus == 8);
  BOOST_TEST(trace.jobs[1].submit_s == 60.0);
  BOOST_TEST(trace.jobs[2].model == "bert");
  BOOST_TEST(trace.jobs[2].submit_s == 125.5);
  for (const Job& job : trace.jobs) BOOST_TEST(job.duration_s == 600.0);
  BOOST_TEST(skipped(trace, "zero GPUs") == 1u);
}

// Durations from Philly's distribution: one draw per row, in file order, from mt19937_64(seed).
BOOST_AUTO_TEST_CASE(pollux_philly_durations) {
  TraceOptions philly;
  philly.pollux_philly_durations = true;
  philly.seed = 11;
  const Trace trace = read("pollux/ok.csv", philly);
  BOOST_TEST_REQUIRE(trace.jobs.size() == 3u);
  std::mt19937_64 random(11);
  for (const Job& job : trace.jobs) {
    const double u = static_cast<double>(random() >> 11) * 0x1p-53;
    BOOST_TEST(job.duration_s == phillyDurationQuantile_s(u));
  }
  BOOST_TEST(read("pollux/ok.csv", philly).jobs[2].duration_s == trace.jobs[2].duration_s);
}

BOOST_AUTO_TEST_CASE(pollux_duration_column) {
  const Trace trace = read("pollux/with_duration.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 2u);
  BOOST_TEST(trace.jobs[0].submit_s == 0.0);  // shifted from 30 s
  BOOST_TEST(trace.jobs[1].submit_s == 60.0);
  BOOST_TEST(trace.jobs[1].duration_s == 7200.5);
}

// ---- mosim's format: GPU types, names; writing -------------------------------------------------

BOOST_AUTO_TEST_CASE(mosim_gpu_types_and_names) {
  const Trace trace = read("mosim/gpu_types.csv");
  BOOST_TEST_REQUIRE(trace.jobs.size() == 2u);
  BOOST_TEST(trace.jobs[0].gpu_type == "V100-SXM2-16GB");  // the catalog's spelling
  BOOST_TEST(trace.jobs[0].name == "first");
  BOOST_TEST(trace.jobs[1].gpu_type == "");
  BOOST_TEST(rejects("mosim/unknown_gpu_type.csv", 3, "gpu_type", "unknown GPU type 'TPUv4'"));
  // mosim's own format keeps its times unless asked: mosim/late_start.csv submits at 100 and 150 s.
  TraceOptions shift;
  shift.time_origin = TimeOrigin::FirstJob;
  BOOST_TEST(read("mosim/late_start.csv").jobs[0].submit_s == 100.0);
  BOOST_TEST(read("mosim/late_start.csv", shift).jobs[0].submit_s == 0.0);
  BOOST_TEST(read("mosim/late_start.csv", shift).jobs[1].submit_s == 50.0);
  BOOST_TEST(read("mosim_ok.csv").report.summary() ==
             kTraces + "mosim_ok.csv (mosim): 4 jobs kept, none skipped");
}

BOOST_AUTO_TEST_CASE(written_traces_read_back_the_same) {
  Trace trace = read("philly/ok.json");
  trace.jobs[0].model = "my, \"model\"";
  trace.jobs[1].gpu_type = "H100-SXM";
  trace.jobs[2].submit_s = 0.1 + 0.2;  // not a short decimal
  std::ostringstream out;
  writeMosimTrace(out, trace);
  const std::string text = out.str();
  BOOST_TEST(text.substr(0, text.find('\n')) ==
             "job_id,submit_time,num_gpus,duration,model,gpu_type,name");

  const std::string path = "written_trace_test.csv";
  writeMosimTrace(path, trace);
  const Trace back = readTrace(path);
  BOOST_TEST_REQUIRE(back.jobs.size() == trace.jobs.size());
  for (std::size_t i = 0; i < back.jobs.size(); ++i) {
    BOOST_TEST(back.jobs[i].id == trace.jobs[i].id);
    BOOST_TEST(back.jobs[i].submit_s == trace.jobs[i].submit_s);
    BOOST_TEST(back.jobs[i].num_gpus == trace.jobs[i].num_gpus);
    BOOST_TEST(back.jobs[i].duration_s == trace.jobs[i].duration_s);
    BOOST_TEST(back.jobs[i].model == trace.jobs[i].model);
    BOOST_TEST(back.jobs[i].gpu_type == trace.jobs[i].gpu_type);
    BOOST_TEST(back.jobs[i].name == trace.jobs[i].name);
  }
  std::remove(path.c_str());
}
