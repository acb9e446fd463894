// Progress under job-level models (none, fixed, paper; mosim-reference.md §6.1, the paper's
// Eq. 2–5): fractional iterations at tau = T_comp + T_net * S, with S recomputed only when a job
// starts or completes.
#include <algorithm>

#include "engine/engine_impl.hpp"

namespace mosim::detail {

/// eff(x) with overlap 0: an iteration is compute plus (slowed) networking.
double Engine::iterationTime(JobIndex j, double slowdown) const {
  return profile(j).t_comp_s + profile(j).t_net_s * slowdown;
}

/// The job demands bandwidth from now on; its completion is first projected at S = 1, then every
/// affected job is updated (the new one included).
void Engine::startJobLevel(JobIndex j, double now) {
  JobState& job = state_[j];
  running_.insert(j);
  job.phase = Phase::Training;
  job.slowdown = 1;
  job.last_change_s = now;
  network_.setDemanding(j, true);
  events_.schedule(j, now + jobs_[j].iterations * iterationTime(j, 1), kComplete);
  updateJobLevel(now);
  reconsiderJobLevel(j, now);  // its own S = 1 was provisional, even if no total changed
}

/// Books the time since the last change at the slowdown then in force: iterations done, and the
/// split between compute and communication in the ratio T_comp : T_net * S.
void Engine::bookJobLevel(JobIndex j, double now) {
  JobState& job = state_[j];
  const double elapsed_s = now - job.last_change_s;
  const double iteration_s = iterationTime(j, job.slowdown);
  job.iterations_done =
      std::min(jobs_[j].iterations, job.iterations_done + elapsed_s / iteration_s);
  job.compute_s += elapsed_s * profile(j).t_comp_s / iteration_s;
  job.comm_s += elapsed_s * profile(j).t_net_s * job.slowdown / iteration_s;
  job.last_change_s = now;
}

/// A training job whose factor changed has its progress booked and its completion moved. (The
/// artifact rebooks every job at every update; with an unchanged factor that gives the same
/// times, so unchanged jobs are left alone.)
void Engine::reconsiderJobLevel(JobIndex j, double now) {
  JobState& job = state_[j];
  if (job.phase != Phase::Training) return;
  const double slowdown = modelSlowdown(j);
  if (slowdown == job.slowdown) return;
  const double remaining =
      jobs_[j].iterations -
      std::min(jobs_[j].iterations,
               job.iterations_done + (now - job.last_change_s) / iterationTime(j, job.slowdown));
  if (remaining <= 0) return;  // completes at this instant; its Complete is already due
  bookJobLevel(j, now);
  job.slowdown = slowdown;
  events_.schedule(j, now + remaining * iterationTime(j, slowdown), kComplete);
}

/// After a start or a completion: only jobs on servers that changed since the last update can
/// have a new factor (a model's factor depends on its job's servers alone).
void Engine::updateJobLevel(double now) {
  changed_servers_ = network_.takeChangedServers();
  if (config_.full_recompute) {
    for (JobIndex j : running_) reconsiderJobLevel(j, now);
    return;
  }
  for (JobIndex j : jobsOnChangedServers()) reconsiderJobLevel(j, now);
}

}  // namespace mosim::detail
