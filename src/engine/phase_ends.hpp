// The exact phase-level mode keeps the ends of compute and communication phases out of the event
// queue, in dense arrays that are scanned for the earliest end. Every event there re-books every
// communicating job, which touches all those ends anyway, and a heap spends most of its time on
// comparisons whose outcome the processor cannot predict; a scan of a few dozen times has none.
#pragma once

#include <algorithm>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "engine/job_set.hpp"
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
  explicit ComputingJobs(std::size_t jobs) : set_(jobs), end_s_(jobs) {}

  bool empty() const { return set_.empty(); }

  void insert(JobIndex j, double end_s) {
    end_s_[set_.insert(j)] = end_s;
    if (earliest_known_ && (end_s < earliest_.first || (end_s == earliest_.first && j < earliest_.second)))
      earliest_ = {end_s, j};
  }

  void erase(JobIndex j) {
    if (j == earliest_.second) earliest_known_ = false;
    const auto [to, from] = set_.erase(j);
    end_s_[to] = end_s_[from];
  }

  /// The earliest end and its job (not empty()).
  std::pair<double, JobIndex> earliest() {
    if (!earliest_known_) {
      earliest_ = earliestEnd({end_s_.data(), set_.size()}, set_.jobs());
      earliest_known_ = true;
    }
    return earliest_;
  }

 private:
  JobSet set_;
  std::vector<double> end_s_;  // by position in set_
  std::pair<double, JobIndex> earliest_;
  bool earliest_known_ = false;
};

}  // namespace mosim::detail
