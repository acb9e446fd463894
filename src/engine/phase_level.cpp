// Progress under phase-level models (mosim; mosim-reference.md §6.2): every iteration is a compute
// phase followed by a communication phase, each ending in its own event. Communication advances in
// "uncontended seconds": over a segment of constant slowdown S, progress grows by duration / S.
#include <algorithm>

#include "engine/engine_impl.hpp"

namespace mosim::detail {

void Engine::startPhaseLevel(JobIndex j, double now) {
  JobState& job = state_[j];
  job.phase = Phase::Compute;
  job.phase_start_s = now;
  job.iteration_start_s = now;
  scheduleCompEnd(j, now + profile(j).t_comp_s);
  if (fastForward()) {
    touchServers(job.allocation, now, congestibleServers(job.allocation));
    noteIterationBoundary(j, now);
  }
}

/// Enters (or, after a fast-forward, resumes) a communication phase that began at comm_start_s,
/// with progress_s uncontended seconds already done, at the given slowdown.
void Engine::enterComm(JobIndex j, double now, double comm_start_s, double progress_s,
                       double slowdown) {
  JobState& job = state_[j];
  job.phase = Phase::Comm;
  job.phase_start_s = comm_start_s;
  const double end_s = communicating_.insert(j, now, profile(j).t_net_s, progress_s, slowdown);
  if (phaseEndsQueued()) events_.schedule(j, end_s, kIterCommEnd);
}

void Engine::scheduleCompEnd(JobIndex j, double end_s) {
  if (phaseEndsQueued())
    events_.schedule(j, end_s, kIterCompEnd);
  else
    computing_.insert(j, end_s);
}

void Engine::onIterCompEnd(JobIndex j, double now) {
  JobState& job = state_[j];
  job.compute_s += now - job.phase_start_s;
  network_.setDemanding(j, true);
  enterComm(j, now, now, 0, modelSlowdown(j));
  updatePhaseLevel(now);
}

void Engine::onIterCommEnd(JobIndex j, double now) {
  JobState& job = state_[j];
  job.comm_s += now - job.phase_start_s;
  ++job.iterations_run;
  network_.setDemanding(j, false);
  communicating_.erase(j);
  // A job runs max(1, floor(N_iter)) iterations (§6.2, §10.7).
  if (job.iterations_run >= static_cast<std::int64_t>(jobs_[j].iterations)) {
    job.phase = Phase::Finishing;
    events_.schedule(j, now, kComplete);  // releases and updates everyone next
    return;
  }
  job.phase = Phase::Compute;
  job.phase_start_s = now;
  job.iteration_start_s = now;
  scheduleCompEnd(j, now + profile(j).t_comp_s);
  updatePhaseLevel(now);
  if (fastForward()) noteIterationBoundary(j, now);
}

/// Closes the job's segment at the slowdown in force and reschedules the rest of its
/// communication at `slowdown`, the model's current factor.
void Engine::closeSegment(JobIndex j, double now, double slowdown) {
  const double end_s = communicating_.closeSegment(j, now, slowdown);
  if (phaseEndsQueued()) events_.schedule(j, end_s, kIterCommEnd);
}

void Engine::updatePhaseLevel(double now) {
  changed_servers_ = network_.takeChangedServers();
  if (!fastForward()) {
    // The reference closes every communicating job's segment at every update, even when its
    // factor is unchanged. The dynamics amplify last-bit differences in event times (one ulp
    // moves the aggregates by ~1e-4), so bit-compatibility needs this same arithmetic. Every
    // communicating job's factor is asked for at once, and not at all when no server changed
    // since the last update (each one's was set then, or since, at the same network state).
    const bool factors_may_change = !changed_servers_.empty() || config_.full_recompute;
    // A second update at the same time with the same factors changes no bit: each progress gets
    // (now - now) / S = +0, and each end is recomputed from the same operands (a job that entered
    // its communication since had its end computed from them too).
    if (now == last_exact_update_s_ && !factors_may_change) return;
    last_exact_update_s_ = now;
    if (factors_may_change)
      model_->slowdowns(network_, communicating_.jobs(), communicating_.nextSlowdowns());
    communicating_.closeAllSegments(now);
    if (phaseEndsQueued())
      for (JobIndex j : communicating_) events_.schedule(j, communicating_.end_s(j), kIterCommEnd);
    return;
  }
  // Fast-forward gives up bit-compatibility anyway: only jobs whose factor changed are touched.
  if (config_.full_recompute) {
    touched_jobs_.assign(communicating_.begin(), communicating_.end());
    for (JobIndex j : touched_jobs_) reconsiderPhaseLevel(j, now);
  } else {
    for (JobIndex j : jobsOnChangedServers()) reconsiderPhaseLevel(j, now);
  }
}

/// Fast-forward: a communicating job moves to the model's factor if it is not at it already.
void Engine::reconsiderPhaseLevel(JobIndex j, double now) {
  if (state_[j].phase != Phase::Comm) return;
  const double slowdown = modelSlowdown(j);
  if (slowdown != communicating_.slowdown(j)) closeSegment(j, now, slowdown);
}

}  // namespace mosim::detail
