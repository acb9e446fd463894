#include "mosim/scenario.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/characterize.hpp"
#include "mosim/cluster_config.hpp"
#include "mosim/error.hpp"
#include "mosim/example.hpp"
#include "mosim/placement.hpp"
#include "mosim/queue.hpp"
#include "mosim/synthetic.hpp"
#include "mosim/units.hpp"
#include "mosim/workload.hpp"

namespace mosim {
namespace {

// ---- Parsing option values ----------------------------------------------------------------------

long long wholeNumber(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || ptr != end) throw std::invalid_argument("not a whole number");
  return value;
}

int positiveInt(const std::string& text) {
  const long long value = wholeNumber(text);
  if (value < 1 || value > 1'000'000'000) throw std::invalid_argument("must be a positive whole number");
  return static_cast<int>(value);
}

double nonNegative(const std::string& text) {
  const double value = parseNumber(text);
  if (value < 0) throw std::invalid_argument("must not be negative");
  return value;
}

double positiveBandwidth_Bps(const std::string& text) {
  const double rate_Bps = parseBandwidth_Bps(text);
  if (!(rate_Bps > 0)) throw std::invalid_argument("must be positive");
  return rate_Bps;
}

template <class RegistryType>
std::string registeredName(const std::string& text) {
  if (RegistryType::instance().contains(text)) return text;
  std::string known;
  for (const auto& [name, description] : RegistryType::instance().list())
    known += (known.empty() ? "" : ", ") + name;
  throw std::invalid_argument(fmt::format("unknown name (known: {})", known));
}

std::string oneOf(const std::string& text, std::initializer_list<const char*> choices) {
  std::string known;
  for (const char* choice : choices) {
    if (text == choice) return text;
    known += (known.empty() ? "" : ", ") + std::string(choice);
  }
  throw std::invalid_argument(fmt::format("unknown value (known: {})", known));
}

using Setter = std::function<void(Scenario&, const std::string&)>;

ScenarioOption option(std::string name, std::string default_text, std::string help, Setter set) {
  return ScenarioOption{std::move(name), std::move(help), std::move(default_text), std::move(set)};
}

/// Sets a text field as it is.
Setter text(std::string Scenario::*field) {
  return [field](Scenario& s, const std::string& value) { s.*field = value; };
}

std::vector<ScenarioOption> buildOptions() {
  const Scenario d;
  return {
      // The trace and its readers.
      option("trace", d.trace, "job trace file (mosim, artifact, Philly JSON, Helios, Acme, Tiresias/Muri or Pollux; detected from the content), `example` (built in) or `synthetic` (Philly-like; see --jobs, --arrival-rate, --horizon, --seed)", text(&Scenario::trace)),
      option("trace-format", d.trace_options.format, "auto, mosim, artifact, philly, helios, acme, tiresias, pollux",
             [](Scenario& s, const std::string& v) { parseTraceFormat(v); s.trace_options.format = v; }),
      option("time-origin", d.trace_options.time_origin, "first-job: shift submit times so the first job submits at 0; file: keep them; auto: first-job for the production formats, file for mosim's and the artifact's",
             [](Scenario& s, const std::string& v) { s.trace_options.time_origin = oneOf(v, {"auto", "first-job", "file"}); }),
      option("status", "all", "job states to keep, comma-separated (Philly status, Helios/Acme state), or all",
             [](Scenario& s, const std::string& v) { s.trace_options.statuses = v; }),
      option("philly-status", "all", "the same as --status",
             [](Scenario& s, const std::string& v) {
               if (s.given.count("status")) throw std::invalid_argument("give --status or --philly-status, not both");
               s.trace_options.statuses = v;
             }),
      option("philly-attempts", d.trace_options.philly_attempts, "Philly jobs with several attempts: all (most GPUs of any attempt, sum of run times) or last (the last timed attempt)",
             [](Scenario& s, const std::string& v) { s.trace_options.philly_attempts = oneOf(v, {"all", "last"}); }),
      option("time-unit", d.trace_options.time_unit, "Tiresias traces: s, ms, or auto (ms when the header has Muri's extra columns)",
             [](Scenario& s, const std::string& v) { s.trace_options.time_unit = oneOf(v, {"auto", "s", "ms"}); }),
      option("pollux-duration", "", "Pollux traces (no duration column): SECONDS for every job, or philly to draw Philly run times with --seed",
             [](Scenario& s, const std::string& v) { s.trace_options.pollux_duration = v; }),
      option("jobs", "0", "synthetic trace: number of jobs (0: every arrival before --horizon)",
             [](Scenario& s, const std::string& v) {
               const long long n = wholeNumber(v);
               if (n < 0) throw std::invalid_argument("must not be negative");
               s.jobs = static_cast<std::size_t>(n);
             }),
      option("arrival-rate", "0.005", "synthetic trace: Poisson arrival rate per second",
             [](Scenario& s, const std::string& v) {
               s.arrival_rate_per_s = nonNegative(v);
               if (s.arrival_rate_per_s == 0) throw std::invalid_argument("must be positive");
             }),
      option("horizon", "0", "synthetic trace with --jobs 0: arrivals before this many seconds",
             [](Scenario& s, const std::string& v) { s.horizon_s = nonNegative(v); }),
      option("seed", "0", "seed of the synthetic trace, the workload sampler and Pollux durations",
             [](Scenario& s, const std::string& v) {
               const long long seed = wholeNumber(v);
               if (seed < 0) throw std::invalid_argument("must not be negative");
               s.seed = static_cast<std::uint64_t>(seed);
             }),
      // Workloads.
      option("pool", "", "workload pool YAML, or `default` (the paper's 12 models): attaches a workload to the jobs without a model (synthetic traces use the default pool unless given one)", text(&Scenario::pool)),
      option("augment", d.augment, "with --pool: missing (only jobs without a model) or all (replace every job's model)",
             [](Scenario& s, const std::string& v) { s.augment = oneOf(v, {"missing", "all"}); }),
      option("unmatched-gpus", d.unmatched_gpus, "with --pool, a job whose GPU count no entry allows: skip (counted, with a warning) or error",
             [](Scenario& s, const std::string& v) { s.unmatched_gpus = oneOf(v, {"skip", "error"}); }),
      // The cluster.
      option("cluster", "", "cluster YAML (server groups, default placement/queue/contention); replaces --servers ... --intra-bandwidth and --gpu-type", text(&Scenario::cluster)),
      option("servers", std::to_string(d.servers), "number of servers",
             [](Scenario& s, const std::string& v) { s.servers = positiveInt(v); }),
      option("gpus-per-server", std::to_string(d.gpus_per_server), "GPUs per server",
             [](Scenario& s, const std::string& v) { s.gpus_per_server = positiveInt(v); }),
      option("cpus-per-server", std::to_string(d.cpus_per_server), "CPU cores per server",
             [](Scenario& s, const std::string& v) { s.cpus_per_server = positiveInt(v); }),
      option("nic-bandwidth", "463 MB/s", "NIC bandwidth per server, with unit (the artifact's effective 5 Gbps NIC is 463 MB/s)",
             [](Scenario& s, const std::string& v) { s.nic_Bps = positiveBandwidth_Bps(v); }),
      option("intra-bandwidth", "16384 MB/s", "intra-server bandwidth, with unit",
             [](Scenario& s, const std::string& v) { s.intra_Bps = positiveBandwidth_Bps(v); }),
      option("gpu-type", "", "GPU type of every server (none: untyped, which only jobs without a GPU type can use)",
             [](Scenario& s, const std::string& v) { s.gpu_type = canonicalGpuType(v); }),
      // Scheduling and contention.
      option("placement", d.placement, "placement policy (`help` lists them)",
             [](Scenario& s, const std::string& v) { s.placement = registeredName<PlacementRegistry>(v); }),
      option("queue", d.queue, "queue discipline (`help` lists them)",
             [](Scenario& s, const std::string& v) { s.queue = registeredName<QueueRegistry>(v); }),
      option("contention", d.contention, "contention model (`help` lists them)",
             [](Scenario& s, const std::string& v) { s.contention = registeredName<ContentionRegistry>(v); }),
      option("fixed-ratio", "0.10", "penalty of the `fixed` model on network time",
             [](Scenario& s, const std::string& v) { s.fixed_ratio = nonNegative(v); }),
      option("min-bandwidth", "10 MB/s", "MIN_BW, the floor of a job's NIC allocation (Eq. 9)",
             [](Scenario& s, const std::string& v) { s.min_bandwidth_Bps = positiveBandwidth_Bps(v); }),
      option("fast-forward", "0", "phase-level models: jump over steady stretches when iteration times agree within this fraction (e.g. 0.01); 0 simulates every phase",
             [](Scenario& s, const std::string& v) { s.fast_forward = nonNegative(v); }),
      option("fast-forward-group", std::to_string(d.fast_forward_group), "fast-forward: the most interacting jobs measured as one group; a larger group's jobs are measured one by one against their neighbours' mean demand, much faster on big busy clusters but tens of percent off (README, Performance)",
             [](Scenario& s, const std::string& v) { s.fast_forward_group = static_cast<std::size_t>(positiveInt(v)); }),
      // Profiles.
      option("profile", d.profile, "auto: characterize every job without a GPU (see mosim characterize); estimate: a crude estimate from model sizes; or a profile table in mosim's format (model,num_gpus,t_comp_s,t_net_s,net_rate_Bps[,loading_s])", text(&Scenario::profile)),
      option("stack", d.stack, "with --profile auto, the communication stack: testbed (the artifact's Kubernetes pods over TCP, fitted) or nccl (bare NCCL)",
             [](Scenario& s, const std::string& v) { s.stack = oneOf(v, {"testbed", "nccl"}); }),
      option("iteration-profile", "", "the artifact's iteration-time CSV", text(&Scenario::iteration_profile)),
      option("network-profile", "", "the artifact's network-summary CSV", text(&Scenario::network_profile)),
      option("network-units", "", "unit of the network-summary rates: MiB/s (real-GPU file) or MB/s (ASTRA-sim file)",
             [](Scenario& s, const std::string& v) { rateUnit_Bps(v); s.network_units = v; }),
  };
}

// ---- From options to inputs ---------------------------------------------------------------------

/// The unit of the network profile's rates (MB/s when none is given), also the unit in which
/// contention arithmetic is done (see NetworkState).
double rateUnit(const Scenario& s) { return s.network_units.empty() ? 1e6 : rateUnit_Bps(s.network_units); }

/// The cluster: the --cluster file, or the homogeneous one the options describe. Explicit
/// --placement, --queue and --contention override the file's defaults.
void configureCluster(const Scenario& s, SimulationConfig& config) {
  config.placement = s.placement;
  config.queue = s.queue;
  config.contention = s.contention;
  if (s.cluster.empty()) {
    config.cluster = ClusterSpec::homogeneous(s.servers, s.gpus_per_server, s.cpus_per_server,
                                              s.nic_Bps, s.intra_Bps);
    for (ServerSpec& server : config.cluster.servers) server.gpu_type = s.gpu_type;
    return;
  }
  for (const char* flag : {"servers", "gpus-per-server", "cpus-per-server", "nic-bandwidth",
                           "intra-bandwidth", "gpu-type"})
    if (s.given.count(flag))
      throw std::invalid_argument(fmt::format(
          "--{} describes a homogeneous cluster; with --cluster the file describes the servers", flag));
  const ClusterConfig file = readClusterConfig(s.cluster);
  config.cluster = file.spec;
  if (!s.given.count("placement") && file.placement) config.placement = *file.placement;
  if (!s.given.count("queue") && file.queue) config.queue = *file.queue;
  if (!s.given.count("contention") && file.contention) config.contention = *file.contention;
}

Trace readOrGenerateTrace(const Scenario& s) {
  if (s.trace == "example") return builtinExampleTrace();
  if (s.trace == "synthetic") {
    SyntheticSpec spec;
    spec.seed = s.seed;
    spec.rate_per_s = s.arrival_rate_per_s;
    spec.jobs = s.jobs;
    spec.horizon_s = s.horizon_s;
    if (spec.jobs == 0 && spec.horizon_s <= 0)
      throw std::invalid_argument("a synthetic trace needs --jobs N or --horizon SECONDS");
    return generateSyntheticTrace(spec);
  }
  TraceOptionTexts texts = s.trace_options;
  texts.seed = s.seed;
  return readTraceFile(s.trace, parseTraceOptions(texts));
}

/// Attaches workloads from the pool to the jobs that need them.
TraceReport augmentFromPool(const Scenario& s, const std::string& pool_name, Trace& trace) {
  const WorkloadPool pool = pool_name == "default" ? defaultWorkloadPool() : readWorkloadPool(pool_name);
  AugmentOptions options;
  options.seed = s.seed;
  options.mode = s.augment == "all" ? AugmentMode::All : AugmentMode::Missing;
  options.unmatched = s.unmatched_gpus == "error" ? UnmatchedGpus::Error : UnmatchedGpus::Skip;
  return augmentTrace(trace, pool, options);
}

/// The slowest NIC: what the built-in estimate of network times assumes.
double slowestNic_Bps(const ClusterSpec& spec) {
  double nic_Bps = spec.servers.front().nic_Bps;
  for (const ServerSpec& server : spec.servers) nic_Bps = std::min(nic_Bps, server.nic_Bps);
  return nic_Bps;
}

std::unique_ptr<ProfileSource> profileSource(const Scenario& s, const ClusterSpec& cluster) {
  const bool artifact = !s.iteration_profile.empty() || !s.network_profile.empty();
  if (s.given.count("profile") && artifact)
    throw std::invalid_argument("give either --profile or the artifact's two profile files, not both");
  if (artifact) {
    if (s.iteration_profile.empty() || s.network_profile.empty())
      throw std::invalid_argument("the artifact's profiles need both --iteration-profile and --network-profile");
    if (s.network_units.empty())
      throw std::invalid_argument("--network-units is required with --network-profile: MiB/s for the "
                                  "artifact's real-GPU file, MB/s for its ASTRA-sim file");
    return std::make_unique<ProfileTable>(
        readArtifactProfiles(s.iteration_profile, s.network_profile, rateUnit(s)));
  }
  if (s.profile == "estimate") return estimatedProfiles(slowestNic_Bps(cluster));
  if (s.profile != "auto") return std::make_unique<ProfileTable>(readMosimProfiles(s.profile));
  // Jobs are characterized for their own GPU type; untyped jobs for the cluster's first typed one.
  CharacterizedProfiles::Config config;
  for (const ServerSpec& server : cluster.servers)
    if (!server.gpu_type.empty()) {
      config.gpu = server.gpu_type;
      break;
    }
  config.nic_Bps = slowestNic_Bps(cluster);
  config.gpus_per_server = cluster.servers.front().gpus;
  config.network = networkStack(s.stack, config.nic_Bps);
  return std::make_unique<CharacterizedProfiles>(std::move(config));
}

}  // namespace

const std::vector<ScenarioOption>& scenarioOptions() {
  static const std::vector<ScenarioOption> options = buildOptions();
  return options;
}

void setOption(Scenario& scenario, const std::string& name, const std::string& value) {
  const auto& options = scenarioOptions();
  const auto it = std::find_if(options.begin(), options.end(),
                               [&](const ScenarioOption& o) { return o.name == name; });
  if (it == options.end()) throw std::invalid_argument(fmt::format("unknown option --{}", name));
  try {
    it->set(scenario, value);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--{} '{}': {}", name, value, e.what()));
  }
  scenario.given.insert(name);
}

PreparedScenario prepareScenario(const Scenario& s) {
  PreparedScenario prepared;
  SimulationConfig& config = prepared.config;
  configureCluster(s, config);
  config.contention_params.fixed_ratio = s.fixed_ratio;
  config.contention_params.min_bandwidth_Bps = s.min_bandwidth_Bps;
  config.rate_unit_Bps = rateUnit(s);
  config.fast_forward_tolerance = s.fast_forward;
  config.fast_forward_group = s.fast_forward_group;

  // Trace -> workloads -> jobs the cluster can hold -> profiles; every dropped job is counted.
  Trace trace = readOrGenerateTrace(s);
  if (s.trace != "example" && s.trace != "synthetic") prepared.reports.push_back(trace.report);
  const std::string pool = s.pool.empty() && s.trace == "synthetic" ? "default" : s.pool;
  if (!pool.empty()) prepared.reports.push_back(augmentFromPool(s, pool, trace));
  if (TraceReport types = dropJobsWithoutGpuType(trace, config.cluster); !types.skipped.empty())
    prepared.reports.push_back(std::move(types));
  if (trace.jobs.empty())
    throw InputError(trace.path, 0, "",
                     "no jobs left to simulate" +
                         (prepared.reports.empty() ? "" : ": " + prepared.reports.back().summary()));
  std::shared_ptr<const ProfileSource> profiles = profileSource(s, config.cluster);
  prepared.jobs = attachProfiles(trace, *profiles);
  prepared.profile_source = profiles->describe();
  // Characterized jobs are profiled again for the GPU types they land on (heterogeneous clusters).
  if (dynamic_cast<const CharacterizedProfiles*>(profiles.get())) config.placement_profiles = profiles;
  return prepared;
}

}  // namespace mosim
