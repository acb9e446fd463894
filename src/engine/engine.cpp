// The event engine, rule for rule as the artifact's (mosim-reference.md §4–§6), with ties broken by
// (time, event priority, job id) so that every run is reproducible. This file holds the event
// loop, the queue, placement, start and completion; progress lives in job_level.cpp and
// phase_level.cpp.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <tuple>
#include <stdexcept>

#include <fmt/format.h>

#include "engine/engine_impl.hpp"

namespace mosim {
namespace detail {
namespace {

std::vector<ProfiledJob> sortedById(std::vector<ProfiledJob> jobs) {
  std::stable_sort(jobs.begin(), jobs.end(), [](const ProfiledJob& a, const ProfiledJob& b) {
    return a.job.id < b.job.id;
  });
  for (std::size_t i = 1; i < jobs.size(); ++i)
    if (jobs[i].job.id == jobs[i - 1].job.id)
      throw std::invalid_argument(fmt::format("duplicate job id {}", jobs[i].job.id));
  return jobs;
}

}  // namespace

Engine::Engine(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config)
    : jobs_(sortedById(jobs)),
      config_(config),
      placement_(makePlacementPolicy(config.placement)),
      queue_(makeQueuePolicy(config.queue)),
      model_(makeContentionModel(config.contention, config.contention_params)),
      phase_level_(model_->granularity() == ContentionGranularity::Phase),
      cluster_(config_.cluster),
      network_(config_.cluster, jobs_.size(), config_.rate_unit_Bps),
      events_(jobs_.size() + 1),
      pass_slot_(static_cast<EventQueue::Slot>(jobs_.size())),
      state_(jobs_.size()),
      running_(jobs_.size()),
      communicating_(jobs_.size()),
      computing_(jobs_.size()),
      job_visited_(jobs_.size(), 0),
      server_visited_(config_.cluster.servers.size(), 0) {
  profiles_.resize(jobs_.size());
  inert_.resize(jobs_.size());
  for (JobIndex j = 0; j < jobs_.size(); ++j) setProfile(j, jobs_[j].profile);
  // Whether a job can ever fit depends only on its request; traces repeat a few requests.
  std::map<std::tuple<int, int, std::string>, bool> fits;
  for (JobIndex j = 0; j < jobs_.size(); ++j) {
    const PlacementRequest r = request(j);
    const auto [it, inserted] = fits.try_emplace(std::tuple{r.workers, r.cpus_per_worker, std::string(r.gpu_type)}, false);
    if (inserted) it->second = fitsEmptyCluster(*placement_, config_.cluster, r);
    if (it->second) {
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

SimulationResult Engine::run(const ProgressCallback& progress) {
  const auto wall_start = std::chrono::steady_clock::now();
  if (!arrival_order_.empty()) requestPass(jobs_[arrival_order_.front()].job.submit_s);
  std::uint64_t events = 0;
  std::size_t finished = 0;
  EventQueue::Event event;
  while (nextEvent(event)) {
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
      case kSteadyEnd: resume(j, now); break;
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
  result.fast_forwards = fast_forwards_;
  result.warnings = warnings_;
  for (JobIndex j = 0; j < jobs_.size(); ++j) result.jobs.push_back(resultOf(j));
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

/// Takes the earliest pending event: from the queue, or, in the exact phase-level mode, the
/// earliest end of a phase (a communication phase's job leaves its set in onIterCommEnd). False
/// when none is left.
bool Engine::nextEvent(EventQueue::Event& event) {
  if (phaseEndsQueued()) {
    if (events_.empty()) return false;
    event = events_.pop();
    return true;
  }
  enum class Source { None, Queue, Communicating, Computing } source = Source::None;
  if (!events_.empty()) {
    event = events_.top();
    source = Source::Queue;
  }
  const auto consider = [&](std::pair<double, JobIndex> end, Priority priority, Source from) {
    const EventQueue::Event candidate{end.first, priority, end.second};
    if (source == Source::None || EventQueue::before(candidate, event)) {
      event = candidate;
      source = from;
    }
  };
  if (!communicating_.empty()) consider(communicating_.earliest(), kIterCommEnd, Source::Communicating);
  if (!computing_.empty()) consider(computing_.earliest(), kIterCompEnd, Source::Computing);
  if (source == Source::Queue) events_.pop();
  if (source == Source::Computing) computing_.erase(event.slot);
  return source != Source::None;
}

PlacementRequest Engine::request(JobIndex j) const {
  const Job& job = jobs_[j].job;
  return PlacementRequest{job.num_gpus, job.cpus_per_worker, job.gpu_type};
}

// ---- Queue (§5.1) -----------------------------------------------------------------------------

/// Asks for a scheduling pass at `time_s`, unless one is already due no later.
void Engine::requestPass(double time_s) {
  if (events_.pending(pass_slot_) && events_.event(pass_slot_).time_s <= time_s) return;
  events_.schedule(pass_slot_, time_s, kSchedulePass);
}

/// Passes run after every other event of their instant: at each arrival, after each release and
/// after each start. Jobs join the queue at their submit time, in (submit, id) order. A blocked
/// head is retried only when GPUs were released: nothing else can make it fit.
void Engine::onSchedulePass(double now) {
  while (next_arrival_ < arrival_order_.size() &&
         jobs_[arrival_order_[next_arrival_]].job.submit_s <= now)
    waiting_.push_back(arrival_order_[next_arrival_++]);

  const auto started = queue_->pass(waiting_, [&](JobIndex j) { return tryStart(j, now); });
  if (!started.empty()) {
    // FIFO starts only the head: popping it is enough, without a scan of a long queue.
    std::size_t removed = 0;
    while (!waiting_.empty() && state_[waiting_.front()].phase != Phase::Queued) {
      waiting_.pop_front();
      ++removed;
    }
    if (removed < started.size())
      std::erase_if(waiting_, [&](JobIndex j) { return state_[j].phase != Phase::Queued; });
    if (!waiting_.empty()) requestPass(now);
  }
  if (next_arrival_ < arrival_order_.size())
    requestPass(jobs_[arrival_order_[next_arrival_]].job.submit_s);
}

/// Places a job if the policy finds room: its GPUs are held from now, and it starts training
/// after its loading time (§5.2 place_job). Placing does not change any contention factor.
bool Engine::tryStart(JobIndex j, double now) {
  auto allocation = placement_->place(cluster_, request(j));
  if (!allocation) return false;
  if (fastForward()) touchServers(*allocation, now, /*local_servers=*/{});
  profileForAllocation(j, *allocation);
  cluster_.allocate(*allocation, jobs_[j].job.cpus_per_worker);
  network_.addJob(j, *allocation, profile(j).net_rate_Bps);
  JobState& job = state_[j];
  job.phase = Phase::Loading;
  job.allocation = std::move(*allocation);
  job.start_s = now;
  events_.schedule(j, now + profile(j).loading_s, kStart);
  return true;
}

/// A job that named no GPU type is profiled for the GPUs it was placed on, and runs at the pace of
/// the slowest type among them.
void Engine::profileForAllocation(JobIndex j, const Allocation& allocation) {
  const Job& job = jobs_[j].job;
  if (!config_.placement_profiles || !job.gpu_type.empty() || job.model.empty()) return;
  auto types = allocationGpuTypes(config_.cluster, allocation);
  std::sort(types.begin(), types.end());
  types.erase(std::unique(types.begin(), types.end()), types.end());
  std::optional<Profile> slowest;
  for (const std::string& type : types) {
    if (type.empty()) continue;  // untyped servers: the profile attached before placement holds
    const auto candidate = config_.placement_profiles->profile({job.model, job.num_gpus, type});
    if (candidate && (!slowest || candidate->t_comp_s + candidate->t_net_s >
                                      slowest->t_comp_s + slowest->t_net_s))
      slowest = candidate;
  }
  if (slowest) setProfile(j, *slowest);
}

void Engine::setProfile(JobIndex j, const Profile& profile) {
  profiles_[j] = profile;
  inert_[j] = profile.t_net_s == 0 && profile.net_rate_Bps == 0;
}

// ---- Start and completion ---------------------------------------------------------------------

void Engine::onStart(JobIndex j, double now) {
  if (phase_level_)
    startPhaseLevel(j, now);
  else
    startJobLevel(j, now);
}

void Engine::onComplete(JobIndex j, double now) {
  JobState& job = state_[j];
  if (!phase_level_) {
    bookJobLevel(j, now);
    running_.erase(j);
  }
  job.phase = Phase::Finished;
  job.end_s = now;
  cluster_.release(job.allocation, jobs_[j].job.cpus_per_worker);
  const Allocation congested = fastForward() ? congestibleServers(job.allocation) : Allocation{};
  network_.removeJob(j);
  if (phase_level_) {
    if (fastForward()) touchServers(job.allocation, now, congested, /*completion=*/true);
    updatePhaseLevel(now);
  } else {
    updateJobLevel(now);
  }
  if (!waiting_.empty()) requestPass(now);
}

// ---- Contention -------------------------------------------------------------------------------

/// The contention model's factor for a job, recomputed only when one of its servers changed.
double Engine::modelSlowdown(JobIndex j) {
  JobState& job = state_[j];
  if (config_.full_recompute || job.model_stamp == 0 || modelOutOfDate(j)) {
    job.model_slowdown = model_->slowdown(network_, j);
    job.model_stamp = network_.stamp();
  }
  return job.model_slowdown;
}

/// Whether one of the job's servers changed after its cached factor was computed.
bool Engine::modelOutOfDate(JobIndex j) const {
  const JobState& job = state_[j];
  // Nothing changed anywhere since: the common case of a factor asked for twice in one update
  // (reconsidered, then its segment closed), which would otherwise scan all its servers.
  if (job.model_stamp == network_.stamp()) return false;
  // Reached through a server that changed after the factor was computed: out of date, no scan
  // needed (a job's servers stay its own while it runs, and change stamps only grow).
  if (job.reached_change > job.model_stamp) return true;
  return network_.changedSince(j, job.model_stamp);
}

/// The jobs whose factor updates ask for: those training (job level) or communicating (phase
/// level). Reconsidering any other does nothing.
bool Engine::factorAskedFor(JobIndex j) const {
  return state_[j].phase == (phase_level_ ? Phase::Comm : Phase::Training);
}

/// Only those whose factor updates ask for, who all demand their full rates: most jobs on a
/// changed server are computing, or steady and demanding a fraction, which the server's own bit
/// mask tells without reading each job's state.
const std::vector<JobIndex>& Engine::jobsOnChangedServers() {
  const std::uint64_t visit = ++visit_count_;
  touched_jobs_.clear();
  for (ServerIndex s : changed_servers_) {
    const std::uint64_t changed_at = network_.changedAt(s);
    network_.forEachFullyDemanding(s, [&](JobIndex j) {
      if (!factorAskedFor(j)) return;
      JobState& job = state_[j];
      if (job_visited_[j] == visit) {
        job.reached_change = std::max(job.reached_change, changed_at);
        return;
      }
      job_visited_[j] = visit;
      job.reached_change = changed_at;
      touched_jobs_.push_back(j);
    });
  }
  return touched_jobs_;
}

// ---- Results ----------------------------------------------------------------------------------

JobResult Engine::resultOf(JobIndex j) const {
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
  result.iterations =
      phase_level_ ? static_cast<double>(job.iterations_run) : job.iterations_done;
  return result;
}

}  // namespace detail

SimulationResult simulate(const std::vector<ProfiledJob>& jobs, const SimulationConfig& config,
                          const ProgressCallback& progress) {
  return detail::Engine(jobs, config).run(progress);
}

}  // namespace mosim
