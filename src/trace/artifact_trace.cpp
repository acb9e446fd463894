#include "mosim/trace.hpp"

#include "mosim/csv.hpp"
#include "trace/trace_readers.hpp"

namespace mosim {

namespace detail {

Trace artifactTraceFromTable(const CsvTable& table) {
  const std::size_t job_id = table.require("job_id");
  const std::size_t model = table.require("model");
  const std::size_t arrival_time = table.require("arrival_time");
  const std::size_t duration = table.require("duration");
  const std::size_t gpu_workers = table.require("gpu_workers");
  const auto gpu_per_worker = table.find("gpu_per_worker");
  const auto cpu_per_gpu_worker = table.find("cpu_per_gpu_worker");
  const auto ps = table.find("ps");
  // Every other column (num_iteration, profiled_network, tensorsizes, skewness, ...) is ignored:
  // run.sh recomputes num_iteration, and C_j comes from the network profile (§2.1).

  Trace trace;
  trace.path = table.path();
  for (const CsvTable::Row& row : table) {
    if (gpu_per_worker && !row.text(*gpu_per_worker).empty() && row.integer(*gpu_per_worker) != 1)
      row.fail(*gpu_per_worker, "only one GPU per worker is supported");
    if (ps && !row.text(*ps).empty() && row.integer(*ps) != 0)
      row.fail(*ps, "parameter servers are not supported (only all-reduce jobs): ps must be 0");

    Job job;
    job.id = row.integer(job_id);
    job.model = canonicalModelName(std::string(row.text(model)));
    job.submit_s = row.number(arrival_time);
    job.duration_s = row.number(duration);
    job.num_gpus = readInt(row, gpu_workers);
    if (cpu_per_gpu_worker && !row.text(*cpu_per_gpu_worker).empty()) {
      job.cpus_per_worker = readInt(row, *cpu_per_gpu_worker);
      if (job.cpus_per_worker < 0) row.fail(*cpu_per_gpu_worker, "must not be negative");
    }
    job.source_line = row.line();
    trace.jobs.push_back(std::move(job));
  }
  validateTrace(trace, kArtifactTraceFields);
  return trace;
}

}  // namespace detail

}  // namespace mosim
