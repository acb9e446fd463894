#define BOOST_TEST_MODULE profiles
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "mosim/profile.hpp"
#include "mosim/trace.hpp"
#include "mosim/units.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kProfiles = kTestData + "/profiles/";
const std::string kRealIteration =
    kArtifact + "/profiling/itertime_wshark-v100-8gpu-ar-loading-time.csv";
const std::string kRealNetwork = kArtifact + "/profiling/network_ar_v100_8gpu_network_summary.csv";
const std::string kAstraIteration =
    kArtifact + "/single_job_simulation/itertime_simulated-ar-v100-8gpu-ar-loading-time.csv";
const std::string kAstraNetwork =
    kArtifact + "/single_job_simulation/network_chakra_ar_v100_8gpu_network_summary.csv";

Job makeJob(JobId id, const std::string& model, int num_gpus, double duration_s,
            std::size_t line) {
  Job job;
  job.id = id;
  job.model = model;
  job.num_gpus = num_gpus;
  job.duration_s = duration_s;
  job.source_line = line;
  return job;
}

}  // namespace

BOOST_AUTO_TEST_CASE(iteration_count_goes_through_12_significant_digits) {
  BOOST_TEST(iterationCount(1, 3) == 0.333333333333);  // not 1.0/3
  BOOST_TEST(iterationCount(1, 3) != 1.0 / 3);
  // Plain division lands just below 3, so floor() would give 2; the artifact's text gives 3.
  BOOST_TEST(0.3 / 0.1 == 2.9999999999999996);
  BOOST_TEST(iterationCount(0.3, 0.1) == 3.0);
  BOOST_TEST(iterationCount(6521, 1.31993 + 0.44408) == 3696.69106184);
  BOOST_TEST(iterationCount(100, 2) == 50.0);
}

BOOST_AUTO_TEST_CASE(profile_table) {
  ProfileTable table("built-in");
  BOOST_TEST(table.describe() == "built-in");
  BOOST_TEST(table.size() == 0u);
  table.set("bert", 2, Profile{1.0, 0.5, 1e9, 20});
  table.set("bert", 2, Profile{1.5, 0.5, 1e9, 20});  // set replaces
  BOOST_TEST(table.size() == 1u);
  BOOST_TEST(table.profile({"bert", 2})->t_comp_s == 1.5);
  BOOST_TEST(!table.profile({"bert", 4}));
  BOOST_TEST(!table.profile({"gpt2", 2}));
}

BOOST_AUTO_TEST_CASE(mosim_profiles) {
  const ProfileTable table = readMosimProfiles(kProfiles + "mosim_ok.csv");
  BOOST_TEST(table.size() == 3u);
  BOOST_TEST(table.describe() == kProfiles + "mosim_ok.csv");
  const Profile bert = table.profile({"bert", 2}).value();
  BOOST_TEST(bert.t_comp_s == 1.5);
  BOOST_TEST(bert.t_net_s == 0.5);
  BOOST_TEST(bert.net_rate_Bps == 1e9);
  BOOST_TEST(bert.loading_s == 20.0);
  const Profile vgg = table.profile({"vgg16", 1}).value();  // workload_16 canonicalised
  BOOST_TEST(vgg.t_comp_s == 0.25);
  BOOST_TEST(vgg.loading_s == 0.0);  // empty loading
}

BOOST_AUTO_TEST_CASE(malformed_mosim_profiles) {
  const auto read = [](const std::string& name) { readMosimProfiles(kProfiles + name); };
  BOOST_TEST(throwsInputError([&] { read("mosim_duplicate.csv"); },
                              {kProfiles + "mosim_duplicate.csv", 4, "model",
                               "duplicate profile for model 'bert' on 2 GPUs (first on line 2)"}));
  BOOST_TEST(throwsInputError([&] { read("mosim_negative_time.csv"); },
                              {kProfiles + "mosim_negative_time.csv", 2, "t_net_s", "negative"}));
  BOOST_TEST(throwsInputError([&] { read("mosim_gpus_fractional.csv"); },
                              {kProfiles + "mosim_gpus_fractional.csv", 2, "num_gpus", "whole"}));
  BOOST_TEST(throwsInputError([&] { read("mosim_rate_inf.csv"); },
                              {kProfiles + "mosim_rate_inf.csv", 2, "net_rate_Bps", "finite"}));
  BOOST_TEST(throwsInputError([&] { read("mosim_missing_column.csv"); },
                              {kProfiles + "mosim_missing_column.csv", 1, "net_rate_Bps", "missing"}));
}

BOOST_AUTO_TEST_CASE(artifact_profiles_sample) {
  const std::string iteration = kProfiles + "artifact_iter.csv";
  const std::string network = kProfiles + "artifact_net.csv";
  const ProfileTable table = readArtifactProfiles(iteration, network, 1e6);
  BOOST_TEST(table.size() == 4u);  // the co-run row is skipped, the vgg16 2-GPU duplicate merged
  BOOST_TEST(table.describe().find(iteration) != std::string::npos);
  BOOST_TEST(table.describe().find(network) != std::string::npos);

  const Profile bert2 = table.profile({"bert", 2}).value();
  BOOST_TEST(bert2.t_comp_s == 1.25);  // not the co-run row's 1.0
  BOOST_TEST(bert2.t_net_s == 0.5);
  BOOST_TEST(bert2.loading_s == 50.0);
  BOOST_TEST(bert2.net_rate_Bps == 1300.5 * 1e6);  // lower-case header matched

  const Profile bert1 = table.profile({"bert", 1}).value();
  BOOST_TEST(bert1.loading_s == 0.0);     // empty loading
  BOOST_TEST(bert1.net_rate_Bps == 0.0);  // one GPU: no network row needed

  const Profile vgg2 = table.profile({"vgg16", 2}).value();
  BOOST_TEST(vgg2.loading_s == 24.0);  // the later duplicate row wins
  BOOST_TEST(vgg2.net_rate_Bps == 2000e6);

  // No network row for 4 GPUs: marked, and an error only for a job that needs it.
  BOOST_TEST(std::isnan(table.profile({"vgg16", 4}).value().net_rate_Bps));
}

BOOST_AUTO_TEST_CASE(artifact_profiles_without_loading_column) {
  const ProfileTable table = readArtifactProfiles(kProfiles + "artifact_iter_no_loading.csv",
                                                  kProfiles + "artifact_net.csv", 1048576.0);
  const Profile bert = table.profile({"bert", 2}).value();
  BOOST_TEST(bert.loading_s == 0.0);
  BOOST_TEST(bert.net_rate_Bps == 1300.5 * 1048576.0);
}

BOOST_AUTO_TEST_CASE(malformed_artifact_profiles) {
  const std::string network = kProfiles + "artifact_net.csv";
  const std::string half = kProfiles + "artifact_iter_half_colocated.csv";
  BOOST_TEST(throwsInputError([&] { readArtifactProfiles(half, network, 1e6); },
                              {half, 3, "colocated_gpu_workers", "co-run"}));
  const std::string nan = kProfiles + "artifact_iter_nan.csv";
  BOOST_TEST(throwsInputError([&] { readArtifactProfiles(nan, network, 1e6); },
                              {nan, 2, "iteration_networking_time", "finite"}));
  const std::string negative = kProfiles + "artifact_net_negative.csv";
  BOOST_TEST(throwsInputError(
      [&] { readArtifactProfiles(kProfiles + "artifact_iter.csv", negative, 1e6); },
      {negative, 2, "Sum of Max TX+RX (MB/s)", "negative"}));
  const std::string absent = kProfiles + "no_such_network.csv";
  BOOST_TEST(throwsInputError(
      [&] { readArtifactProfiles(kProfiles + "artifact_iter.csv", absent, 1e6); },
      {absent, 0, "", "cannot open"}));
}

BOOST_AUTO_TEST_CASE(attach_profiles) {
  const ProfileTable table = readArtifactProfiles(kProfiles + "artifact_iter.csv",
                                                  kProfiles + "artifact_net.csv", 1e6);
  Trace trace;
  trace.path = "jobs.csv";
  trace.jobs = {makeJob(0, "bert", 2, 100, 2), makeJob(1, "", 4, 42.5, 3),
                makeJob(2, "bert", 1, 7, 4)};
  const std::vector<ProfiledJob> jobs = attachProfiles(trace, table);
  BOOST_TEST_REQUIRE(jobs.size() == 3u);
  BOOST_TEST(jobs[0].job.id == 0);
  BOOST_TEST(jobs[0].profile.t_comp_s == 1.25);
  BOOST_TEST(jobs[0].iterations == iterationCount(100, 1.75));
  // No model: compute for the whole duration as one iteration.
  BOOST_TEST(jobs[1].profile.t_comp_s == 42.5);
  BOOST_TEST(jobs[1].profile.t_net_s == 0.0);
  BOOST_TEST(jobs[1].profile.net_rate_Bps == 0.0);
  BOOST_TEST(jobs[1].profile.loading_s == 0.0);
  BOOST_TEST(jobs[1].iterations == 1.0);
  BOOST_TEST(jobs[2].iterations == 35.0);  // 7 / 0.2

  trace.jobs.push_back(makeJob(3, "gpt2", 3, 10, 9));
  BOOST_TEST(throwsInputError([&] { attachProfiles(trace, table); },
                              {"jobs.csv", 9, "model", "no profile for model 'gpt2' on 3 GPUs in "}));
  trace.jobs.back() = makeJob(3, "vgg16", 4, 10, 9);
  BOOST_TEST(throwsInputError([&] { attachProfiles(trace, table); },
                              {"jobs.csv", 9, "model", "no network profile for model 'vgg16' on 4 GPUs"}));

  const ProfileTable mosim = readMosimProfiles(kProfiles + "mosim_ok.csv");
  trace.jobs = {makeJob(0, "idle", 1, 10, 6)};
  BOOST_TEST(throwsInputError([&] { attachProfiles(trace, mosim); },
                              {"jobs.csv", 6, "model", "zero iteration time"}));
}

BOOST_AUTO_TEST_CASE(artifact_real_gpu_profiles) {
  if (!artifactPresent()) return;
  const ProfileTable table =
      readArtifactProfiles(kRealIteration, kRealNetwork, rateUnit_Bps("MiB/s"));
  const Profile bert = table.profile({"bert", 2}).value();  // workload_02
  BOOST_TEST(bert.t_comp_s == 1.31993);
  BOOST_TEST(bert.t_net_s == 0.44408);
  BOOST_TEST(bert.loading_s == 53.20520544);
  BOOST_TEST(bert.net_rate_Bps == 1300.867041 * 1048576.0);
  BOOST_TEST(table.profile({"bert", 1}).value().net_rate_Bps == 0.0);  // no 1-worker rows
  BOOST_TEST(table.profile({"workload_15", 2}).has_value());           // unknown id kept
  BOOST_TEST(!table.profile({"wav2vec2", 2}));                         // absent in the file
  BOOST_TEST(table.profile({"wav2vec2", 1}).value().net_rate_Bps == 0.0);

  const Trace trace = readTrace(kArtifact + "/trace/testbed-trace-16gpu.csv");
  const std::vector<ProfiledJob> jobs = attachProfiles(trace, table);
  BOOST_TEST_REQUIRE(jobs.size() == 30u);
  BOOST_TEST(jobs[0].job.model == "bert");
  BOOST_TEST(jobs[0].job.num_gpus == 2);
  BOOST_TEST(jobs[0].job.duration_s == 6521.0);
  BOOST_TEST(jobs[0].iterations == iterationCount(6521, 1.31993 + 0.44408));
  BOOST_TEST(jobs[0].iterations == 3696.69106184);
  BOOST_TEST(jobs[0].profile.net_rate_Bps == 1300.867041 * 1048576.0);

  // Every job of the 32gpu trace has a profile too.
  BOOST_TEST(attachProfiles(readTrace(kArtifact + "/trace/testbed-trace-32gpu.csv"), table).size() ==
             60u);
}

BOOST_AUTO_TEST_CASE(artifact_astrasim_profiles) {
  if (!artifactPresent()) return;
  const ProfileTable table =
      readArtifactProfiles(kAstraIteration, kAstraNetwork, rateUnit_Bps("MB/s"));
  const Profile bert8 = table.profile({"bert", 8}).value();
  BOOST_TEST(bert8.net_rate_Bps == 3606.6117 * 1e6);
  BOOST_TEST(bert8.t_comp_s == 1.050996667);
  BOOST_TEST(bert8.t_net_s == 0.850216388);
  BOOST_TEST(bert8.loading_s == 87.18974456);
  for (const char* model : {"alexnet", "bert", "densenet100_k12", "densenet40_k12", "googlenet",
                            "gpt2", "inception3", "resnet110", "resnet44", "resnet50", "vgg16",
                            "wav2vec2", "whisper"}) {
    const auto solo = table.profile({model, 1});
    BOOST_TEST_REQUIRE(solo.has_value(), model);
    BOOST_TEST(solo->net_rate_Bps == 0.0, model);
    BOOST_TEST(solo->t_net_s == 0.0, model);
  }
  BOOST_TEST(table.profile({"wav2vec2", 1})->loading_s == 15.19286262);

  for (const char* name : {"testbed-trace-16gpu.csv", "testbed-trace-32gpu.csv"}) {
    const Trace trace = readTrace(kArtifact + "/trace/" + name);
    BOOST_TEST(attachProfiles(trace, table).size() == trace.jobs.size(), name);
  }
}
