#include "mosim/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace mosim {

ProgressMeter::ProgressMeter(std::string label, std::size_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), start_(Clock::now()),
      last_print_(start_) {}

void ProgressMeter::update(std::size_t done) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - last_print_ < std::chrono::seconds(1)) return;
  last_print_ = now;
  const double elapsed_s = std::chrono::duration<double>(now - start_).count();
  const double rate = static_cast<double>(done) / elapsed_s;
  const double eta_s = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
  // A terminal gets one line rewritten in place; a log file gets one line per report.
  const char* end = isatty(STDERR_FILENO) ? "\r" : "\n";
  std::fprintf(stderr, "%s: %zu/%zu (%.1f/s), ETA %.0f s   %s", label_.c_str(), done, total_, rate,
               eta_s, end);
  printed_ = true;
}

void ProgressMeter::finish() {
  if (printed_ && isatty(STDERR_FILENO)) std::fputc('\n', stderr);
  printed_ = false;
}

}  // namespace mosim
