#define BOOST_TEST_MODULE workload
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "mosim/error.hpp"
#include "mosim/workload.hpp"
#include "test_support.hpp"
#include "workload/random.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kPools = kTestData + "/pools/";

bool rejects(const std::string& name, std::size_t line, const std::string& field,
             const std::string& fragment) {
  const std::string path = kPools + name;
  return throwsInputError([&] { readWorkloadPool(path); }, {path, line, field, fragment});
}

/// Jobs 0..n-1 without models, each with `gpus` GPUs.
Trace jobsWithGpus(int n, int gpus) {
  Trace trace;
  trace.path = "jobs.csv";
  for (int i = 0; i < n; ++i) {
    Job job;
    job.id = i;
    job.num_gpus = gpus;
    job.duration_s = 100;
    job.source_line = static_cast<std::size_t>(i) + 2;
    trace.jobs.push_back(job);
  }
  return trace;
}

/// The uniform number augmentation draws for a job, as workload.hpp documents it.
double jobUniform(std::uint64_t seed, JobId id) {
  const std::uint64_t mixed =
      detail::splitmix64(detail::splitmix64(seed) ^ static_cast<std::uint64_t>(id));
  return static_cast<double>(mixed >> 11) * 0x1p-53;
}

}  // namespace

BOOST_AUTO_TEST_CASE(default_pool_is_table_one) {
  const WorkloadPool pool = defaultWorkloadPool();
  BOOST_TEST_REQUIRE(pool.entries.size() == 12u);
  std::set<std::string> models, cifar10;
  for (const WorkloadEntry& entry : pool.entries) {
    models.insert(entry.model);
    if (entry.details.dataset == "cifar10") cifar10.insert(entry.model);
    BOOST_TEST(entry.weight == 1.0);
    BOOST_TEST(entry.gpu_counts.empty());
    BOOST_TEST(entry.details.collective == "ring");
    BOOST_TEST(entry.details.batch_per_gpu > 0);
  }
  const std::set<std::string> table_one{"alexnet",  "resnet44", "resnet110",  "densenet40_k12",
                                        "densenet100_k12", "resnet50", "vgg16", "googlenet",
                                        "inception3", "bert",     "gpt2",       "whisper"};
  BOOST_TEST((models == table_one));
  const std::set<std::string> on_cifar10{"alexnet", "resnet44", "resnet110", "densenet40_k12",
                                         "densenet100_k12"};
  BOOST_TEST((cifar10 == on_cifar10));
}

BOOST_AUTO_TEST_CASE(pool_file) {
  const WorkloadPool pool = readWorkloadPool(kPools + "ok.yaml");
  BOOST_TEST(pool.path == kPools + "ok.yaml");
  BOOST_TEST_REQUIRE(pool.entries.size() == 3u);
  const WorkloadEntry& resnet = pool.entries[0];
  BOOST_TEST(resnet.model == "resnet50");
  BOOST_TEST(resnet.details.dataset == "imagenet");
  BOOST_TEST(resnet.details.batch_per_gpu == 128);
  BOOST_TEST(resnet.details.framework == "pytorch");
  BOOST_TEST(resnet.details.collective == "ring");
  BOOST_TEST((resnet.gpu_counts == std::vector<int>{1, 2, 4, 8}));
  BOOST_TEST(resnet.weight == 3.0);
  BOOST_TEST(resnet.source_line == 3u);
  BOOST_TEST(pool.entries[1].model == "bert");  // workload_02, canonicalised
  BOOST_TEST((pool.entries[1].gpu_counts == std::vector<int>{8}));
  BOOST_TEST(pool.entries[1].weight == 1.0);  // the default
  BOOST_TEST(pool.entries[2].weight == 0.0);

  const WorkloadPool bare = readWorkloadPool(kPools + "bare_list.yaml");
  BOOST_TEST_REQUIRE(bare.entries.size() == 2u);
  BOOST_TEST(bare.entries[1].model == "whisper");
  BOOST_TEST(bare.entries[1].weight == 2.5);
}

BOOST_AUTO_TEST_CASE(bad_pool_files) {
  BOOST_TEST(rejects("malformed.yaml", 4, "", "malformed YAML"));
  BOOST_TEST(rejects("unknown_key.yaml", 4, "batch", "unknown key"));
  BOOST_TEST(rejects("empty.yaml", 0, "workloads", "the pool is empty"));
  BOOST_TEST(rejects("zero_weights.yaml", 0, "weight", "the weights sum to 0"));
  BOOST_TEST(rejects("negative_weight.yaml", 4, "weight", "-1 is negative"));
  BOOST_TEST(rejects("bad_gpus.yaml", 5, "gpus", "0 is out of range"));
  BOOST_TEST(rejects("no_model.yaml", 3, "model", "every entry needs a model"));
  BOOST_TEST(rejects("absent.yaml", 0, "", "cannot open"));
  BOOST_TEST(throwsInputError([] { parseWorkloadPool("", "text"); }, {"text", 0, "workloads", "empty"}));
}

// ok.yaml for 2-GPU jobs: only resnet50 allows 2 GPUs (bert wants 8, vgg16 has weight 0).
// For 8-GPU jobs: resnet50 (weight 3) when u < 3/4, else bert. 16 GPUs: no entry.
BOOST_AUTO_TEST_CASE(sampling_respects_gpu_counts_and_weights) {
  const WorkloadPool pool = readWorkloadPool(kPools + "ok.yaml");
  AugmentOptions options;
  options.seed = 42;

  Trace two = jobsWithGpus(50, 2);
  const TraceReport report = augmentTrace(two, pool, options);
  BOOST_TEST(report.kept == 50u);
  BOOST_TEST(report.skipped.empty());
  for (const Job& job : two.jobs) {
    BOOST_TEST(job.model == "resnet50");
    BOOST_TEST(job.workload.batch_per_gpu == 128);
    BOOST_TEST(job.workload.dataset == "imagenet");
  }

  Trace eight = jobsWithGpus(4000, 8);
  augmentTrace(eight, pool, options);
  std::size_t bert = 0;
  for (const Job& job : eight.jobs) {
    const bool expect_bert = jobUniform(42, job.id) >= 0.75;
    BOOST_TEST(job.model == (expect_bert ? "bert" : "resnet50"), "job " << job.id);
    if (job.model == "bert") {
      ++bert;
      BOOST_TEST(job.workload.dataset == "squad");
    }
  }
  BOOST_TEST(bert > 900u);  // 1,000 expected; the standard deviation is 27
  BOOST_TEST(bert < 1100u);

  Trace sixteen = jobsWithGpus(3, 16);
  const TraceReport none = augmentTrace(sixteen, pool, options);
  BOOST_TEST(sixteen.jobs.empty());
  BOOST_TEST(none.kept == 0u);
  BOOST_TEST(none.skipped.at("no pool entry allows 16 GPUs") == 3u);
  BOOST_TEST(none.examples.front() == "jobs.csv:2: job 0: no pool entry allows 16 GPUs");
}

BOOST_AUTO_TEST_CASE(unmatched_gpu_counts_can_be_errors) {
  const WorkloadPool pool = readWorkloadPool(kPools + "ok.yaml");
  AugmentOptions options;
  options.unmatched = UnmatchedGpus::Error;
  Trace trace = jobsWithGpus(2, 8);
  trace.jobs[1].num_gpus = 3;
  BOOST_TEST(throwsInputError([&] { augmentTrace(trace, pool, options); },
                              {"jobs.csv", 3, "num_gpus", "no pool entry allows 3 GPUs"}));
}

BOOST_AUTO_TEST_CASE(the_same_seed_gives_the_same_assignment) {
  const WorkloadPool pool = defaultWorkloadPool();
  AugmentOptions options;
  options.seed = 7;
  Trace first = jobsWithGpus(200, 4), second = jobsWithGpus(200, 4);
  augmentTrace(first, pool, options);
  augmentTrace(second, pool, options);
  std::set<std::string> used;
  for (std::size_t i = 0; i < first.jobs.size(); ++i) {
    BOOST_TEST(first.jobs[i].model == second.jobs[i].model);
    used.insert(first.jobs[i].model);
  }
  BOOST_TEST(used.size() == 12u);  // 200 draws over 12 equal weights reach every model

  // A job's workload depends on its id, not on the other jobs of the trace.
  Trace odd = jobsWithGpus(200, 4);
  std::erase_if(odd.jobs, [](const Job& job) { return job.id % 2 == 0; });
  augmentTrace(odd, pool, options);
  for (const Job& job : odd.jobs)
    BOOST_TEST(job.model == first.jobs[static_cast<std::size_t>(job.id)].model);

  options.seed = 8;
  Trace other = jobsWithGpus(200, 4);
  augmentTrace(other, pool, options);
  std::size_t same = 0;
  for (std::size_t i = 0; i < other.jobs.size(); ++i) same += other.jobs[i].model == first.jobs[i].model;
  BOOST_TEST(same < 50u);  // about 200/12 by chance

  // Golden values: the assignment is the same on every platform.
  BOOST_TEST(first.jobs[0].model == pool.entries[static_cast<std::size_t>(jobUniform(7, 0) * 12)].model);
}

BOOST_AUTO_TEST_CASE(modes_missing_and_all) {
  const WorkloadPool pool = readWorkloadPool(kPools + "bare_list.yaml");
  Trace trace = jobsWithGpus(3, 1);
  trace.jobs[1].model = "vgg16";
  augmentTrace(trace, pool, {});
  BOOST_TEST(trace.jobs[1].model == "vgg16");  // kept
  BOOST_TEST(trace.jobs[0].model != "");
  AugmentOptions all;
  all.mode = AugmentMode::All;
  augmentTrace(trace, pool, all);
  for (const Job& job : trace.jobs) BOOST_TEST((job.model == "gpt2" || job.model == "whisper"));
}
