// Result files: per-job tables (mosim's jobs.csv and the artifact's ground truth) and summaries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mosim/metrics.hpp"
#include "mosim/results.hpp"

namespace mosim {

/// Writes jobs.csv: job_id, model, num_gpus, servers (as 0|1|1|1), submit, start, end, wait,
/// training, jct, compute, comm, loading, iterations, status. Numbers in shortest round-trip form.
void writeJobsCsv(const std::string& path, const std::vector<JobResult>& jobs);
/// Reads a jobs.csv written by writeJobsCsv.
std::vector<JobResult> readJobsCsv(const std::string& path);

/// The artifact's 16gpu per-job ground truth (placement, job_ids, models, arrival_times,
/// wait_times, training_time, jcts) for one placement, or its 32gpu per-policy files (job_id with an
/// "id" prefix, start_time_seconds, end_time_seconds, training_time, jcts, wait_times,
/// arrival_times), or a mosim jobs.csv. `placement` selects rows in files that hold several; empty
/// means "the only one".
std::vector<JobResult> readGroundTruth(const std::string& path, const std::string& placement);

/// Writes summary.json: jobs, avg_training, avg_jct, median_jct, p99_jct, makespan, avg_wait
/// (seconds), skipped, events, wall_seconds.
void writeSummaryJson(const std::string& path, const Aggregates& aggregates, std::size_t skipped,
                      std::uint64_t events, double wall_seconds);

}  // namespace mosim
