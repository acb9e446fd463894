// Tiresias' trace CSV (Gu et al., NSDI'19): job_id,num_gpu,submit_time,iterations,model_name,
// duration,interval, times in seconds. The Philly-derived traces of Muri (Zhao et al., SIGCOMM'22)
// add batch_size, iteration_time, resource_time_0..2 and priority, and give times in
// milliseconds; TimeUnit::Auto takes milliseconds exactly when those extra columns are there.
// Job ids are the file's (whole numbers); model_name becomes the model; iterations, interval and
// Muri's extra columns are not used.
#include <utility>

#include "trace/trace_readers.hpp"

namespace mosim::detail {

Trace tiresiasTraceFromTable(const CsvTable& table, const TraceOptions& options) {
  const std::size_t job_id = table.require("job_id");
  const std::size_t num_gpu = table.require("num_gpu");
  const std::size_t submit_time = table.require("submit_time");
  const std::size_t duration = table.require("duration");
  const auto model_name = table.find("model_name");

  TimeUnit unit = options.tiresias_time_unit;
  if (unit == TimeUnit::Auto)
    unit = table.find("iteration_time") || table.find("resource_time_0") ? TimeUnit::Milliseconds
                                                                         : TimeUnit::Seconds;
  const double per_second = unit == TimeUnit::Milliseconds ? 1000.0 : 1.0;

  Trace trace;
  trace.path = table.path();
  for (const CsvTable::Row& row : table) {
    const std::string name(row.text(job_id));
    const auto skip = [&](const std::string& reason) {
      trace.report.skip(reason, skipExample(trace.path, row.line(), name, reason));
    };
    const JobId id = row.integer(job_id);
    const auto gpus = lenientNumber(row, num_gpu);
    const auto submit = lenientNumber(row, submit_time);
    const auto length = lenientNumber(row, duration);

    if (const auto reason = unusableJob(row, num_gpu, {gpus, submit, length})) {
      skip(*reason);
      continue;
    }

    Job job;
    job.id = id;
    if (model_name) job.model = canonicalModelName(std::string(row.text(*model_name)));
    job.submit_s = *submit / per_second;
    job.num_gpus = static_cast<int>(*gpus);
    job.duration_s = *length / per_second;
    job.source_line = row.line();
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

}  // namespace mosim::detail
