// One point of a sweep: its scenario simulated on its own, reduced to aggregates (and, on request,
// a compact per-job table).
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>

#include "mosim/sweep.hpp"

namespace mosim::sweep {
namespace {

Aggregates notANumber() {
  Aggregates a;
  a.avg_training_s = a.avg_jct_s = a.median_jct_s = a.p99_jct_s = a.makespan_s = a.avg_wait_s = NAN;
  return a;
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

PointResult runPoint(const SweepSpec& spec, std::uint64_t point, bool per_job) {
  const auto start = std::chrono::steady_clock::now();
  PointResult result;
  result.point = point;
  result.aggregates = notANumber();
  try {
    const PreparedScenario prepared = prepareScenario(spec.scenario(point));
    const SimulationResult simulation = simulate(prepared.jobs, prepared.config);
    result.events = simulation.events;
    std::uint64_t completed = 0;
    for (const JobResult& job : simulation.jobs)
      if (job.status == JobStatus::Completed) ++completed;
    result.jobs = completed;
    result.skipped = simulation.jobs.size() - completed;
    if (completed == 0) {
      result.status = PointStatus::NoCompletedJob;
    } else {
      result.aggregates = aggregate(simulation.jobs);
    }
    if (per_job) {
      result.per_job.reserve(simulation.jobs.size());
      for (const JobResult& job : simulation.jobs)
        result.per_job.push_back({job.id, job.num_gpus,
                                  static_cast<std::uint8_t>(job.status == JobStatus::Completed ? 0 : 1),
                                  job.submit_s, job.start_s, job.end_s, job.wait_s, job.training_s,
                                  job.jct_s});
    }
  } catch (const std::bad_alloc&) {
    throw;  // not a property of the point: a resumed run might succeed
  } catch (const std::exception& e) {
    // A rejected scenario (no jobs left, inconsistent options, an unreadable file) is the same on
    // every run, so it is a result, not a reason to lose the rest of the sweep.
    result = PointResult{};
    result.point = point;
    result.aggregates = notANumber();
    result.status = PointStatus::Failed;
    result.error = e.what();
  }
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

bool sameResult(const PointResult& a, const PointResult& b) {
  const Aggregates &x = a.aggregates, &y = b.aggregates;
  const bool aggregates_same =
      sameBits(x.avg_training_s, y.avg_training_s) && sameBits(x.avg_jct_s, y.avg_jct_s) &&
      sameBits(x.median_jct_s, y.median_jct_s) && sameBits(x.p99_jct_s, y.p99_jct_s) &&
      sameBits(x.makespan_s, y.makespan_s) && sameBits(x.avg_wait_s, y.avg_wait_s);
  if (!aggregates_same || a.point != b.point || a.status != b.status || a.jobs != b.jobs ||
      a.skipped != b.skipped || a.events != b.events || a.error != b.error ||
      a.per_job.size() != b.per_job.size())
    return false;
  for (std::size_t i = 0; i < a.per_job.size(); ++i) {
    const JobRow &p = a.per_job[i], &q = b.per_job[i];
    if (p.job_id != q.job_id || p.num_gpus != q.num_gpus || p.status != q.status ||
        !sameBits(p.submit_s, q.submit_s) || !sameBits(p.start_s, q.start_s) ||
        !sameBits(p.end_s, q.end_s) || !sameBits(p.wait_s, q.wait_s) ||
        !sameBits(p.training_s, q.training_s) || !sameBits(p.jct_s, q.jct_s))
      return false;
  }
  return true;
}

}  // namespace mosim::sweep
