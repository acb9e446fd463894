// mosim run: one simulation from a trace, profiles and a cluster, to jobs.csv and summary.json.
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "commands.hpp"
#include "mosim/contention.hpp"
#include "mosim/engine.hpp"
#include "mosim/error.hpp"
#include "mosim/example.hpp"
#include "mosim/output.hpp"
#include "mosim/placement.hpp"
#include "mosim/progress.hpp"
#include "mosim/queue.hpp"
#include "mosim/trace.hpp"
#include "mosim/units.hpp"

namespace po = boost::program_options;

namespace mosim::cli {
namespace {

struct RunOptions {
  std::string trace, iteration_profile, network_profile, network_units, profile;
  int servers = 4, gpus_per_server = 8, cpus_per_server = 256;
  std::string nic_bandwidth = "463 MB/s", intra_bandwidth = "16384 MB/s",
              min_bandwidth = "10 MB/s";
  std::string placement = "k8s-load-balancing", queue = "fifo", contention = "mosim";
  double fixed_ratio = 0.10;
  double fast_forward = 0;
  std::string out = "mosim-out";
  bool quiet = false;
};

po::options_description describeOptions(RunOptions& o) {
  po::options_description d("mosim run options");
  d.add_options()
      ("help,h", "show this help")
      ("trace", po::value(&o.trace), "job trace CSV (artifact or mosim format); default: the built-in example")
      ("iteration-profile", po::value(&o.iteration_profile), "the artifact's iteration-time CSV")
      ("network-profile", po::value(&o.network_profile), "the artifact's network-summary CSV")
      ("network-units", po::value(&o.network_units), "unit of the network-summary rates: MiB/s (real-GPU file) or MB/s (ASTRA-sim file)")
      ("profile", po::value(&o.profile), "profiles in mosim's format (model,num_gpus,t_comp_s,t_net_s,net_rate_Bps[,loading_s])")
      ("servers", po::value(&o.servers)->default_value(o.servers), "number of servers")
      ("gpus-per-server", po::value(&o.gpus_per_server)->default_value(o.gpus_per_server), "GPUs per server")
      ("cpus-per-server", po::value(&o.cpus_per_server)->default_value(o.cpus_per_server), "CPU cores per server")
      ("nic-bandwidth", po::value(&o.nic_bandwidth)->default_value(o.nic_bandwidth), "NIC bandwidth per server, with unit (the artifact's effective 5 Gbps NIC is 463 MB/s)")
      ("intra-bandwidth", po::value(&o.intra_bandwidth)->default_value(o.intra_bandwidth), "intra-server bandwidth, with unit")
      ("placement", po::value(&o.placement)->default_value(o.placement), "placement policy (`help` lists them)")
      ("queue", po::value(&o.queue)->default_value(o.queue), "queue discipline (`help` lists them)")
      ("contention", po::value(&o.contention)->default_value(o.contention), "contention model (`help` lists them)")
      ("fixed-ratio", po::value(&o.fixed_ratio)->default_value(o.fixed_ratio, "0.10"), "penalty of the `fixed` model on network time")
      ("min-bandwidth", po::value(&o.min_bandwidth)->default_value(o.min_bandwidth), "MIN_BW, the floor of a job's NIC allocation (Eq. 9)")
      ("fast-forward", po::value(&o.fast_forward)->default_value(0, "off"), "phase-level models: jump over steady stretches when iteration times agree within this fraction (e.g. 0.01); off simulates every phase")
      ("out", po::value(&o.out)->default_value(o.out), "output folder for jobs.csv and summary.json")
      ("quiet,q", po::bool_switch(&o.quiet), "no table, no progress");
  return d;
}

template <class RegistryType>
bool listIfHelp(const std::string& value, const char* what) {
  if (value != "help") return false;
  std::printf("%s:\n", what);
  for (const auto& [name, description] : RegistryType::instance().list())
    std::printf("  %-20s %s\n", name.c_str(), description.c_str());
  return true;
}

double bandwidthOption(const std::string& option, const std::string& text) {
  try {
    const double rate_Bps = parseBandwidth_Bps(text);
    if (!(rate_Bps > 0)) throw std::invalid_argument("must be positive");
    return rate_Bps;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--{} '{}': {}", option, text, e.what()));
  }
}

void requirePositive(const char* option, int value) {
  if (value < 1) throw std::invalid_argument(fmt::format("--{} must be at least 1, not {}", option, value));
}

/// The unit of the network profile's rates (MB/s when none is given), also the unit in which
/// contention arithmetic is done (see NetworkState).
double networkUnit_Bps(const RunOptions& o) {
  if (o.network_units.empty()) return 1e6;
  try {
    return rateUnit_Bps(o.network_units);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--network-units: {}", e.what()));
  }
}

std::unique_ptr<ProfileSource> profileSource(const RunOptions& o, double nic_Bps) {
  const bool artifact = !o.iteration_profile.empty() || !o.network_profile.empty();
  if (!o.profile.empty() && artifact)
    throw std::invalid_argument("give either --profile or the artifact's two profile files, not both");
  if (!o.profile.empty()) return std::make_unique<ProfileTable>(readMosimProfiles(o.profile));
  if (artifact) {
    if (o.iteration_profile.empty() || o.network_profile.empty())
      throw std::invalid_argument("the artifact's profiles need both --iteration-profile and --network-profile");
    if (o.network_units.empty())
      throw std::invalid_argument("--network-units is required with --network-profile: MiB/s for the "
                                  "artifact's real-GPU file, MB/s for its ASTRA-sim file");
    return std::make_unique<ProfileTable>(
        readArtifactProfiles(o.iteration_profile, o.network_profile, networkUnit_Bps(o)));
  }
  return estimatedProfiles(nic_Bps);
}

void printSummary(const RunOptions& o, const SimulationConfig& config, const SimulationResult& result,
                  const Aggregates& a, const std::string& profiles) {
  std::printf("mosim run: %zu jobs on %d x %d GPUs, %s, %s queue, %s contention\n", result.jobs.size(),
              o.servers, o.gpus_per_server, config.placement.c_str(), config.queue.c_str(),
              config.contention.c_str());
  std::printf("profiles: %s\n\n", profiles.c_str());
  const std::pair<const char*, double> rows[] = {
      {"avg training", a.avg_training_s}, {"avg JCT", a.avg_jct_s}, {"median JCT", a.median_jct_s},
      {"P99 JCT", a.p99_jct_s},           {"makespan", a.makespan_s}, {"avg wait", a.avg_wait_s}};
  for (const auto& [name, value] : rows) std::printf("  %-14s %14.2f s\n", name, value);
  std::printf("\n  %zu jobs completed, %zu skipped; %llu events in %.3f s\n", a.jobs,
              result.jobs.size() - a.jobs, static_cast<unsigned long long>(result.events),
              result.wall_seconds);
  std::printf("results in %s/jobs.csv and %s/summary.json\n", o.out.c_str(), o.out.c_str());
}

}  // namespace

int runCommand(const std::vector<std::string>& args) {
  RunOptions o;
  const auto description = describeOptions(o);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(description).run(), vm);
  if (vm.count("help")) {
    std::cout << description << '\n';
    return 0;
  }
  po::notify(vm);
  if (listIfHelp<PlacementRegistry>(o.placement, "placement policies") ||
      listIfHelp<QueueRegistry>(o.queue, "queue disciplines") ||
      listIfHelp<ContentionRegistry>(o.contention, "contention models"))
    return 0;

  requirePositive("servers", o.servers);
  requirePositive("gpus-per-server", o.gpus_per_server);
  requirePositive("cpus-per-server", o.cpus_per_server);
  if (!std::isfinite(o.fixed_ratio) || o.fixed_ratio < 0)
    throw std::invalid_argument(fmt::format("--fixed-ratio must be finite and >= 0, not {}", o.fixed_ratio));

  SimulationConfig config;
  const double nic_Bps = bandwidthOption("nic-bandwidth", o.nic_bandwidth);
  config.cluster = ClusterSpec::homogeneous(o.servers, o.gpus_per_server, o.cpus_per_server, nic_Bps,
                                            bandwidthOption("intra-bandwidth", o.intra_bandwidth));
  config.placement = o.placement;
  config.queue = o.queue;
  config.contention = o.contention;
  config.contention_params.fixed_ratio = o.fixed_ratio;
  config.contention_params.min_bandwidth_Bps = bandwidthOption("min-bandwidth", o.min_bandwidth);
  config.rate_unit_Bps = networkUnit_Bps(o);
  if (!std::isfinite(o.fast_forward) || o.fast_forward < 0)
    throw std::invalid_argument(fmt::format("--fast-forward must be a fraction >= 0, not {}", o.fast_forward));
  config.fast_forward_tolerance = o.fast_forward;

  const Trace trace = o.trace.empty() ? builtinExampleTrace() : readTrace(o.trace);
  const auto profiles = profileSource(o, nic_Bps);
  const auto jobs = attachProfiles(trace, *profiles);

  ProgressMeter meter("mosim run: jobs done", jobs.size(), !o.quiet);
  const auto result =
      simulate(jobs, config, [&](std::size_t done, std::size_t) { meter.update(done); });
  meter.finish();
  for (const auto& warning : result.warnings) std::fprintf(stderr, "mosim run: warning: %s\n", warning.c_str());

  const Aggregates aggregates = aggregate(result.jobs);
  std::error_code error;
  std::filesystem::create_directories(o.out, error);
  if (error) throw InputError(o.out, 0, "", "cannot create the output folder: " + error.message());
  writeJobsCsv(o.out + "/jobs.csv", result.jobs);
  writeSummaryJson(o.out + "/summary.json", aggregates, result.jobs.size() - aggregates.jobs,
                   result.events, result.wall_seconds);
  if (!o.quiet) printSummary(o, config, result, aggregates, profiles->describe());
  return 0;
}

}  // namespace mosim::cli
