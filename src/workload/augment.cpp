// Job augmentation: a workload from the pool for every job that needs one (paper §IV-A1).
#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/workload.hpp"
#include "workload/random.hpp"

namespace mosim {

namespace {

/// The entries that allow one GPU count, with their cumulative weights in pool order.
struct Candidates {
  std::vector<std::size_t> entries;
  std::vector<double> cumulative_weight;
};

Candidates candidatesFor(const WorkloadPool& pool, int num_gpus) {
  Candidates candidates;
  double total = 0;
  for (std::size_t i = 0; i < pool.entries.size(); ++i) {
    const WorkloadEntry& entry = pool.entries[i];
    const bool allowed = entry.gpu_counts.empty() ||
                         std::find(entry.gpu_counts.begin(), entry.gpu_counts.end(), num_gpus) !=
                             entry.gpu_counts.end();
    if (!allowed || !(entry.weight > 0)) continue;
    total += entry.weight;
    candidates.entries.push_back(i);
    candidates.cumulative_weight.push_back(total);
  }
  return candidates;
}

/// A uniform number in [0, 1) that depends only on the seed and the job id.
double jobUniform(std::uint64_t seed, JobId id) {
  const std::uint64_t mixed =
      detail::splitmix64(detail::splitmix64(seed) ^ static_cast<std::uint64_t>(id));
  return static_cast<double>(mixed >> 11) * 0x1p-53;
}

std::size_t pick(const Candidates& candidates, double u) {
  const double target = u * candidates.cumulative_weight.back();
  for (std::size_t i = 0; i < candidates.entries.size(); ++i)
    if (target < candidates.cumulative_weight[i]) return candidates.entries[i];
  return candidates.entries.back();
}

}  // namespace

TraceReport augmentTrace(Trace& trace, const WorkloadPool& pool, const AugmentOptions& options) {
  TraceReport report;
  report.source = fmt::format("workloads from {}", pool.path);
  if (pool.entries.empty()) throw InputError(pool.path, 0, "workloads", "the pool is empty");

  std::map<int, Candidates> by_gpus;
  std::vector<Job> kept;
  kept.reserve(trace.jobs.size());
  for (Job& job : trace.jobs) {
    if (options.mode == AugmentMode::Missing && !job.model.empty()) {
      kept.push_back(std::move(job));
      continue;
    }
    auto found = by_gpus.find(job.num_gpus);
    if (found == by_gpus.end())
      found = by_gpus.emplace(job.num_gpus, candidatesFor(pool, job.num_gpus)).first;
    const Candidates& candidates = found->second;
    if (candidates.entries.empty()) {
      const std::string reason =
          fmt::format("no pool entry allows {} GPU{}", job.num_gpus, job.num_gpus == 1 ? "" : "s");
      if (options.unmatched == UnmatchedGpus::Error)
        throw InputError(trace.path, job.source_line, "num_gpus",
                         fmt::format("{} in {}", reason, pool.path));
      const std::string name = job.name.empty() ? std::to_string(job.id) : job.name;
      report.skip(reason, fmt::format("{}:{}: job {}: {}", trace.path, job.source_line, name,
                                      reason));
      continue;
    }
    const WorkloadEntry& entry = pool.entries[pick(candidates, jobUniform(options.seed, job.id))];
    job.model = entry.model;
    job.workload = entry.details;
    kept.push_back(std::move(job));
  }
  trace.jobs = std::move(kept);
  report.kept = trace.jobs.size();
  return report;
}

}  // namespace mosim
