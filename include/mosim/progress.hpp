// Progress of long work on stderr: done/total, rate and ETA, at most once a second, and only once
// the work has taken more than a second (short runs stay quiet).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace mosim {

class ProgressMeter {
 public:
  ProgressMeter(std::string label, std::size_t total, bool enabled);
  void update(std::size_t done);
  /// Ends the progress line if one was printed.
  void finish();

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  std::size_t total_;
  bool enabled_;
  bool printed_ = false;
  Clock::time_point start_;
  Clock::time_point last_print_;
};

}  // namespace mosim
