// Internal to the engine: its state and the Engine class, whose members are defined in
//   engine.cpp        the event loop, the queue, placement, start and completion, results
//   job_level.cpp     progress of job-level models (none, fixed, paper; mosim-reference.md §6.1)
//   phase_level.cpp   progress of phase-level models (mosim; §6.2)
//   fast_forward.cpp  the optional fast-forward of steady groups of phase-level jobs
// and keeps its pending events in event_queue.hpp, and the exact phase-level mode's phase ends in
// communicating_jobs.hpp and phase_ends.hpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "engine/communicating_jobs.hpp"
#include "engine/event_queue.hpp"
#include "mosim/engine.hpp"
#include "mosim/placement.hpp"
#include "mosim/queue.hpp"

namespace mosim::detail {

/// Event priorities at equal time: lower goes first (the artifact's order).
enum Priority : std::uint8_t {
  kComplete = 0,
  kIterCommEnd = 1,
  kIterCompEnd = 2,
  kStart = 3,
  kSchedulePass = 4,  // the artifact's Arrive: the queue is looked at after everything else
  kSteadyEnd = 5,     // fast-forward: a steady group goes back to phase-by-phase simulation
};

enum class Phase : std::uint8_t {
  Queued,
  Loading,    // placed, holding its GPUs, not yet training
  Training,   // job-level models: progress is booked between starts and completions
  Compute,    // phase-level models: in an iteration's compute phase
  Comm,       //                     in an iteration's communication phase
  Steady,     //                     fast-forwarded at a measured iteration time
  Finishing,  //                     last iteration done; Complete follows at the same instant
  Finished,
  Unplaceable,
};

/// A group member's position, as the group's leader records it at each of its iteration starts.
struct MemberSnapshot {
  Phase phase;
  double into_iteration_s;  // time since the member's current iteration began
  double comm_progress_s;
  std::int64_t iterations_run;
  double iteration_start_s;  // when the member's current iteration began
};

/// What a group leader keeps to find its group's steady pattern (fast_forward.cpp): recent
/// snapshots, for an exact period, and the starts of two long windows, for mean iteration times.
struct PeriodTracker {
  std::vector<JobIndex> members;
  std::vector<double> times_s;
  std::vector<std::vector<MemberSnapshot>> snapshots;  // snapshots[i] taken at times_s[i]
  std::vector<MemberSnapshot> window_start, window_middle;
};

struct JobState {
  // First, together: what an update reads of every job on a changed server.
  Phase phase = Phase::Queued;
  double slowdown = 1;  // job-level models: S_J in force since the last change
  // The model's latest answer for this job and the network stamp it was computed at.
  double model_slowdown = 1;
  std::uint64_t model_stamp = 0;
  // The latest change stamp of a server it was last reached through by an update; a stamp of one
  // of its own servers, so a value above model_stamp proves the cached factor out of date.
  std::uint64_t reached_change = 0;

  Allocation allocation;
  double start_s = NAN;  // placement time
  double end_s = NAN;
  double compute_s = 0;
  double comm_s = 0;

  // Job-level progress (§6.1): fractional iterations, booked whenever the slowdown changes.
  double iterations_done = 0;
  double last_change_s = 0;

  // Phase-level progress (§6.2): whole iterations; the progress of a communication phase is kept
  // in CommunicatingJobs.
  std::int64_t iterations_run = 0;
  double iteration_start_s = 0;
  double phase_start_s = 0;

  // Fast-forward (fast_forward.cpp).
  bool group_fresh = true;       // its group changed since it last looked at it
  bool local = false;            // in a large group: measured and jumped on its own
  // Its group had more than the limit when it last looked. Unlike `local`, which a job found
  // alone keeps from before (and touches honour), false then.
  bool group_was_large = false;
  bool group_may_have_shrunk = false;  // a completion touched its group since then
  std::uint64_t touched = 0;     // stamp of the last touch of its servers
  std::int64_t window_start_iterations = 0;  // local mode: the current measurement window
  double window_start_s = 0;
  double window_mean_s = NAN;    // local mode: mean iteration time over the previous window
  std::uint32_t steady_group = 0;
  double steady_iteration_s = 0;  // while steady: the job's mean iteration time
  std::unique_ptr<PeriodTracker> tracker;  // while it leads a group that is looking for a period
};

class Engine {
 public:
  Engine(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config);
  SimulationResult run(const ProgressCallback& progress);

 private:
  // engine.cpp
  PlacementRequest request(JobIndex j) const;
  const Profile& profile(JobIndex j) const { return profiles_[j]; }
  void profileForAllocation(JobIndex j, const Allocation& allocation);
  void requestPass(double time_s);
  void onSchedulePass(double now);
  bool tryStart(JobIndex j, double now);
  void onStart(JobIndex j, double now);
  void onComplete(JobIndex j, double now);
  double modelSlowdown(JobIndex j);
  bool modelOutOfDate(JobIndex j) const;
  bool factorAskedFor(JobIndex j) const;
  /// Jobs on changed_servers_ whose factor is asked for, each once.
  const std::vector<JobIndex>& jobsOnChangedServers();
  JobResult resultOf(JobIndex j) const;

  // job_level.cpp
  double iterationTime(JobIndex j, double slowdown) const;
  void startJobLevel(JobIndex j, double now);
  void bookJobLevel(JobIndex j, double now);
  void reconsiderJobLevel(JobIndex j, double now);
  void updateJobLevel(double now);

  // phase_level.cpp
  void startPhaseLevel(JobIndex j, double now);
  void onIterCompEnd(JobIndex j, double now);
  void onIterCommEnd(JobIndex j, double now);
  void enterComm(JobIndex j, double now, double comm_start_s, double progress_s, double slowdown);
  void closeSegment(JobIndex j, double now, double slowdown);
  /// The exact phase-level mode keeps the ends of phases out of the event queue (phase_ends.hpp).
  bool phaseEndsQueued() const {
    return !phase_level_ || fastForward() || config_.queue_phase_ends;
  }
  void scheduleCompEnd(JobIndex j, double end_s);
  bool nextEvent(EventQueue::Event& event);
  void updatePhaseLevel(double now);
  void reconsiderPhaseLevel(JobIndex j, double now);

  // fast_forward.cpp
  bool fastForward() const { return phase_level_ && config_.fast_forward_tolerance > 0; }
  void noteIterationBoundary(JobIndex j, double now);
  void touchServers(const Allocation& servers, double now, const Allocation& local_servers,
                    bool completion = false);
  Allocation congestibleServers(const Allocation& servers) const;
  /// A job whose iteration time cannot change (no network time) and that demands no bandwidth
  /// neither slows nor is slowed by anybody. Kept apart from the profiles, densely: group searches
  /// ask it of every job they reach.
  bool inert(JobIndex j) const { return inert_[j]; }
  void setProfile(JobIndex j, const Profile& profile);
  std::vector<JobIndex> groupOf(const std::vector<JobIndex>& seeds,
                                std::size_t limit = ~std::size_t{0});
  bool groupCanJump(const std::vector<JobIndex>& members) const;
  std::vector<MemberSnapshot> snapshot(const std::vector<JobIndex>& members, double now) const;
  bool samePosition(const std::vector<MemberSnapshot>& a, const std::vector<MemberSnapshot>& b,
                    const std::vector<JobIndex>& members) const;
  void lookForPeriod(JobIndex leader, double now);
  void lookForLocalSteadiness(JobIndex j, double now);
  void restartWindow(JobIndex j);
  void resumeMember(JobIndex k, double now);
  void resume(JobIndex k, double now);
  bool longWindowsAgree(PeriodTracker& tracker, const std::vector<MemberSnapshot>& current,
                        std::vector<double>& iteration_s);
  void goSteady(const std::vector<JobIndex>& members, const std::vector<double>& iteration_s);


  const std::vector<ProfiledJob> jobs_;  // sorted by id: JobIndex is the position here
  std::vector<Profile> profiles_;        // each job's profile, for the GPUs it was placed on
  std::vector<std::uint8_t> inert_;      // by job: see inert()
  const SimulationConfig& config_;
  std::unique_ptr<PlacementPolicy> placement_;
  std::unique_ptr<QueuePolicy> queue_;
  std::unique_ptr<ContentionModel> model_;
  const bool phase_level_;

  ClusterState cluster_;
  NetworkState network_;
  EventQueue events_;
  const EventQueue::Slot pass_slot_;  // one slot past the jobs
  std::vector<JobState> state_;

  std::vector<JobIndex> arrival_order_;  // placeable jobs by (submit, id)
  std::size_t next_arrival_ = 0;
  std::deque<JobIndex> waiting_;         // arrived, not yet placed, in queue order
  // Each job's update is independent of the others', so the order of these sets does not matter.
  JobSet running_;                       // job level: started and not completed
  CommunicatingJobs communicating_;      // phase level: in a communication phase
  ComputingJobs computing_;              // exact phase level: in a compute phase
  std::vector<std::string> warnings_;

  // Scratch for updates: changed servers and the jobs on them.
  std::uint64_t visit_count_ = 0;
  double last_exact_update_s_ = NAN;  // exact phase-level mode: the time of the latest update
  std::span<const ServerIndex> changed_servers_;  // from the network, until it next changes
  std::vector<JobIndex> touched_jobs_;
  // Visit stamps, by job and by server (dense: updates read them for every job they reach): a
  // job or server whose stamp is the current visit's was reached already.
  std::vector<std::uint64_t> job_visited_;
  std::vector<std::uint64_t> server_visited_;

  // Fast-forward: members of each steady group (ids of finished groups are reused).
  std::vector<std::vector<JobIndex>> steady_groups_;
  std::vector<std::uint32_t> free_groups_;
  std::uint64_t fast_forwards_ = 0;
  std::uint64_t touch_count_ = 0;
};

}  // namespace mosim::detail
