// Helios (Hu et al., SC'21) and Acme (Hu et al., NSDI'24) job traces: CSV with
//   job_id, user, vc (Helios) | type (Acme), gpu_num, cpu_num, node_num, state, submit_time,
//   start_time, end_time, duration, queue
// Times are epoch seconds or date-times. The duration is the `duration` column (run seconds)
// when the row has one, else end_time - start_time. user, vc/type, cpu_num, node_num and queue
// are not used: CPU counts belong to the source cluster's servers, not the simulated ones.
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "trace/trace_readers.hpp"

namespace mosim::detail {

Trace heliosTraceFromTable(const CsvTable& table, const TraceOptions& options, TraceFormat format) {
  const std::size_t job_id = table.require("job_id");
  const std::size_t gpu_num = table.require("gpu_num");
  const std::size_t submit_time = table.require("submit_time");
  const auto duration = table.find("duration");
  const auto start_time = table.find("start_time");
  const auto end_time = table.find("end_time");
  const auto state = table.find("state");
  if (!duration && !(start_time && end_time))
    throw InputError(table.path(), 1, "duration",
                     fmt::format("the {} trace needs a duration column or start_time and "
                                 "end_time",
                                 traceFormatName(format)));

  Trace trace;
  trace.path = table.path();
  for (const CsvTable::Row& row : table) {
    const std::string name(row.text(job_id));
    const auto skip = [&](const std::string& reason) {
      trace.report.skip(reason, skipExample(trace.path, row.line(), name, reason));
    };
    if (state) {
      const std::string status(row.text(*state));
      if (!statusKept(options, status)) {
        skip(status.empty() ? "no status" : "status " + status);
        continue;
      }
    }

    const auto gpus = lenientNumber(row, gpu_num);
    const auto submit_s = timestampField(row, submit_time);
    // The duration column, or else end - start.
    bool from_times = false;
    const auto duration_s = [&]() -> std::optional<double> {
      if (duration)
        if (const auto value = lenientNumber(row, *duration)) return value;
      if (!start_time || !end_time) return std::nullopt;
      const auto start_s = timestampField(row, *start_time);
      const auto end_s = timestampField(row, *end_time);
      if (!start_s || !end_s) return std::nullopt;
      from_times = true;
      return *end_s - *start_s;
    }();

    if (const auto reason = unusableJob(row, gpu_num, {gpus, submit_s, duration_s, from_times})) {
      skip(*reason);
      continue;
    }

    Job job;
    job.id = static_cast<JobId>(trace.jobs.size());
    job.name = name;
    job.submit_s = *submit_s;
    job.num_gpus = static_cast<int>(*gpus);
    job.duration_s = *duration_s;
    job.source_line = row.line();
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

}  // namespace mosim::detail
