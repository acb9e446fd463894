// Helpers on samples shared by aggregates.cpp and fidelity.cpp (wasserstein1's grid reuses one sort
// instead of sorting once per point).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace mosim::detail {

/// Sorts ascending; throws std::invalid_argument naming `what` when empty or when it holds NaN,
/// which would break the strict weak ordering std::sort needs.
inline void sortSample(std::vector<double>& values, const char* what) {
  if (values.empty()) throw std::invalid_argument(std::string(what) + " of an empty sample");
  if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
    throw std::invalid_argument(std::string(what) + " of a sample containing NaN");
  std::sort(values.begin(), values.end());
}

/// Linear interpolation between order statistics at rank q*(n-1); `sorted` is non-empty and
/// ascending, q in [0, 1].
inline double quantileOfSorted(const std::vector<double>& sorted, double q) {
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const auto lower = static_cast<std::size_t>(std::floor(rank));
  const std::size_t upper = lower + 1 < sorted.size() ? lower + 1 : lower;
  const double fraction = rank - static_cast<double>(lower);
  const double a = sorted[lower];
  const double b = sorted[upper];
  // numpy's _lerp: interpolating from the nearer end keeps results identical to numpy.percentile.
  return fraction < 0.5 ? a + (b - a) * fraction : b - (b - a) * (1 - fraction);
}

}  // namespace mosim::detail
