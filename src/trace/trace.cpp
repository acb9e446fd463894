#include "mosim/trace.hpp"

#include <climits>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "mosim/csv.hpp"
#include "mosim/error.hpp"
#include "trace/trace_readers.hpp"

namespace mosim {

namespace detail {

int readInt(const CsvTable::Row& row, std::size_t column) {
  const long long value = row.integer(column);
  if (value < INT_MIN || value > INT_MAX)
    row.fail(column, fmt::format("'{}' is out of range", row.text(column)));
  return static_cast<int>(value);
}

void validateTrace(const Trace& trace, const TraceFields& fields) {
  if (trace.jobs.empty()) throw InputError(trace.path, 0, "", "the trace has no jobs");

  std::map<JobId, std::size_t> first_line_of_id;
  for (const Job& job : trace.jobs) {
    const auto fail = [&](std::string_view field, const std::string& message) {
      throw InputError(trace.path, job.source_line, std::string(field), message);
    };
    if (!std::isfinite(job.submit_s))
      fail(fields.submit, fmt::format("submit time {} is not a finite number", job.submit_s));
    if (job.submit_s < 0)
      fail(fields.submit, fmt::format("submit time {} is negative", job.submit_s));
    if (!std::isfinite(job.duration_s))
      fail(fields.duration, fmt::format("duration {} is not a finite number", job.duration_s));
    if (job.duration_s <= 0)
      fail(fields.duration, fmt::format("duration {} must be positive", job.duration_s));
    if (job.num_gpus <= 0)
      fail(fields.num_gpus, fmt::format("GPU count {} must be positive", job.num_gpus));

    const auto [previous, inserted] = first_line_of_id.emplace(job.id, job.source_line);
    if (!inserted)
      fail(fields.job_id,
           fmt::format("duplicate job id {} (first on line {})", job.id, previous->second));
  }
}

}  // namespace detail

Trace readTrace(const std::string& path) {
  const CsvTable table = CsvTable::read(path);
  if (table.find("arrival_time") && table.find("gpu_workers"))
    return detail::artifactTraceFromTable(table);
  if (table.find("submit_time") && table.find("num_gpus")) return detail::mosimTraceFromTable(table);
  throw InputError(path, 1, "",
                   "unknown trace format: expected the artifact's columns (job_id, model, "
                   "arrival_time, duration, gpu_workers, ...) or mosim's (job_id, submit_time, "
                   "num_gpus, duration[, model])");
}

void validateTrace(const Trace& trace) { detail::validateTrace(trace, detail::kMosimTraceFields); }

}  // namespace mosim
