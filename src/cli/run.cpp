// mosim run: one simulation from a trace, profiles and a cluster, to jobs.csv and summary.json.
// The simulation's options are the scenario's (include/mosim/scenario.hpp), shared with sweeps.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "mosim/error.hpp"
#include "mosim/output.hpp"
#include "mosim/placement.hpp"
#include "mosim/progress.hpp"
#include "mosim/queue.hpp"
#include "mosim/scenario.hpp"

namespace po = boost::program_options;

namespace mosim::cli {
namespace {

struct OutputOptions {
  std::string out = "mosim-out";
  bool quiet = false;
};

po::options_description describeOptions(OutputOptions& output) {
  po::options_description d("mosim run options");
  d.add_options()("help,h", "show this help");
  for (const ScenarioOption& option : scenarioOptions()) {
    auto* value = po::value<std::string>();
    if (!option.default_text.empty()) value->default_value(option.default_text);
    d.add_options()(option.name.c_str(), value, option.help.c_str());
  }
  d.add_options()
      ("out", po::value(&output.out)->default_value(output.out), "output folder for jobs.csv and summary.json")
      ("quiet,q", po::bool_switch(&output.quiet), "no table, no progress");
  return d;
}

template <class RegistryType>
bool listIfHelp(const po::variables_map& vm, const char* option, const char* what) {
  if (!vm.count(option) || vm[option].as<std::string>() != "help") return false;
  std::printf("%s:\n", what);
  for (const auto& [name, description] : RegistryType::instance().list())
    std::printf("  %-20s %s\n", name.c_str(), description.c_str());
  return true;
}

/// What the readers kept and skipped, on stderr (with --quiet only when something was skipped).
void printReports(const std::vector<TraceReport>& reports, bool quiet) {
  for (const TraceReport& report : reports) {
    if (quiet && report.skipped.empty()) continue;
    std::fprintf(stderr, "mosim run: %s\n", report.summary().c_str());
    for (const std::string& example : report.examples)
      std::fprintf(stderr, "mosim run: warning: skipped %s\n", example.c_str());
  }
}

void printSummary(const OutputOptions& output, const PreparedScenario& prepared,
                  const SimulationResult& result, const Aggregates& a) {
  const SimulationConfig& config = prepared.config;
  std::printf("mosim run: %zu jobs on %s, %s, %s queue, %s contention\n", result.jobs.size(),
              describeCluster(config.cluster).c_str(), config.placement.c_str(),
              config.queue.c_str(), config.contention.c_str());
  std::printf("profiles: %s\n\n", prepared.profile_source.c_str());
  const std::pair<const char*, double> rows[] = {
      {"avg training", a.avg_training_s}, {"avg JCT", a.avg_jct_s}, {"median JCT", a.median_jct_s},
      {"P99 JCT", a.p99_jct_s},           {"makespan", a.makespan_s}, {"avg wait", a.avg_wait_s}};
  for (const auto& [name, value] : rows) std::printf("  %-14s %14.2f s\n", name, value);
  std::printf("\n  %zu jobs completed, %zu skipped; %llu events in %.3f s\n", a.jobs,
              result.jobs.size() - a.jobs, static_cast<unsigned long long>(result.events),
              result.wall_seconds);
  std::printf("results in %s/jobs.csv and %s/summary.json\n", output.out.c_str(), output.out.c_str());
}

}  // namespace

int runCommand(const std::vector<std::string>& args) {
  OutputOptions output;
  const auto description = describeOptions(output);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(description).run(), vm);
  if (vm.count("help")) {
    std::cout << description << '\n';
    return 0;
  }
  po::notify(vm);
  if (listIfHelp<PlacementRegistry>(vm, "placement", "placement policies") ||
      listIfHelp<QueueRegistry>(vm, "queue", "queue disciplines") ||
      listIfHelp<ContentionRegistry>(vm, "contention", "contention models"))
    return 0;

  Scenario scenario;
  for (const ScenarioOption& option : scenarioOptions())
    if (vm.count(option.name) && !vm[option.name].defaulted())
      setOption(scenario, option.name, vm[option.name].as<std::string>());
  const PreparedScenario prepared = prepareScenario(scenario);
  printReports(prepared.reports, output.quiet);

  ProgressMeter meter("mosim run: jobs done", prepared.jobs.size(), !output.quiet);
  const auto result = simulate(prepared.jobs, prepared.config,
                               [&](std::size_t done, std::size_t) { meter.update(done); });
  meter.finish();
  for (const auto& warning : result.warnings)
    std::fprintf(stderr, "mosim run: warning: %s\n", warning.c_str());

  const Aggregates aggregates = aggregate(result.jobs);
  std::error_code error;
  std::filesystem::create_directories(output.out, error);
  if (error) throw InputError(output.out, 0, "", "cannot create the output folder: " + error.message());
  writeJobsCsv(output.out + "/jobs.csv", result.jobs);
  writeSummaryJson(output.out + "/summary.json", aggregates, result.jobs.size() - aggregates.jobs,
                   result.events, result.wall_seconds);
  if (!output.quiet) printSummary(output, prepared, result, aggregates);
  return 0;
}

}  // namespace mosim::cli
