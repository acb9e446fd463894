// mosim compare: a simulation's jobs.csv against ground truth, as the paper's Tables II–IV do it.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "mosim/metrics.hpp"
#include "mosim/output.hpp"

namespace po = boost::program_options;

namespace mosim::cli {

int compareCommand(const std::vector<std::string>& args) {
  std::string truth_path, sim_path, placement;
  bool json = false;
  po::options_description description("mosim compare options");
  description.add_options()
      ("help,h", "show this help")
      ("truth", po::value(&truth_path)->required(), "ground truth: the artifact's testbed per-job CSV, or a mosim jobs.csv")
      ("sim", po::value(&sim_path)->required(), "a mosim run's output folder (or its jobs.csv)")
      ("placement", po::value(&placement), "rows of the truth file to use when it holds several placements")
      ("json", po::bool_switch(&json), "print one JSON object instead of a table");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(description).run(), vm);
  if (vm.count("help")) {
    std::cout << description << '\n';
    return 0;
  }
  po::notify(vm);

  if (std::filesystem::is_directory(sim_path)) sim_path += "/jobs.csv";
  const auto simulated = readJobsCsv(sim_path);
  const auto truth = readGroundTruth(truth_path, placement);
  const Fidelity f = compareWithTruth(simulated, truth);

  const struct {
    const char* name;
    const char* key;  // as in summary.json
    double simulated, truth, ape;
  } rows[] = {
      {"avg training", "avg_training", f.simulated.avg_training_s, f.truth.avg_training_s, f.ape_avg_training},
      {"avg JCT", "avg_jct", f.simulated.avg_jct_s, f.truth.avg_jct_s, f.ape_avg_jct},
      {"median JCT", "median_jct", f.simulated.median_jct_s, f.truth.median_jct_s, f.ape_median_jct},
      {"P99 JCT", "p99_jct", f.simulated.p99_jct_s, f.truth.p99_jct_s, f.ape_p99_jct},
      {"makespan", "makespan", f.simulated.makespan_s, f.truth.makespan_s, f.ape_makespan},
      {"avg wait", "avg_wait", f.simulated.avg_wait_s, f.truth.avg_wait_s, f.ape_avg_wait},
  };
  if (json) {
    nlohmann::json out;
    for (const auto& row : rows)
      out[row.key] = {{"simulated", row.simulated}, {"truth", row.truth}, {"ape", row.ape}};
    out["ks_jct"] = f.ks_jct;
    out["wasserstein_jct"] = f.wasserstein_jct_s;
    out["jobs"] = {{"simulated", f.simulated.jobs}, {"truth", f.truth.jobs}};
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  std::printf("%-14s %14s %14s %10s\n", "metric", "simulated", "truth", "APE %");
  for (const auto& row : rows)
    std::printf("%-14s %14.2f %14.2f %10.2f\n", row.name, row.simulated, row.truth, row.ape);
  std::printf("\nJCT distribution: KS %.4f, Wasserstein %.2f s (%zu simulated, %zu truth jobs)\n",
              f.ks_jct, f.wasserstein_jct_s, f.simulated.jobs, f.truth.jobs);
  return 0;
}

}  // namespace mosim::cli
