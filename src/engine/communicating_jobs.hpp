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
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "engine/phase_ends.hpp"
#include "mosim/job.hpp"

namespace mosim::detail {

class CommunicatingJobs {
 public:
  /// Room for every job at once: insertions never allocate, and need no check of capacity.
  explicit CommunicatingJobs(std::size_t jobs)
      : jobs_(jobs), t_net_s_(jobs), progress_s_(jobs), segment_start_s_(jobs), slowdown_(jobs),
        next_slowdown_(jobs), end_s_(jobs), position_(jobs, kAbsent) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool contains(JobIndex j) const { return position_[j] != kAbsent; }
  /// The jobs, in no particular order.
  auto begin() const { return jobs_.begin(); }
  auto end() const { return jobs_.begin() + static_cast<std::ptrdiff_t>(size_); }

  /// The job starts (or resumes) communicating at `now`, with progress_s of its t_net_s done, at
  /// `slowdown`. Returns its expected end.
  double insert(JobIndex j, double now, double t_net_s, double progress_s, double slowdown) {
    const std::size_t at = size_++;
    position_[j] = static_cast<std::uint32_t>(at);
    jobs_[at] = j;
    t_net_s_[at] = t_net_s;
    progress_s_[at] = progress_s;
    segment_start_s_[at] = now;
    slowdown_[at] = slowdown;
    next_slowdown_[at] = slowdown;
    return end_s_[at] = endOf(now, t_net_s, progress_s, slowdown);
  }

  /// The last job takes the leaving one's place.
  void erase(JobIndex j) {
    const std::uint32_t at = position_[j];
    const std::size_t last = --size_;
    jobs_[at] = jobs_[last];
    t_net_s_[at] = t_net_s_[last];
    progress_s_[at] = progress_s_[last];
    segment_start_s_[at] = segment_start_s_[last];
    slowdown_[at] = slowdown_[last];
    next_slowdown_[at] = next_slowdown_[last];
    end_s_[at] = end_s_[last];
    position_[jobs_[at]] = at;
    position_[j] = kAbsent;
  }

  /// Uncontended seconds of communication done by the start of the job's current segment.
  double progress_s(JobIndex j) const { return progress_s_[position_[j]]; }
  /// The slowdown in force since the start of the job's current segment.
  double slowdown(JobIndex j) const { return slowdown_[position_[j]]; }
  /// When the job's communication ends at that slowdown.
  double end_s(JobIndex j) const { return end_s_[position_[j]]; }

  /// Closes the job's segment at the slowdown in force and continues at `slowdown`. Returns the
  /// new expected end.
  double closeSegment(JobIndex j, double now, double slowdown) {
    const std::uint32_t at = position_[j];
    next_slowdown_[at] = slowdown;
    close(at, now);
    return end_s_[at];
  }

  /// The jobs, and the slowdown each continues at when closeAllSegments next closes its segment
  /// (until then, the one in force), by position.
  std::span<const JobIndex> jobs() const { return {jobs_.data(), size_}; }
  std::span<double> nextSlowdowns() { return {next_slowdown_.data(), size_}; }

  /// Closes every job's segment at `now`, each continuing at its next slowdown.
  void closeAllSegments(double now) {
    for (std::size_t at = 0; at < size_; ++at) close(at, now);
  }

  /// The earliest expected end and its job (not empty()).
  std::pair<double, JobIndex> earliest() const {
    return earliestEnd({end_s_.data(), size_}, {jobs_.data(), size_});
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

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

  std::size_t size_ = 0;
  std::vector<JobIndex> jobs_;  // position -> job; the arrays below by position, size_ in use
  std::vector<double> t_net_s_;
  std::vector<double> progress_s_;
  std::vector<double> segment_start_s_;
  std::vector<double> slowdown_;
  std::vector<double> next_slowdown_;
  std::vector<double> end_s_;
  std::vector<std::uint32_t> position_;  // job -> position, or kAbsent
};

}  // namespace mosim::detail
