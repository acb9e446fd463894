// Ground truth from the paper artifact's testbed files (mosim-reference.md §9.1, §12), or from
// another mosim run.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mosim/csv.hpp"
#include "mosim/error.hpp"
#include "mosim/output.hpp"

namespace mosim {
namespace {

constexpr const char* kLayouts =
    "expected the 16gpu per-job layout (placement,job_ids,models,arrival_times,wait_times,"
    "training_time,jcts) or the 32gpu per-policy layout (job_id,start_time_seconds,"
    "end_time_seconds,training_time,jcts,wait_times,arrival_times) or a mosim jobs.csv";

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

/// The placement whose rows to read: the requested one, or the only one the file holds.
std::string choosePlacement(const CsvTable& table, std::size_t column,
                            const std::string& requested) {
  std::vector<std::string> present;
  for (const CsvTable::Row& row : table) {
    const std::string placement(row.text(column));
    if (std::find(present.begin(), present.end(), placement) == present.end())
      present.push_back(placement);
  }
  if (requested.empty() && present.size() == 1) return present.front();
  if (std::find(present.begin(), present.end(), requested) != present.end()) return requested;
  const std::string problem = requested.empty() ? "holds several placements; choose one"
                                                : "has no rows for placement '" + requested + "'";
  throw InputError(table.path(), 0, "placement", problem + " (present: " + joined(present) + ")");
}

/// 16gpu: rows of one placement; start and end follow from arrival, wait and JCT.
std::vector<JobResult> readPerJobResult(const CsvTable& table, const std::string& requested) {
  const std::size_t placement = table.require("placement");
  const std::size_t id = table.require("job_ids");
  const std::size_t model = table.require("models");
  const std::size_t arrival = table.require("arrival_times");
  const std::size_t wait = table.require("wait_times");
  const std::size_t training = table.require("training_time");
  const std::size_t jct = table.require("jcts");
  const std::string chosen = choosePlacement(table, placement, requested);

  std::vector<JobResult> jobs;
  for (const CsvTable::Row& row : table) {
    if (row.text(placement) != chosen) continue;
    JobResult job;
    job.id = row.integer(id);
    job.model = std::string(row.text(model));
    job.submit_s = row.number(arrival);
    job.wait_s = row.number(wait);
    job.training_s = row.number(training);
    job.jct_s = row.number(jct);
    // As run.sh's summarize does; the file's wait + training differs from its JCT by up to 1.9 s.
    job.start_s = job.submit_s + job.wait_s;
    job.end_s = job.submit_s + job.jct_s;
    jobs.push_back(std::move(job));
  }
  return jobs;
}

/// "id12" -> 12 (the prefix is optional).
JobId parseTestbedId(const CsvTable::Row& row, std::size_t column) {
  std::string_view text = row.text(column);
  if (text.starts_with("id")) text.remove_prefix(2);
  JobId id = 0;
  const char* last = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), last, id);
  if (error != std::errc() || ptr != last || text.empty())
    row.fail(column, "expected a job id like id12, got '" + std::string(row.text(column)) + "'");
  return id;
}

/// 32gpu: one file per placement policy, with start and end times of its own.
std::vector<JobResult> readPerPolicyResult(const CsvTable& table) {
  const std::size_t id = table.require("job_id");
  const std::size_t start = table.require("start_time_seconds");
  const std::size_t end = table.require("end_time_seconds");
  // The artifact's files have two columns of this name; run.sh uses the first, which find() gives.
  const std::size_t training = table.require("training_time");
  const std::size_t jct = table.require("jcts");
  const std::size_t wait = table.require("wait_times");
  const std::size_t arrival = table.require("arrival_times");
  const std::optional<std::size_t> model = table.find("models");

  std::vector<JobResult> jobs;
  jobs.reserve(table.rows());
  for (const CsvTable::Row& row : table) {
    JobResult job;
    job.id = parseTestbedId(row, id);
    if (model) job.model = std::string(row.text(*model));
    job.submit_s = row.number(arrival);
    job.start_s = row.number(start);
    job.end_s = row.number(end);
    job.wait_s = row.number(wait);
    job.training_s = row.number(training);
    job.jct_s = row.number(jct);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace

std::vector<JobResult> readGroundTruth(const std::string& path, const std::string& placement) {
  const CsvTable table = CsvTable::read(path);
  if (table.find("placement") && table.find("job_ids")) return readPerJobResult(table, placement);
  if (table.find("job_id") && table.find("start_time_seconds")) return readPerPolicyResult(table);
  if (table.find("job_id") && table.find("jct")) return readJobsCsv(path);  // another run as truth
  throw InputError(path, 1, "", "unknown ground-truth layout: " + std::string(kLayouts));
}

}  // namespace mosim
