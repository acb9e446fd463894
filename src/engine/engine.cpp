// The event engine, rule for rule as the artifact's (mosim-reference.md §4–§6), with ties broken by
// (time, event priority, job id) so that every run is reproducible.
#include "mosim/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/event_queue.hpp"
#include "mosim/placement.hpp"
#include "mosim/queue.hpp"

namespace mosim {
namespace {

/// Event priorities at equal time: lower goes first (the artifact's order).
enum Priority : std::uint8_t {
  kComplete = 0,
  kIterCommEnd = 1,
  kIterCompEnd = 2,
  kStart = 3,
  kSchedulePass = 4,  // the artifact's Arrive: the queue is looked at after everything else
};

enum class Phase : std::uint8_t {
  Queued,
  Loading,    // placed, holding its GPUs, not yet training
  Training,   // job-level models: progress is booked between starts and completions
  Compute,    // phase-level models: in an iteration's compute phase
  Comm,       //                     in an iteration's communication phase
  Finishing,  //                     last iteration done; Complete follows at the same instant
  Finished,
  Unplaceable,
};

struct JobState {
  Phase phase = Phase::Queued;
  Allocation allocation;
  double start_s = NAN;  // placement time
  double end_s = NAN;
  double compute_s = 0;
  double comm_s = 0;
  double slowdown = 1;  // S_J in force since the last change
  // The model's latest answer for this job and the network stamp it was computed at.
  double model_slowdown = 1;
  std::uint64_t model_stamp = 0;

  // Job-level progress (§6.1): fractional iterations, booked whenever the slowdown changes.
  double iterations_done = 0;
  double last_change_s = 0;

  // Phase-level progress (§6.2): whole iterations; the communication phase advances in
  // "uncontended seconds", segment by segment of constant slowdown.
  std::int64_t iterations_run = 0;
  double phase_start_s = 0;
  double comm_progress_s = 0;
  double segment_start_s = 0;
};

/// Jobs in no particular order, with constant-time insertion and removal.
class JobSet {
 public:
  explicit JobSet(std::size_t jobs) : position_(jobs, kAbsent) {}
  void insert(JobIndex j) {
    position_[j] = members_.size();
    members_.push_back(j);
  }
  void erase(JobIndex j) {
    const std::size_t at = position_[j];
    members_[at] = members_.back();
    position_[members_[at]] = at;
    members_.pop_back();
    position_[j] = kAbsent;
  }
  auto begin() const { return members_.begin(); }
  auto end() const { return members_.end(); }

 private:
  static constexpr std::size_t kAbsent = ~std::size_t{0};
  std::vector<JobIndex> members_;
  std::vector<std::size_t> position_;
};

class Engine {
 public:
  Engine(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config)
      : jobs_(sortedById(jobs)),
        config_(config),
        placement_(makePlacementPolicy(config.placement)),
        queue_(makeQueuePolicy(config.queue)),
        model_(makeContentionModel(config.contention, config.contention_params)),
        phase_level_(model_->granularity() == ContentionGranularity::Phase),
        cluster_(config_.cluster),
        network_(config_.cluster, jobs_.size(), config_.rate_unit_Bps),
        events_(jobs_.size() + 1),
        pass_slot_(static_cast<EventSlot>(jobs_.size())),
        state_(jobs_.size()),
        running_(jobs_.size()),
        communicating_(jobs_.size()) {
    checkIds();
    for (JobIndex j = 0; j < jobs_.size(); ++j) {
      if (fitsEmptyCluster(*placement_, config_.cluster, request(j))) {
        arrival_order_.push_back(j);
      } else {
        state_[j].phase = Phase::Unplaceable;
        warnings_.push_back(fmt::format(
            "job {} ({} GPUs) can never be placed on this cluster under {}; skipped",
            jobs_[j].job.id, jobs_[j].job.num_gpus, config_.placement));
      }
    }
    std::stable_sort(arrival_order_.begin(), arrival_order_.end(), [&](JobIndex a, JobIndex b) {
      return jobs_[a].job.submit_s < jobs_[b].job.submit_s;
    });
  }

  SimulationResult run(const ProgressCallback& progress) {
    const auto wall_start = std::chrono::steady_clock::now();
    if (!arrival_order_.empty()) requestPass(jobs_[arrival_order_.front()].job.submit_s);
    std::uint64_t events = 0;
    std::size_t finished = 0;
    while (!events_.empty()) {
      const auto event = events_.pop();
      ++events;
      const double now = event.time_s;
      if (event.slot == pass_slot_) {
        onSchedulePass(now);
        continue;
      }
      const JobIndex j = event.slot;
      switch (event.priority) {
        case kStart: onStart(j, now); break;
        case kIterCompEnd: onIterCompEnd(j, now); break;
        case kIterCommEnd: onIterCommEnd(j, now); break;
        case kComplete:
          onComplete(j, now);
          if (progress) progress(++finished, arrival_order_.size());
          break;
        default: throw std::logic_error("unknown event");
      }
    }
    if (next_arrival_ != arrival_order_.size() || !waiting_.empty())
      throw std::logic_error("simulation ended with jobs still queued");

    SimulationResult result;
    result.events = events;
    result.warnings = warnings_;
    for (JobIndex j = 0; j < jobs_.size(); ++j) result.jobs.push_back(resultOf(j));
    result.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return result;
  }

 private:
  using EventSlot = detail::EventQueue::Slot;

  static std::vector<ProfiledJob> sortedById(std::vector<ProfiledJob> jobs) {
    std::stable_sort(jobs.begin(), jobs.end(), [](const ProfiledJob& a, const ProfiledJob& b) {
      return a.job.id < b.job.id;
    });
    return jobs;
  }

  void checkIds() const {
    for (std::size_t i = 1; i < jobs_.size(); ++i)
      if (jobs_[i].job.id == jobs_[i - 1].job.id)
        throw std::invalid_argument(fmt::format("duplicate job id {}", jobs_[i].job.id));
  }

  PlacementRequest request(JobIndex j) const {
    return PlacementRequest{jobs_[j].job.num_gpus, jobs_[j].job.cpus_per_worker};
  }
  const Profile& profile(JobIndex j) const { return jobs_[j].profile; }

  // ---- Queue (§5.1) ---------------------------------------------------------------------------

  /// Asks for a scheduling pass at `time_s`, unless one is already due no later.
  void requestPass(double time_s) {
    if (events_.pending(pass_slot_) && events_.event(pass_slot_).time_s <= time_s) return;
    events_.schedule(pass_slot_, time_s, kSchedulePass);
  }

  /// Passes run after every other event of their instant: at each arrival, after each release and
  /// after each start. Jobs join the queue at their submit time, in (submit, id) order.
  void onSchedulePass(double now) {
    while (next_arrival_ < arrival_order_.size() &&
           jobs_[arrival_order_[next_arrival_]].job.submit_s <= now)
      waiting_.push_back(arrival_order_[next_arrival_++]);

    const auto started = queue_->pass(waiting_, [&](JobIndex j) { return tryStart(j, now); });
    if (!started.empty()) {
      std::erase_if(waiting_, [&](JobIndex j) { return state_[j].phase != Phase::Queued; });
      if (!waiting_.empty()) requestPass(now);
    }
    if (next_arrival_ < arrival_order_.size())
      requestPass(jobs_[arrival_order_[next_arrival_]].job.submit_s);
  }

  /// Places a job if the policy finds room: its GPUs are held from now, and it starts training
  /// after its loading time (§5.2 place_job). Placing does not change any contention factor.
  bool tryStart(JobIndex j, double now) {
    auto allocation = placement_->place(cluster_, request(j));
    if (!allocation) return false;
    cluster_.allocate(*allocation, jobs_[j].job.cpus_per_worker);
    network_.addJob(j, *allocation, profile(j).net_rate_Bps);
    JobState& job = state_[j];
    job.phase = Phase::Loading;
    job.allocation = std::move(*allocation);
    job.start_s = now;
    events_.schedule(j, now + profile(j).loading_s, kStart);
    return true;
  }

  // ---- Start and completion -------------------------------------------------------------------

  void onStart(JobIndex j, double now) {
    JobState& job = state_[j];
    if (phase_level_) {
      job.phase = Phase::Compute;
      job.phase_start_s = now;
      events_.schedule(j, now + profile(j).t_comp_s, kIterCompEnd);
      return;
    }
    // §6.1: the job demands bandwidth from now on; its completion is first projected at S = 1,
    // then every training job is updated (the new one included).
    running_.insert(j);
    job.phase = Phase::Training;
    job.slowdown = 1;
    job.last_change_s = now;
    network_.setDemanding(j, true);
    events_.schedule(j, now + jobs_[j].iterations * iterationTime(j, 1), kComplete);
    updateJobLevel(now);
  }

  void onComplete(JobIndex j, double now) {
    JobState& job = state_[j];
    if (!phase_level_) bookJobLevel(j, now);
    job.phase = Phase::Finished;
    job.end_s = now;
    if (!phase_level_) running_.erase(j);
    cluster_.release(job.allocation, jobs_[j].job.cpus_per_worker);
    network_.removeJob(j);
    if (phase_level_)
      updatePhaseLevel(now);
    else
      updateJobLevel(now);
    if (!waiting_.empty()) requestPass(now);
  }

  /// The contention model's factor for a job, recomputed only when one of its servers changed.
  double modelSlowdown(JobIndex j) {
    JobState& job = state_[j];
    if (job.model_stamp == 0 || network_.changedSince(j, job.model_stamp)) {
      job.model_slowdown = model_->slowdown(network_, j);
      job.model_stamp = network_.stamp();
    }
    return job.model_slowdown;
  }

  // ---- Job-level progress (§6.1): none, fixed, paper ------------------------------------------

  /// eff(x) with overlap 0: an iteration is compute plus (slowed) networking.
  double iterationTime(JobIndex j, double slowdown) const {
    return profile(j).t_comp_s + profile(j).t_net_s * slowdown;
  }

  /// Books the time since the last change at the slowdown then in force: iterations done, and
  /// the split between compute and communication in the ratio T_comp : T_net * S.
  void bookJobLevel(JobIndex j, double now) {
    JobState& job = state_[j];
    const double elapsed_s = now - job.last_change_s;
    const double iteration_s = iterationTime(j, job.slowdown);
    job.iterations_done =
        std::min(jobs_[j].iterations, job.iterations_done + elapsed_s / iteration_s);
    job.compute_s += elapsed_s * profile(j).t_comp_s / iteration_s;
    job.comm_s += elapsed_s * profile(j).t_net_s * job.slowdown / iteration_s;
    job.last_change_s = now;
  }

  /// After a start or a completion: every training job whose factor changed has its progress
  /// booked and its completion moved. (The artifact rebooks every job at every update; with an
  /// unchanged factor that gives the same times, so only changed jobs are touched.)
  void updateJobLevel(double now) {
    for (JobIndex j : running_) {
      JobState& job = state_[j];
      const double slowdown = modelSlowdown(j);
      if (slowdown == job.slowdown) continue;
      const double remaining =
          jobs_[j].iterations -
          std::min(jobs_[j].iterations,
                   job.iterations_done + (now - job.last_change_s) / iterationTime(j, job.slowdown));
      if (remaining <= 0) continue;  // completes at this instant; its Complete is already due
      bookJobLevel(j, now);
      job.slowdown = slowdown;
      events_.schedule(j, now + remaining * iterationTime(j, slowdown), kComplete);
    }
  }

  // ---- Phase-level progress (§6.2): mosim -----------------------------------------------------

  void onIterCompEnd(JobIndex j, double now) {
    JobState& job = state_[j];
    job.compute_s += now - job.phase_start_s;
    job.phase = Phase::Comm;
    job.phase_start_s = now;
    job.comm_progress_s = 0;
    job.segment_start_s = now;
    network_.setDemanding(j, true);
    communicating_.insert(j);
    job.slowdown = modelSlowdown(j);
    events_.schedule(j, now + profile(j).t_net_s * job.slowdown, kIterCommEnd);
    updatePhaseLevel(now);
  }

  void onIterCommEnd(JobIndex j, double now) {
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
    events_.schedule(j, now + profile(j).t_comp_s, kIterCompEnd);
    updatePhaseLevel(now);
  }

  /// Every communicating job closes its segment at the factor in force and has the rest of its
  /// communication rescheduled at the factor now. This is done even when the factor is unchanged,
  /// as the artifact does: the phase-level dynamics amplify last-bit differences in event times
  /// (one ulp moves the aggregates by ~1e-4), so bit-compatibility needs the same arithmetic.
  void updatePhaseLevel(double now) {
    for (JobIndex j : communicating_) {
      JobState& job = state_[j];
      job.comm_progress_s += (now - job.segment_start_s) / job.slowdown;
      job.segment_start_s = now;
      job.slowdown = modelSlowdown(j);
      const double remaining_s = std::max(0.0, profile(j).t_net_s - job.comm_progress_s);
      events_.schedule(j, now + remaining_s * job.slowdown, kIterCommEnd);
    }
  }

  // ---- Results ------------------------------------------------------------------------------

  JobResult resultOf(JobIndex j) const {
    const Job& input = jobs_[j].job;
    const JobState& job = state_[j];
    JobResult result;
    result.id = input.id;
    result.model = input.model;
    result.num_gpus = input.num_gpus;
    result.submit_s = input.submit_s;
    if (job.phase == Phase::Unplaceable) {
      result.status = JobStatus::Unplaceable;
      return result;
    }
    result.servers = job.allocation;
    result.start_s = job.start_s;
    result.end_s = job.end_s;
    result.wait_s = job.start_s - input.submit_s;
    result.loading_s = profile(j).loading_s;
    result.compute_s = job.compute_s;
    result.comm_s = job.comm_s;
    result.training_s = result.loading_s + job.compute_s + job.comm_s;
    result.jct_s = job.end_s - input.submit_s;
    result.iterations = phase_level_ ? static_cast<double>(job.iterations_run)
                                     : job.iterations_done;
    return result;
  }

  const std::vector<ProfiledJob> jobs_;  // sorted by id: JobIndex is the position here
  const SimulationConfig& config_;
  std::unique_ptr<PlacementPolicy> placement_;
  std::unique_ptr<QueuePolicy> queue_;
  std::unique_ptr<ContentionModel> model_;
  const bool phase_level_;

  ClusterState cluster_;
  NetworkState network_;
  detail::EventQueue events_;
  const EventSlot pass_slot_;  // one slot past the jobs
  std::vector<JobState> state_;

  std::vector<JobIndex> arrival_order_;  // placeable jobs by (submit, id)
  std::size_t next_arrival_ = 0;
  std::vector<JobIndex> waiting_;        // arrived, not yet placed, in queue order
  // Each job's update is independent of the others', so the order of these sets does not matter.
  JobSet running_;                       // job level: started and not completed
  JobSet communicating_;                 // phase level: in a communication phase
  std::vector<std::string> warnings_;
};

}  // namespace

SimulationResult simulate(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config,
                          const ProgressCallback& progress) {
  return Engine(jobs, config).run(progress);
}

}  // namespace mosim
