#define BOOST_TEST_MODULE fast_forward
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include "mosim/engine.hpp"
#include "mosim/example.hpp"
#include "mosim/metrics.hpp"
#include "mosim/trace.hpp"
#include "test_support.hpp"

using namespace mosim;
using mosim::test::artifactPresent;
using mosim::test::kArtifact;

namespace {

/// One of the artifact's configurations (mosim-reference.md §1): trace, profile source, cluster.
struct ArtifactCase {
  std::string name;
  std::vector<ProfiledJob> jobs;
  SimulationConfig config;
};

std::vector<ArtifactCase> artifactCases() {
  std::vector<ArtifactCase> cases;
  for (const auto& [trace, servers] : {std::pair{"32gpu", 4}, std::pair{"16gpu", 2}}) {
    for (const bool real_gpus : {true, false}) {
      const std::string folder = real_gpus ? "/profiling/" : "/single_job_simulation/";
      const double unit_Bps = real_gpus ? 1048576 : 1e6;  // MiB/s and MB/s, as reproduce.py
      const ProfileTable profiles = readArtifactProfiles(
          kArtifact + folder +
              (real_gpus ? "itertime_wshark-v100-8gpu-ar-loading-time.csv"
                         : "itertime_simulated-ar-v100-8gpu-ar-loading-time.csv"),
          kArtifact + folder +
              (real_gpus ? "network_ar_v100_8gpu_network_summary.csv"
                         : "network_chakra_ar_v100_8gpu_network_summary.csv"),
          unit_Bps);
      const auto jobs = attachProfiles(
          readTrace(kArtifact + "/trace/testbed-trace-" + trace + ".csv"), profiles);
      for (const char* placement : {"colocate", "k8s-bin-packing", "k8s-load-balancing"}) {
        for (const auto& [model, ratio] : {std::pair{"none", 0.0}, std::pair{"fixed", 0.25},
                                           std::pair{"fixed", 0.10}, std::pair{"mosim", 0.0}}) {
          ArtifactCase c;
          c.name = std::string(trace) + (real_gpus ? "/profiling/" : "/astrasim/") + model +
                   (ratio > 0 ? "-" + std::to_string(ratio) : "") + "/" + placement;
          c.jobs = jobs;
          c.config.cluster =
              ClusterSpec::homogeneous(servers, 8, 256, 463 * unit_Bps, 16384 * unit_Bps);
          c.config.placement = placement;
          c.config.contention = model;
          c.config.contention_params.fixed_ratio = ratio;
          c.config.contention_params.min_bandwidth_Bps = 10 * unit_Bps;
          c.config.rate_unit_Bps = unit_Bps;
          cases.push_back(std::move(c));
        }
      }
    }
  }
  return cases;
}

/// Random traces over the built-in estimated profiles: Poisson arrivals (every mean_gap_s on
/// average), 1–8 GPUs, durations from minutes to hours.
std::vector<ProfiledJob> randomJobs(std::uint64_t seed, int count, double duration_scale = 1,
                                    double mean_gap_s = 200) {
  std::mt19937_64 random(seed);
  auto uniform = [&] { return (static_cast<double>(random() >> 11) + 0.5) * 0x1p-53; };
  const char* models[] = {"alexnet", "resnet44", "resnet110", "densenet40_k12",
                          "densenet100_k12", "resnet50", "vgg16", "googlenet",
                          "inception3", "bert", "gpt2", "whisper"};
  Trace trace;
  trace.path = "random";
  double submit_s = 0;
  for (int i = 0; i < count; ++i) {
    submit_s += -std::log(uniform()) * mean_gap_s;
    const int gpus = 1 << (random() % 4);
    const double duration_s = duration_scale * (60 + 3600 * uniform() * uniform());
    trace.jobs.push_back(Job{i, models[random() % 12], submit_s, gpus, duration_s, 0,
                             static_cast<std::size_t>(i + 2)});
  }
  return attachProfiles(trace, *estimatedProfiles(463e6));
}

/// Servers of 8 GPUs with a 463 MB/s NIC, 4 by default.
SimulationConfig randomConfig(const std::string& placement, const std::string& model,
                              int servers = 4) {
  SimulationConfig config;
  config.cluster = ClusterSpec::homogeneous(servers, 8, 256, 463e6, 16384e6);
  config.placement = placement;
  config.contention = model;
  return config;
}

void requireIdentical(const SimulationResult& a, const SimulationResult& b, const std::string& name) {
  BOOST_TEST_CONTEXT(name) {
    BOOST_REQUIRE(a.jobs.size() == b.jobs.size());
    for (std::size_t i = 0; i < a.jobs.size(); ++i) {
      BOOST_TEST(a.jobs[i].end_s == b.jobs[i].end_s);  // bit for bit
      BOOST_TEST(a.jobs[i].comm_s == b.jobs[i].comm_s);
    }
  }
}

/// The aggregates the bounds apply to, with their names for messages.
constexpr std::pair<double Aggregates::*, const char*> kCompared[] = {
    {&Aggregates::avg_training_s, "avg training"}, {&Aggregates::avg_jct_s, "avg JCT"},
    {&Aggregates::median_jct_s, "median JCT"},     {&Aggregates::p99_jct_s, "P99 JCT"},
    {&Aggregates::makespan_s, "makespan"}};

void requireClose(const Aggregates& fast, const Aggregates& exact, double bound, const std::string& name) {
  BOOST_TEST_CONTEXT(name) {
    for (const auto& [field, label] : kCompared)
      BOOST_TEST(std::abs(fast.*field - exact.*field) <= bound * exact.*field,
                 label << ": " << fast.*field << " vs exact " << exact.*field);
  }
}

}  // namespace

/// The engine without its optimisations: every factor recomputed at every update, and every
/// pending event in the event queue.
SimulationConfig reference(SimulationConfig config) {
  config.full_recompute = true;
  config.queue_phase_ends = true;
  return config;
}

// Updating only the jobs on servers that changed, and scanning dense arrays for the earliest phase
// end, give the same bits as the reference, on every artifact configuration and in both
// phase-level modes.
BOOST_AUTO_TEST_CASE(optimised_engine_equals_the_reference_on_the_artifact) {
  if (!artifactPresent()) return;
  for (auto& c : artifactCases()) {
    for (const double tolerance : {0.0, 0.01}) {
      c.config.fast_forward_tolerance = tolerance;
      requireIdentical(simulate(c.jobs, c.config), simulate(c.jobs, reference(c.config)), c.name);
    }
  }
}

BOOST_AUTO_TEST_CASE(optimised_engine_equals_the_reference_on_random_traces) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto jobs = randomJobs(seed, 40);
    for (const char* placement : {"k8s-bin-packing", "k8s-load-balancing"}) {
      for (const char* model : {"none", "fixed", "paper", "mosim"}) {
        const auto config = randomConfig(placement, model);
        const std::string name = std::string(model) + "/" + placement + "/seed " + std::to_string(seed);
        requireIdentical(simulate(jobs, config), simulate(jobs, reference(config)), name);
        // Each optimisation on its own too.
        auto queued = config;
        queued.queue_phase_ends = true;
        requireIdentical(simulate(jobs, config), simulate(jobs, queued), name + " (queued ends)");
        auto recomputed = config;
        recomputed.full_recompute = true;
        requireIdentical(simulate(jobs, config), simulate(jobs, recomputed), name + " (recomputed)");
      }
    }
  }
}

// The bound: every aggregate of the fast mode within 0.5% of the exact mode, on all 48
// artifact configurations (fast-forward changes nothing for the job-level ones).
BOOST_AUTO_TEST_CASE(fast_mode_is_within_half_a_percent_on_the_artifact) {
  if (!artifactPresent()) return;
  for (auto& c : artifactCases()) {
    const auto exact = simulate(c.jobs, c.config);
    c.config.fast_forward_tolerance = 0.01;
    const auto fast = simulate(c.jobs, c.config);
    requireClose(aggregate(fast.jobs), aggregate(exact.jobs), 0.005, c.name);
    if (c.config.contention != "mosim") requireIdentical(exact, fast, c.name);
  }
}

// On random contended traces the exact model is itself chaotic: a 1 ns change in loading times
// moves a tail statistic such as P99 JCT or makespan by up to ~1.5%. No approximation can be
// closer to "the" exact answer than that, so here the bound is 0.5% or, where larger, 1.5 times
// the spread of the exact model under perturbations of 1 ns, 1 us and 1 ms.
void requireWithinSpread(const std::vector<ProfiledJob>& jobs, SimulationConfig config,
                         const std::string& name) {
  const Aggregates exact = aggregate(simulate(jobs, config).jobs);
  Aggregates spread{};
  for (const double perturbation_s : {1e-9, 1e-6, 1e-3}) {
    auto perturbed = jobs;
    for (auto& job : perturbed) job.profile.loading_s += perturbation_s;
    const Aggregates other = aggregate(simulate(perturbed, config).jobs);
    for (const auto& [field, label] : kCompared)
      spread.*field = std::max(spread.*field, std::abs(other.*field - exact.*field));
  }
  config.fast_forward_tolerance = 0.01;
  const Aggregates fast = aggregate(simulate(jobs, config).jobs);
  BOOST_TEST_CONTEXT(name) {
    for (const auto& [field, label] : kCompared)
      BOOST_TEST(std::abs(fast.*field - exact.*field) <= std::max(0.005 * exact.*field, 1.5 * spread.*field),
                 label << ": " << fast.*field << " vs exact " << exact.*field << " (exact's own spread "
                       << spread.*field << ")");
  }
}

BOOST_AUTO_TEST_CASE(fast_mode_is_within_half_a_percent_or_the_models_own_spread_on_random_traces) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto jobs = randomJobs(seed, 40);
    for (const char* placement : {"k8s-bin-packing", "k8s-load-balancing"})
      requireWithinSpread(jobs, randomConfig(placement, "mosim"),
                          std::string(placement) + "/seed " + std::to_string(seed));
  }
}

// A busier, larger cluster: 16 x 8 GPUs, a job every 25 s on average, where groups of more than
// 16 interacting jobs form. Under the default group limit (64) each is measured as a whole and the
// bound holds. Measuring those jobs one by one against their neighbours' mean demand (the local
// mode, which a limit of 16 turns on here) breaks it (2-4% off): the local mode is the approximate
// part of fast-forward, and must not be the default at this size.
BOOST_AUTO_TEST_CASE(fast_mode_is_within_the_bound_on_a_busy_cluster_of_128_gpus) {
  const auto jobs = randomJobs(5, 250, 1, 25);
  requireWithinSpread(jobs, randomConfig("k8s-bin-packing", "mosim", 16), "16 servers");
}

// Long jobs: ten random jobs with durations x 200 (days), sharing 4 x 8 GPUs. Fast-forward must
// cut the events by at least 100x and stay within the bound.
BOOST_AUTO_TEST_CASE(fast_mode_cuts_events_on_long_jobs_a_hundredfold) {
  const auto jobs = randomJobs(11, 10, 200);
  for (const char* placement : {"k8s-bin-packing", "k8s-load-balancing"}) {
    auto config = randomConfig(placement, "mosim");
    const auto exact = simulate(jobs, config);
    config.fast_forward_tolerance = 0.01;
    const auto fast = simulate(jobs, config);
    BOOST_TEST_MESSAGE(placement << ": " << exact.events << " events exact, " << fast.events
                                 << " fast, " << fast.fast_forwards << " jumps");
    BOOST_TEST(fast.events * 100 <= exact.events, placement);
    requireClose(aggregate(fast.jobs), aggregate(exact.jobs), 0.005, placement);
  }
}

// A job alone jumps at its exact iteration time: the same end as the exact mode to rounding.
BOOST_AUTO_TEST_CASE(a_lone_job_jumps_exactly) {
  const auto jobs = randomJobs(3, 1, 20);
  auto config = randomConfig("k8s-load-balancing", "mosim");
  const auto exact = simulate(jobs, config);
  config.fast_forward_tolerance = 0.01;
  const auto fast = simulate(jobs, config);
  BOOST_TEST(fast.jobs[0].end_s == exact.jobs[0].end_s, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(fast.jobs[0].iterations == exact.jobs[0].iterations);
  BOOST_TEST(fast.events < 50u);
}
