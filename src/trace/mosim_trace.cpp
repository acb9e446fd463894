#include "mosim/trace.hpp"

#include <stdexcept>

#include "mosim/cluster.hpp"
#include "mosim/csv.hpp"
#include "trace/trace_readers.hpp"

namespace mosim {

namespace detail {

Trace mosimTraceFromTable(const CsvTable& table) {
  const std::size_t job_id = table.require("job_id");
  const std::size_t submit_time = table.require("submit_time");
  const std::size_t num_gpus = table.require("num_gpus");
  const std::size_t duration = table.require("duration");
  const auto model = table.find("model");
  const auto gpu_type = table.find("gpu_type");
  const auto name = table.find("name");

  Trace trace;
  trace.path = table.path();
  for (const CsvTable::Row& row : table) {
    Job job;
    job.id = row.integer(job_id);
    if (model) job.model = canonicalModelName(std::string(row.text(*model)));
    job.submit_s = row.number(submit_time);
    job.num_gpus = readInt(row, num_gpus);
    job.duration_s = row.number(duration);
    job.cpus_per_worker = 0;
    job.source_line = row.line();
    if (name) job.name = std::string(row.text(*name));
    if (gpu_type && !row.text(*gpu_type).empty()) {
      try {
        job.gpu_type = canonicalGpuType(row.text(*gpu_type));
      } catch (const std::invalid_argument& error) {
        row.fail(*gpu_type, error.what());
      }
    }
    trace.jobs.push_back(std::move(job));
  }
  validateTrace(trace, kMosimTraceFields);
  return trace;
}

}  // namespace detail

}  // namespace mosim
