// Fast-forward for phase-level models (SimulationConfig::fast_forward_tolerance > 0).
//
// Jobs interact only through the servers they share, and only where the contention model says the
// jobs placed there can congest each other (ContentionModel::canCongest); a job with neither
// network time nor network demand interacts with nobody. The running jobs therefore fall into
// independent groups: the connected components of that job–server graph. Between the events that
// change a group (a placement, start or completion on one of its servers):
//   - a job alone in its group has a fixed iteration time, T_comp + T_net * S, known exactly;
//   - a larger group's compute and communication phases often lock into a periodic pattern. Its
//     leader (the member with the lowest index) records every member's position at each of its own
//     iteration starts; when the group's position has recurred twice with the same period, within
//     the tolerance (a fraction of each member's solo iteration time), each member's iteration time
//     is known as period / iterations per period;
//   - a group that does not lock is measured over two long windows (kLongWindow iterations of its
//     slowest member, whole iterations of each member): when every member's mean iteration time
//     agrees between them within the tolerance, it is used;
//   - in a large group (more than SimulationConfig::fast_forward_group jobs, typically one
//     component spanning a busy cluster) the whole group never settles at once, so each job is
//     measured on its own ("local" mode): when two windows of kLocalWindow of its own iterations
//     agree, it runs at that iteration time and shows its neighbours its time-averaged demand (its
//     rates times the fraction of the time it communicates). This is a mean-field approximation of
//     the on/off phases; only jobs on the servers an event touches resume. When a large group
//     shrinks to a small one, its members still steady in local mode rejoin it.
// The group then leaves phase-by-phase simulation and runs at those iteration times, with no
// events, until a placement, start or completion touches one of its servers, or a member comes
// within kCompletionMargin iterations of its end (its last iterations and its release are then
// simulated phase by phase). On resuming, each member gets the whole iterations it made, and is put
// back in the phase it would be in: mid-compute, or mid-communication with the progress its mean
// slowdown gives. A small group that never settles (quasi-periodic patterns) is simulated exactly.
//
// Accuracy (tests/unit/test_fast_forward.cpp, experiments/performance/README.md): on the artifact's
// configurations every aggregate stays within 0.5% of the exact mode; on busy 500-job Philly-like
// traces on 256 GPUs, where no group exceeds the default limit, within about 1% (2% for P99 JCT),
// about the exact model's own spread under 1 us shifts of the submit times. The local mode is what
// makes 100,000 jobs on 2,048 GPUs feasible, but it is the approximate part: forced on those
// 500-job traces (a limit of 16), it moves aggregates by 3-36%.
#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/engine_impl.hpp"

namespace mosim::detail {
namespace {

constexpr std::int64_t kCompletionMargin = 3;  // iterations simulated exactly before an end
constexpr std::uint32_t kLocalGroup = ~std::uint32_t{0};  // steady_group of a local steady job
constexpr std::size_t kSnapshotsKept = 64;       // how many leader iterations a period may span
constexpr std::int64_t kLongWindow = 25;         // iterations of every member in a long window
constexpr std::int64_t kLocalWindow = 3;         // iterations of a job measured on its own

}  // namespace

/// The jobs that can interact with the seeds, seeds included: connected to them through servers
/// where the contention model says jobs can congest each other. Inert jobs join no group. The
/// search stops once it has found more than `limit` jobs (enough to know a group is large).
std::vector<JobIndex> Engine::groupOf(const std::vector<JobIndex>& seeds, std::size_t limit) {
  const std::uint64_t visit = ++visit_count_;
  std::vector<JobIndex> members;
  for (JobIndex j : seeds) {
    if (job_visited_[j] == visit) continue;
    job_visited_[j] = visit;
    members.push_back(j);
  }
  for (std::size_t i = 0; i < members.size() && members.size() <= limit; ++i) {
    if (inert(members[i])) continue;
    for (const auto& share : network_.shares(members[i])) {
      if (server_visited_[share.server] == visit) continue;
      server_visited_[share.server] = visit;
      if (!model_->canCongest(network_, share.server)) continue;
      for (JobIndex k : network_.jobsOn(share.server)) {
        if (job_visited_[k] == visit || inert(k)) continue;
        job_visited_[k] = visit;
        members.push_back(k);
      }
    }
  }
  return members;
}

/// Something changes on these servers: the groups there resume phase-by-phase simulation (if
/// steady) and look at themselves afresh. A job in local mode is affected only on `local_servers`:
/// where jobs can congest each other, for a start or a completion (a loading job demands nothing).
/// After a completion, every job in reach may be in a smaller group than it was.
void Engine::touchServers(const Allocation& servers, double now, const Allocation& local_servers,
                          bool completion) {
  const std::uint64_t touch = ++touch_count_;
  std::vector<JobIndex> seeds;
  for (ServerIndex s : servers)
    for (JobIndex k : network_.jobsOn(s)) seeds.push_back(k);
  for (ServerIndex s : local_servers)
    for (JobIndex k : network_.jobsOn(s)) state_[k].touched = touch;
  for (JobIndex k : groupOf(seeds)) {
    JobState& job = state_[k];
    job.group_may_have_shrunk |= completion;
    if (job.local && job.touched != touch) continue;
    if (job.phase == Phase::Steady) resume(k, now);
    job.group_fresh = true;
    job.tracker.reset();
  }
}

/// The job's servers where the jobs placed can congest each other.
Allocation Engine::congestibleServers(const Allocation& servers) const {
  Allocation congestible;
  for (ServerIndex s : servers)
    if (model_->canCongest(network_, s)) congestible.push_back(s);
  return congestible;
}

/// At the start of each of a job's iterations.
void Engine::noteIterationBoundary(JobIndex j, double now) {
  JobState& job = state_[j];
  if (job.group_fresh) {
    job.group_fresh = false;
    // Until a completion touches its group, a job in a large group is in one still (placements
    // and starts only join groups): looking for the group would tell nothing new.
    const bool still_large = job.group_was_large && !job.group_may_have_shrunk;
    job.group_may_have_shrunk = false;
    // (Checked where assertions are on, as in the sanitizer build of the tests.)
    assert(!still_large || groupOf({j}, config_.fast_forward_group).size() > config_.fast_forward_group);
    std::vector<JobIndex> members;
    if (!still_large) {
      members = groupOf({j}, config_.fast_forward_group);
      job.group_was_large = members.size() > config_.fast_forward_group;
      if (members.size() == 1) {
        if (!groupCanJump(members)) return;
        // Alone, its factor cannot change until its servers do: the iteration time is exact.
        network_.setDemanding(j, true);
        const double slowdown = model_->slowdown(network_, j);
        network_.setDemanding(j, false);
        goSteady(members, {profile(j).t_comp_s + profile(j).t_net_s * slowdown});
        return;
      }
      job.local = job.group_was_large;
      // A small group is measured as a whole, so members still running on their own since it was
      // part of a larger one (local mode) rejoin phase-by-phase simulation: otherwise it could
      // never jump, and would be simulated phase by phase until its next change.
      if (!job.local)
        for (JobIndex k : members)
          if (state_[k].phase == Phase::Steady && state_[k].steady_group == kLocalGroup)
            resume(k, now);
    }
    restartWindow(j);
    // After an event nearby, a job that was steady compares its first window with the iteration
    // time it had: if the event did not change its pace, one window is enough.
    if (job.local && job.steady_iteration_s > 0) job.window_mean_s = job.steady_iteration_s;
    if (!job.local && j == *std::min_element(members.begin(), members.end())) {
      job.tracker = std::make_unique<PeriodTracker>();
      job.tracker->members = members;
    }
  }
  if (job.local)
    lookForLocalSteadiness(j, now);
  else if (job.tracker)
    lookForPeriod(j, now);
}

void Engine::restartWindow(JobIndex j) {
  JobState& job = state_[j];
  job.window_start_s = job.iteration_start_s;
  job.window_start_iterations = job.iterations_run;
  job.window_mean_s = NAN;
}

/// Local mode: two consecutive windows of kLocalWindow iterations of the job itself that agree
/// within the tolerance make it steady on its own, at the mean of the later one.
void Engine::lookForLocalSteadiness(JobIndex j, double now) {
  JobState& job = state_[j];
  const std::int64_t done = job.iterations_run - job.window_start_iterations;
  if (done < kLocalWindow) return;
  const double mean_s = (now - job.window_start_s) / static_cast<double>(done);
  const bool agree = std::abs(mean_s - job.window_mean_s) <= config_.fast_forward_tolerance * mean_s;
  job.window_mean_s = mean_s;
  job.window_start_s = now;
  job.window_start_iterations = job.iterations_run;
  if (!agree || !groupCanJump({j})) return;
  goSteady({j}, {mean_s});
  steady_groups_[state_[j].steady_group].clear();
  free_groups_.push_back(state_[j].steady_group);
  // Its neighbours now see its time-averaged demand instead of its phases.
  const Profile& p = profile(j);
  network_.setDemandWeight(j, std::clamp((mean_s - p.t_comp_s) / mean_s, 0.0, 1.0));
  state_[j].steady_group = kLocalGroup;
  updatePhaseLevel(now);
}

/// A group can jump when every member trains phase by phase and is far enough from its end.
bool Engine::groupCanJump(const std::vector<JobIndex>& members) const {
  for (JobIndex k : members) {
    const JobState& job = state_[k];
    if (job.phase != Phase::Compute && job.phase != Phase::Comm) return false;
    const std::int64_t remaining =
        static_cast<std::int64_t>(jobs_[k].iterations) - job.iterations_run;
    if (remaining <= 2 * kCompletionMargin) return false;
  }
  return true;
}

std::vector<MemberSnapshot> Engine::snapshot(const std::vector<JobIndex>& members,
                                             double now) const {
  std::vector<MemberSnapshot> positions;
  positions.reserve(members.size());
  for (JobIndex k : members) {
    const JobState& job = state_[k];
    positions.push_back(MemberSnapshot{job.phase, now - job.iteration_start_s,
                                       job.phase == Phase::Comm ? communicating_.progress_s(k) : 0,
                                       job.iterations_run, job.iteration_start_s});
  }
  return positions;
}

/// Whether two snapshots show the group in the same position, each member within the tolerance
/// of its solo iteration time.
bool Engine::samePosition(const std::vector<MemberSnapshot>& a, const std::vector<MemberSnapshot>& b,
                          const std::vector<JobIndex>& members) const {
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Profile& p = profile(members[i]);
    const double tolerance_s = config_.fast_forward_tolerance * (p.t_comp_s + p.t_net_s);
    if (a[i].phase != b[i].phase || a[i].iterations_run == b[i].iterations_run ||
        std::abs(a[i].into_iteration_s - b[i].into_iteration_s) > tolerance_s ||
        std::abs(a[i].comm_progress_s - b[i].comm_progress_s) > tolerance_s)
      return false;
  }
  return true;
}

/// The leader records the group's position; a position seen one period ago and two periods ago,
/// with the same iterations per period, makes the group jump.
void Engine::lookForPeriod(JobIndex leader, double now) {
  PeriodTracker& tracker = *state_[leader].tracker;
  if (!groupCanJump(tracker.members)) return;
  auto current = snapshot(tracker.members, now);
  const std::size_t n = tracker.snapshots.size();
  for (std::size_t lag = 1; 2 * lag <= n; ++lag) {
    const auto& one_ago = tracker.snapshots[n - lag];
    const auto& two_ago = tracker.snapshots[n - 2 * lag];
    if (!samePosition(current, one_ago, tracker.members) ||
        !samePosition(one_ago, two_ago, tracker.members))
      continue;
    bool same_counts = true;
    for (std::size_t i = 0; i < current.size(); ++i)
      same_counts &= current[i].iterations_run - one_ago[i].iterations_run ==
                     one_ago[i].iterations_run - two_ago[i].iterations_run;
    if (!same_counts) continue;
    const double period_s = now - tracker.times_s[n - lag];
    std::vector<double> iteration_s;
    for (std::size_t i = 0; i < current.size(); ++i)
      iteration_s.push_back(period_s /
                            static_cast<double>(current[i].iterations_run - one_ago[i].iterations_run));
    const auto members = tracker.members;  // goSteady drops the leader's tracker
    goSteady(members, iteration_s);
    return;
  }
  std::vector<double> iteration_s;
  if (longWindowsAgree(tracker, current, iteration_s)) {
    const auto members = tracker.members;
    goSteady(members, iteration_s);
    return;
  }
  if (n == kSnapshotsKept) {
    tracker.snapshots.erase(tracker.snapshots.begin());
    tracker.times_s.erase(tracker.times_s.begin());
  }
  tracker.snapshots.push_back(std::move(current));
  tracker.times_s.push_back(now);
}

/// Long windows, for groups whose pattern does not repeat exactly: each member's mean over whole
/// iterations in the window [start, middle] against [middle, now], once every member has run
/// kLongWindow iterations in the second one.
bool Engine::longWindowsAgree(PeriodTracker& tracker, const std::vector<MemberSnapshot>& current,
                              std::vector<double>& iteration_s) {
  if (tracker.window_start.empty()) {
    tracker.window_start = current;
    return false;
  }
  const auto ran = [](const MemberSnapshot& from, const MemberSnapshot& to) {
    return to.iterations_run - from.iterations_run;
  };
  const auto mean = [&](const MemberSnapshot& from, const MemberSnapshot& to) {
    return (to.iteration_start_s - from.iteration_start_s) / static_cast<double>(ran(from, to));
  };
  const auto& since = tracker.window_middle.empty() ? tracker.window_start : tracker.window_middle;
  for (std::size_t i = 0; i < current.size(); ++i)
    if (ran(since[i], current[i]) < kLongWindow) return false;
  if (tracker.window_middle.empty()) {
    tracker.window_middle = current;
    return false;
  }
  bool agree = true;
  for (std::size_t i = 0; i < current.size() && agree; ++i) {
    const double first = mean(tracker.window_start[i], tracker.window_middle[i]);
    const double second = mean(tracker.window_middle[i], current[i]);
    agree = std::abs(first - second) <= config_.fast_forward_tolerance * second;
  }
  if (agree) {
    for (std::size_t i = 0; i < current.size(); ++i)
      iteration_s.push_back(mean(tracker.window_start[i], current[i]));
    return true;
  }
  tracker.window_start = std::move(tracker.window_middle);
  tracker.window_middle = current;
  return false;
}

/// The group leaves phase-by-phase simulation: from the start of its current iteration each member
/// runs whole iterations of the given length, until a member nears its end.
void Engine::goSteady(const std::vector<JobIndex>& members, const std::vector<double>& iteration_s) {
  std::uint32_t group = 0;
  if (free_groups_.empty()) {
    group = static_cast<std::uint32_t>(steady_groups_.size());
    steady_groups_.emplace_back();
  } else {
    group = free_groups_.back();
    free_groups_.pop_back();
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    const JobIndex k = members[i];
    JobState& job = state_[k];
    if (job.phase == Phase::Comm) {
      communicating_.erase(k);
      network_.setDemanding(k, false);
    }
    job.phase = Phase::Steady;
    job.steady_group = group;
    job.steady_iteration_s = iteration_s[i];
    job.tracker.reset();
    const std::int64_t remaining =
        static_cast<std::int64_t>(jobs_[k].iterations) - job.iterations_run;
    events_.schedule(k,
                     job.iteration_start_s +
                         static_cast<double>(remaining - kCompletionMargin) * job.steady_iteration_s,
                     kSteadyEnd);
  }
  steady_groups_[group] = members;
  ++fast_forwards_;
}

/// Puts a steady job back to phase-by-phase simulation at `now`: the whole iterations it made at
/// its iteration time, then mid-compute or mid-communication where that time puts it.
void Engine::resumeMember(JobIndex k, double now) {
  JobState& job = state_[k];
  const Profile& p = profile(k);
  const double iteration_s = job.steady_iteration_s;
  const auto whole =
      static_cast<std::int64_t>(std::floor((now - job.iteration_start_s) / iteration_s));
  job.iterations_run += whole;
  job.compute_s += static_cast<double>(whole) * p.t_comp_s;
  job.comm_s += static_cast<double>(whole) * (iteration_s - p.t_comp_s);
  job.iteration_start_s += static_cast<double>(whole) * iteration_s;
  job.group_fresh = true;
  network_.setDemanding(k, false);  // a local steady job showed its average demand
  const double comm_start_s = job.iteration_start_s + p.t_comp_s;
  if (now < comm_start_s || p.t_net_s <= 0) {
    job.phase = Phase::Compute;
    job.phase_start_s = job.iteration_start_s;
    scheduleCompEnd(k, comm_start_s);
  } else {
    // Mid-communication: the progress its mean slowdown gives; the model then takes over.
    const double mean_slowdown = std::max(1.0, (iteration_s - p.t_comp_s) / p.t_net_s);
    const double progress_s = std::clamp((now - comm_start_s) / mean_slowdown, 0.0, p.t_net_s);
    network_.setDemanding(k, true);
    enterComm(k, now, comm_start_s, progress_s, mean_slowdown);
  }
}

/// Resumes a steady job, and with it the rest of its group.
void Engine::resume(JobIndex k, double now) {
  const std::uint32_t group = state_[k].steady_group;
  std::vector<JobIndex> members;
  if (group == kLocalGroup) {
    members.push_back(k);
  } else {
    members.swap(steady_groups_[group]);
    free_groups_.push_back(group);
  }
  for (JobIndex member : members) resumeMember(member, now);
  updatePhaseLevel(now);
  // A member resumed mid-communication runs at its mean slowdown until the model's factor takes
  // over, now: the update above reaches it only if its servers' factors changed.
  for (JobIndex member : members) reconsiderPhaseLevel(member, now);
}

}  // namespace mosim::detail
