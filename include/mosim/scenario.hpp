// A scenario: everything one simulation needs, as named option values. `mosim run` reads them from
// its command line and a sweep varies them, through the same table of options, so that any option
// of `mosim run` can be a sweep axis. prepareScenario turns a scenario into profiled jobs and an
// engine configuration: trace -> workloads -> jobs the cluster can hold -> profiles.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "mosim/engine.hpp"
#include "mosim/trace.hpp"

namespace mosim {

struct Scenario {
  // The trace: a file, "example" (the built-in example) or "synthetic" (Philly-like, seeded).
  std::string trace = "example";
  TraceOptionTexts trace_options;
  std::size_t jobs = 0;              ///< synthetic: this many jobs (0: all before horizon_s)
  double arrival_rate_per_s = 0.005; ///< synthetic: Poisson rate (the paper's 0.005/s)
  double horizon_s = 0;              ///< synthetic with jobs == 0: arrivals before this time
  std::uint64_t seed = 0;            ///< synthetic trace, workload sampler, Pollux durations

  // Workloads attached to jobs without a model ("default": the paper's twelve models).
  std::string pool;
  std::string augment = "missing";
  std::string unmatched_gpus = "skip";

  // The cluster: a YAML file, or a homogeneous one.
  std::string cluster;
  int servers = 4, gpus_per_server = 8, cpus_per_server = 256;
  double nic_Bps = 463e6;    ///< the artifact's effective 5 Gbps NIC
  double intra_Bps = 16384e6;
  std::string gpu_type;

  // Scheduling and contention.
  std::string placement = "k8s-load-balancing", queue = "fifo", contention = "mosim";
  double fixed_ratio = 0.10;
  double min_bandwidth_Bps = 10e6;
  double fast_forward = 0;
  std::size_t fast_forward_group = SimulationConfig{}.fast_forward_group;

  // Profiles: "auto" characterizes each job without a GPU (the default), "estimate" is the crude
  // size-based estimate of example.hpp, anything else is a table in mosim's format; or the
  // artifact's two files.
  std::string profile = "auto";
  std::string stack = "testbed";  ///< characterization: the artifact's testbed stack, or nccl
  std::string iteration_profile, network_profile, network_units;

  /// Options given explicitly (set through setOption), as opposed to defaults.
  std::set<std::string> given;
};

struct ScenarioOption {
  std::string name;  ///< the command-line name, without dashes
  std::string help;
  std::string default_text;
  /// Parses and checks the text; throws std::invalid_argument saying why it is rejected.
  std::function<void(Scenario&, const std::string&)> set;
};

/// Every option of a scenario, in the order `mosim run --help` lists them.
const std::vector<ScenarioOption>& scenarioOptions();

/// Sets one option from text, e.g. ("nic-bandwidth", "5 Gbps"). Throws std::invalid_argument
/// naming the option and value for an unknown option or a value it rejects.
void setOption(Scenario& scenario, const std::string& name, const std::string& value);

struct PreparedScenario {
  std::vector<ProfiledJob> jobs;
  SimulationConfig config;
  std::vector<TraceReport> reports;  ///< what the readers and the sampler kept and skipped
  std::string profile_source;        ///< where the profiles came from, for messages
};

/// Reads or generates the trace, attaches workloads and profiles, and builds the engine's
/// configuration. Throws InputError for bad input files and std::invalid_argument for
/// inconsistent options (e.g. --servers with --cluster).
PreparedScenario prepareScenario(const Scenario& scenario);

}  // namespace mosim
