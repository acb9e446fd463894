// A set of jobs in a dense array, in no particular order, with constant-time insertion and
// removal: the engine's sets of running, communicating and computing jobs, and the index of the
// arrays those keep beside it, by position.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "mosim/job.hpp"

namespace mosim::detail {

class JobSet {
 public:
  /// Room for every job at once: insertions never allocate.
  explicit JobSet(std::size_t jobs) : members_(jobs), position_(jobs, kAbsent) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool contains(JobIndex j) const { return position_[j] != kAbsent; }
  std::size_t position(JobIndex j) const { return position_[j]; }
  std::span<const JobIndex> jobs() const { return {members_.data(), size_}; }
  auto begin() const { return members_.begin(); }
  auto end() const { return members_.begin() + static_cast<std::ptrdiff_t>(size_); }

  /// Adds the job at the end; returns its position.
  std::size_t insert(JobIndex j) {
    position_[j] = static_cast<std::uint32_t>(size_);
    members_[size_] = j;
    return size_++;
  }

  /// What a removal moved: the last job took the leaving one's position, `to`, from `from`.
  /// Arrays kept by position move their entry the same way.
  struct Moved {
    std::size_t to, from;
  };
  Moved erase(JobIndex j) {
    const Moved moved{position_[j], --size_};
    members_[moved.to] = members_[moved.from];
    position_[members_[moved.to]] = static_cast<std::uint32_t>(moved.to);
    position_[j] = kAbsent;
    return moved;
  }

 private:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();
  std::size_t size_ = 0;
  std::vector<JobIndex> members_;  // size_ in use
  std::vector<std::uint32_t> position_;
};

}  // namespace mosim::detail
