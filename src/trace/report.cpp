#include <fmt/format.h>

#include "mosim/job.hpp"

namespace mosim {

void TraceReport::skip(const std::string& reason, const std::string& example) {
  const std::size_t count = ++skipped[reason];
  if (count <= kExamplesPerReason) examples.push_back(example);
}

std::size_t TraceReport::skippedTotal() const {
  std::size_t total = 0;
  for (const auto& [reason, count] : skipped) total += count;
  return total;
}

std::string TraceReport::summary() const {
  return fmt::format("{}: {} job{} kept, {}", source, kept, kept == 1 ? "" : "s", skippedSummary());
}

std::string TraceReport::skippedSummary() const {
  if (skipped.empty()) return "none skipped";
  std::string text = fmt::format("{} skipped (", skippedTotal());
  bool first = true;
  for (const auto& [reason, count] : skipped) {
    text += fmt::format("{}{} {}", first ? "" : ", ", count, reason);
    first = false;
  }
  return text + ")";
}

}  // namespace mosim
