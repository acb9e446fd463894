// Engine benchmarks: wall time and events per second on the artifact's 32gpu trace and on a
// 10,000-job synthetic trace, per contention model. Run: build/experiments/performance/mosim_bench
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "mosim/engine.hpp"
#include "mosim/example.hpp"
#include "mosim/trace.hpp"

namespace {

using namespace mosim;

const std::string kArtifact = MOSIM_ARTIFACT_DIR;

/// The artifact's 32gpu trace with its ASTRA-sim profiles (about 137,000 iterations).
const std::vector<ProfiledJob>& artifact32gpu() {
  static const std::vector<ProfiledJob> jobs = [] {
    const ProfileTable profiles = readArtifactProfiles(
        kArtifact + "/single_job_simulation/itertime_simulated-ar-v100-8gpu-ar-loading-time.csv",
        kArtifact + "/single_job_simulation/network_chakra_ar_v100_8gpu_network_summary.csv", 1e6);
    return attachProfiles(readTrace(kArtifact + "/trace/testbed-trace-32gpu.csv"), profiles);
  }();
  return jobs;
}

/// 10,000 jobs, Poisson arrivals, Philly-like GPU counts and log-normal durations, with the
/// built-in estimated profiles. A stand-in until the synthetic trace generator lands.
const std::vector<ProfiledJob>& synthetic10k() {
  static const std::vector<ProfiledJob> jobs = [] {
    std::mt19937_64 random(42);
    auto uniform = [&] { return (static_cast<double>(random() >> 11) + 0.5) * 0x1p-53; };
    const char* models[] = {"alexnet", "resnet44", "resnet110", "densenet40_k12",
                            "densenet100_k12", "resnet50", "vgg16", "googlenet",
                            "inception3", "bert", "gpt2", "whisper"};
    Trace trace;
    trace.path = "synthetic";
    double submit_s = 0;
    for (int i = 0; i < 10000; ++i) {
      submit_s += -std::log(uniform()) / 0.05;
      const double u = uniform();
      const int gpus = u < 0.4 ? 1 : u < 0.55 ? 2 : u < 0.75 ? 4 : 8;
      // Box–Muller from two uniforms: log-normal with median 600 s, clipped to [60 s, 4 h].
      const double normal = std::sqrt(-2 * std::log(uniform())) * std::cos(2 * M_PI * uniform());
      const double duration_s = std::clamp(600 * std::exp(1.2 * normal), 60.0, 14400.0);
      trace.jobs.push_back(Job{i, models[random() % 12], submit_s, gpus, duration_s, 0,
                               static_cast<std::size_t>(i + 2)});
    }
    return attachProfiles(trace, *estimatedProfiles(463e6));
  }();
  return jobs;
}

void runSimulation(benchmark::State& state, const std::vector<ProfiledJob>& jobs,
                   const SimulationConfig& config) {
  std::uint64_t events = 0;
  for (auto _ : state) {
    const auto result = simulate(jobs, config);
    events = result.events;
    benchmark::DoNotOptimize(result.jobs.data());
  }
  state.counters["events"] = static_cast<double>(events);
  state.counters["events_per_s"] = benchmark::Counter(
      static_cast<double>(events) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

void BM_Artifact32gpuMosim(benchmark::State& state, const std::string& placement) {
  if (!std::filesystem::exists(kArtifact)) {
    state.SkipWithError(("artifact data not found at " + kArtifact).c_str());
    return;
  }
  SimulationConfig config;
  config.cluster = ClusterSpec::homogeneous(4, 8, 256, 463e6, 16384e6);
  config.placement = placement;
  config.contention = "mosim";
  runSimulation(state, artifact32gpu(), config);
}

void BM_Synthetic10k(benchmark::State& state, const std::string& contention,
                     double fast_forward = 0) {
  SimulationConfig config;
  config.fast_forward_tolerance = fast_forward;
  config.cluster = ClusterSpec::homogeneous(32, 8, 256, 463e6, 16384e6);
  config.placement = "k8s-bin-packing";
  config.contention = contention;
  runSimulation(state, synthetic10k(), config);
}

BENCHMARK_CAPTURE(BM_Artifact32gpuMosim, bin_packing, "k8s-bin-packing")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Artifact32gpuMosim, load_balancing, "k8s-load-balancing")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Synthetic10k, none, "none")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Synthetic10k, fixed, "fixed")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Synthetic10k, paper, "paper")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Synthetic10k, mosim_fast, "mosim", 0.01)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_Synthetic10k, mosim, "mosim")->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
