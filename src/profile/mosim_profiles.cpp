#include <limits>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "mosim/csv.hpp"
#include "mosim/error.hpp"
#include "mosim/profile.hpp"

namespace mosim {

namespace {

double readNonNegative(const CsvTable::Row& row, std::size_t column) {
  const double value = row.number(column);
  if (value < 0) row.fail(column, fmt::format("'{}' must not be negative", row.text(column)));
  return value;
}

}  // namespace

ProfileTable readMosimProfiles(const std::string& path) {
  const CsvTable table = CsvTable::read(path);
  const std::size_t model = table.require("model");
  const std::size_t num_gpus = table.require("num_gpus");
  const std::size_t t_comp = table.require("t_comp_s");
  const std::size_t t_net = table.require("t_net_s");
  const std::size_t net_rate = table.require("net_rate_Bps");
  const auto loading = table.find("loading_s");

  ProfileTable profiles(path);
  std::map<std::pair<std::string, int>, std::size_t> first_line_of_key;
  for (const CsvTable::Row& row : table) {
    if (row.text(model).empty()) row.fail(model, "the model name is empty");
    const std::string name = canonicalModelName(std::string(row.text(model)));

    const long long gpus = row.integer(num_gpus);
    if (gpus < 1 || gpus > std::numeric_limits<int>::max())
      row.fail(num_gpus, fmt::format("GPU count '{}' must be a positive integer", row.text(num_gpus)));

    Profile profile;
    profile.t_comp_s = readNonNegative(row, t_comp);
    profile.t_net_s = readNonNegative(row, t_net);
    profile.net_rate_Bps = readNonNegative(row, net_rate);
    if (loading && !row.text(*loading).empty()) profile.loading_s = readNonNegative(row, *loading);

    const auto key = std::make_pair(name, static_cast<int>(gpus));
    const auto [first, inserted] = first_line_of_key.emplace(key, row.line());
    if (!inserted)
      row.fail(model, fmt::format("duplicate profile for model '{}' on {} GPUs (first on line {})",
                                  name, gpus, first->second));
    profiles.set(name, key.second, profile);
  }
  return profiles;
}

}  // namespace mosim
