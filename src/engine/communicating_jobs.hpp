// The jobs in a communication phase and their progress (mosim-reference.md §6.2), in dense arrays.
//
// Communication advances in "uncontended seconds": over a segment of constant slowdown S, progress
// grows by duration / S, and the phase ends when progress reaches T_net. The exact phase-level
// model closes every communicating job's segment at every update, as the artifact does (its
// rounding is what the results depend on), so that loop runs over consecutive memory; and the
// earliest end is found by a scan of the same arrays instead of moving each changed end in the
// event queue (phase_ends.hpp). The other modes keep the ends in the queue too.
#pragma once

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "engine/job_set.hpp"
#include "engine/phase_ends.hpp"
#include "mosim/job.hpp"

namespace mosim::detail {

class CommunicatingJobs {
 public:
  /// Room for every job at once: insertions never allocate.
  explicit CommunicatingJobs(std::size_t jobs)
      : set_(jobs), t_net_s_(jobs), progress_s_(jobs), segment_start_s_(jobs), slowdown_(jobs),
        next_slowdown_(jobs), end_s_(jobs) {}

  std::size_t size() const { return set_.size(); }
  bool empty() const { return set_.empty(); }
  bool contains(JobIndex j) const { return set_.contains(j); }
  /// The jobs, in no particular order.
  auto begin() const { return set_.begin(); }
  auto end() const { return set_.end(); }

  /// The job starts (or resumes) communicating at `now`, with progress_s of its t_net_s done, at
  /// `slowdown`. Returns its expected end.
  double insert(JobIndex j, double now, double t_net_s, double progress_s, double slowdown) {
    const std::size_t at = set_.insert(j);
    t_net_s_[at] = t_net_s;
    progress_s_[at] = progress_s;
    segment_start_s_[at] = now;
    slowdown_[at] = slowdown;
    next_slowdown_[at] = slowdown;
    return end_s_[at] = endOf(now, t_net_s, progress_s, slowdown);
  }

  void erase(JobIndex j) {
    const auto [to, from] = set_.erase(j);
    t_net_s_[to] = t_net_s_[from];
    progress_s_[to] = progress_s_[from];
    segment_start_s_[to] = segment_start_s_[from];
    slowdown_[to] = slowdown_[from];
    next_slowdown_[to] = next_slowdown_[from];
    end_s_[to] = end_s_[from];
  }

  /// Uncontended seconds of communication done by the start of the job's current segment.
  double progress_s(JobIndex j) const { return progress_s_[set_.position(j)]; }
  /// The slowdown in force since the start of the job's current segment.
  double slowdown(JobIndex j) const { return slowdown_[set_.position(j)]; }
  /// When the job's communication ends at that slowdown.
  double end_s(JobIndex j) const { return end_s_[set_.position(j)]; }

  /// Closes the job's segment at the slowdown in force and continues at `slowdown`. Returns the
  /// new expected end.
  double closeSegment(JobIndex j, double now, double slowdown) {
    const std::size_t at = set_.position(j);
    next_slowdown_[at] = slowdown;
    close(at, now);
    return end_s_[at];
  }

  /// The jobs, and the slowdown each continues at when closeAllSegments next closes its segment
  /// (until then, the one in force), by position.
  std::span<const JobIndex> jobs() const { return set_.jobs(); }
  std::span<double> nextSlowdowns() { return {next_slowdown_.data(), set_.size()}; }

  /// Closes every job's segment at `now`, each continuing at its next slowdown.
  void closeAllSegments(double now) {
    for (std::size_t at = 0; at < set_.size(); ++at) close(at, now);
  }

  /// The earliest expected end and its job (not empty()).
  std::pair<double, JobIndex> earliest() const {
    return earliestEnd({end_s_.data(), set_.size()}, set_.jobs());
  }

 private:
  static double endOf(double now, double t_net_s, double progress_s, double slowdown) {
    return now + std::max(0.0, t_net_s - progress_s) * slowdown;
  }

  /// The artifact's arithmetic, operation for operation: any other order changes the last bits,
  /// which the dynamics amplify.
  void close(std::size_t at, double now) {
    progress_s_[at] += (now - segment_start_s_[at]) / slowdown_[at];
    segment_start_s_[at] = now;
    slowdown_[at] = next_slowdown_[at];
    end_s_[at] = endOf(now, t_net_s_[at], progress_s_[at], slowdown_[at]);
  }

  JobSet set_;  // the jobs; the arrays below by their position there
  std::vector<double> t_net_s_;
  std::vector<double> progress_s_;
  std::vector<double> segment_start_s_;
  std::vector<double> slowdown_;
  std::vector<double> next_slowdown_;
  std::vector<double> end_s_;
};

}  // namespace mosim::detail
