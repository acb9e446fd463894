// Trace input: the artifact's job-trace CSVs and mosim's own simple CSV.
#pragma once

#include <string>

#include "mosim/job.hpp"

namespace mosim {

/// The artifact's trace CSV (mosim-reference.md §2.1): job_id, model, arrival_time, duration,
/// gpu_workers, gpu_per_worker, cpu_per_gpu_worker, and optional/ignored columns. Both its 16gpu
/// and 32gpu variants; model names go through canonicalModelName.
Trace readArtifactTrace(const std::string& path);

/// mosim's format: job_id,submit_time,num_gpus,duration[,model].
Trace readMosimTrace(const std::string& path);

/// Chooses the reader from the header: `arrival_time` and `gpu_workers` mean the artifact's format,
/// `submit_time` and `num_gpus` mosim's.
Trace readTrace(const std::string& path);

/// Checks what every reader must guarantee: at least one job, unique ids, finite non-negative
/// submit times, durations that are finite and positive, whole positive GPU counts. Throws
/// InputError naming the file, line and field.
void validateTrace(const Trace& trace);

}  // namespace mosim
