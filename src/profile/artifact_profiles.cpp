#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "mosim/csv.hpp"
#include "mosim/error.hpp"
#include "mosim/profile.hpp"

namespace mosim {

namespace {

using ProfileKey = std::pair<std::string, int>;

/// A whole number that fits an int and is at least 1.
int readWorkers(const CsvTable::Row& row, std::size_t column) {
  const long long value = row.integer(column);
  if (value < 1 || value > std::numeric_limits<int>::max())
    row.fail(column, fmt::format("worker count '{}' must be a positive integer", row.text(column)));
  return static_cast<int>(value);
}

double readNonNegative(const CsvTable::Row& row, std::size_t column) {
  const double value = row.number(column);
  if (value < 0) row.fail(column, fmt::format("'{}' must not be negative", row.text(column)));
  return value;
}

std::string readModel(const CsvTable::Row& row, std::size_t column) {
  const std::string_view name = row.text(column);
  if (name.empty()) row.fail(column, "the model name is empty");
  return canonicalModelName(std::string(name));
}

// C_j per (model, workers), in bytes per second.
std::map<ProfileKey, double> readNetworkRates(const std::string& path, double network_unit_Bps) {
  const CsvTable table = CsvTable::read(path);
  const std::size_t model = table.require("Model");
  const std::size_t workers = table.require("Number of Workers");
  const std::size_t rate = table.require("Sum of Max TX+RX (MB/s)");

  std::map<ProfileKey, double> rates_Bps;
  for (const CsvTable::Row& row : table)
    rates_Bps[{readModel(row, model), readWorkers(row, workers)}] =
        readNonNegative(row, rate) * network_unit_Bps;
  return rates_Bps;
}

}  // namespace

ProfileTable readArtifactProfiles(const std::string& iteration_csv, const std::string& network_csv,
                                  double network_unit_Bps) {
  const std::map<ProfileKey, double> rates_Bps = readNetworkRates(network_csv, network_unit_Bps);

  const CsvTable table = CsvTable::read(iteration_csv);
  const std::size_t model = table.require("model_name");
  const std::size_t workers = table.require("gpu_workers");
  const std::size_t t_comp = table.require("iteration_computing_time");
  const std::size_t t_net = table.require("iteration_networking_time");
  // run.sh adds loading_time when a file lacks it and fills empty values with 0.
  const auto loading = table.find("loading_time");
  // Co-run rows (both colocated columns set) serve only the corun-profile model.
  const auto colocated_model = table.find("colocated_model_name");
  const auto colocated_workers = table.find("colocated_gpu_workers");

  ProfileTable profiles(fmt::format("{} (network rates: {})", iteration_csv, network_csv));
  for (const CsvTable::Row& row : table) {
    const bool has_colocated_model = colocated_model && !row.text(*colocated_model).empty();
    const bool has_colocated_workers = colocated_workers && !row.text(*colocated_workers).empty();
    if (has_colocated_model && has_colocated_workers) continue;
    if (has_colocated_model != has_colocated_workers)
      row.fail(has_colocated_model ? *colocated_workers : *colocated_model,
               "a co-run row needs both colocated_model_name and colocated_gpu_workers");

    const std::string name = readModel(row, model);
    const int num_gpus = readWorkers(row, workers);
    Profile profile;
    profile.t_comp_s = readNonNegative(row, t_comp);
    profile.t_net_s = readNonNegative(row, t_net);
    profile.loading_s = loading && !row.text(*loading).empty() ? readNonNegative(row, *loading) : 0;
    // A missing network row is fatal only for a multi-GPU job that uses this profile, as in the
    // artifact, so it is marked NaN here and reported by attachProfiles.
    const auto rate = rates_Bps.find({name, num_gpus});
    if (rate != rates_Bps.end())
      profile.net_rate_Bps = rate->second;
    else
      profile.net_rate_Bps = num_gpus <= 1 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    profiles.set(name, num_gpus, profile);  // a later duplicate overwrites, as in the artifact
  }
  return profiles;
}

}  // namespace mosim
