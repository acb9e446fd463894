// The exact phase-level mode keeps the ends of compute and communication phases out of the event
// queue, in dense arrays that are scanned for the earliest end. Every event there re-books every
// communicating job, which touches all those ends anyway, and a heap spends most of its time on
// comparisons whose outcome the processor cannot predict; a scan of a few dozen times has none.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "mosim/job.hpp"

namespace mosim::detail {

/// The earliest of the ends, and its job: the lowest job index among those at that time. Both
/// passes are free of data-dependent branches; four running minima keep the first one from
/// waiting on each comparison in turn. `end_s` must not be empty.
inline std::pair<double, JobIndex> earliestEnd(std::span<const double> end_s,
                                               std::span<const JobIndex> jobs) {
  constexpr double kNever = std::numeric_limits<double>::infinity();
  double earliest[4] = {kNever, kNever, kNever, kNever};
  std::size_t at = 0;
  for (; at + 4 <= end_s.size(); at += 4)
    for (std::size_t lane = 0; lane < 4; ++lane)
      earliest[lane] = std::min(earliest[lane], end_s[at + lane]);
  for (; at < end_s.size(); ++at) earliest[0] = std::min(earliest[0], end_s[at]);
  const double time_s = std::min(std::min(earliest[0], earliest[1]), std::min(earliest[2], earliest[3]));
  JobIndex job = std::numeric_limits<JobIndex>::max();
  for (std::size_t i = 0; i < end_s.size(); ++i) {
    // All ones where the end is later: an arithmetic select, which compilers keep branch-free.
    const auto later = static_cast<JobIndex>(-static_cast<JobIndex>(end_s[i] != time_s));
    job = std::min(job, jobs[i] | later);
  }
  return {time_s, job};
}

/// The jobs in a compute phase and when it ends. The earliest end is kept until it leaves.
class ComputingJobs {
 public:
  /// Room for every job at once: insertions never allocate.
  explicit ComputingJobs(std::size_t jobs) : jobs_(jobs), end_s_(jobs), position_(jobs, kAbsent) {}

  bool empty() const { return size_ == 0; }

  void insert(JobIndex j, double end_s) {
    const std::size_t at = size_++;
    position_[j] = static_cast<std::uint32_t>(at);
    jobs_[at] = j;
    end_s_[at] = end_s;
    if (earliest_known_ && (end_s < earliest_.first || (end_s == earliest_.first && j < earliest_.second)))
      earliest_ = {end_s, j};
  }

  /// The last job takes the leaving one's place.
  void erase(JobIndex j) {
    if (j == earliest_.second) earliest_known_ = false;
    const std::uint32_t at = position_[j];
    const std::size_t last = --size_;
    jobs_[at] = jobs_[last];
    end_s_[at] = end_s_[last];
    position_[jobs_[at]] = at;
    position_[j] = kAbsent;
  }

  /// The earliest end and its job (not empty()).
  std::pair<double, JobIndex> earliest() {
    if (!earliest_known_) {
      earliest_ = earliestEnd({end_s_.data(), size_}, {jobs_.data(), size_});
      earliest_known_ = true;
    }
    return earliest_;
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
  std::size_t size_ = 0;
  std::vector<JobIndex> jobs_;  // size_ in use
  std::vector<double> end_s_;
  std::vector<std::uint32_t> position_;
  std::pair<double, JobIndex> earliest_;
  bool earliest_known_ = false;
};

}  // namespace mosim::detail
