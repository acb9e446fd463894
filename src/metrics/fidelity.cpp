// How far a simulation is from ground truth (semantics.md §4, mosim-reference.md §9.2).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "metrics/sample.hpp"
#include "mosim/metrics.hpp"

namespace mosim {
namespace {

std::vector<double> completedJcts(const std::vector<JobResult>& jobs) {
  std::vector<double> jct_s;
  for (const JobResult& job : jobs)
    if (job.status == JobStatus::Completed) jct_s.push_back(job.jct_s);
  return jct_s;
}

}  // namespace

double absolutePercentError(double simulated, double truth) {
  // A zero truth (e.g. no job waited) has no relative error: call a match 0 and a miss infinite.
  if (truth == 0) return simulated == 0 ? 0 : INFINITY;
  return std::abs(simulated - truth) / std::abs(truth) * 100;
}

double ksDistance(std::vector<double> a, std::vector<double> b) {
  detail::sortSample(a, "ksDistance");
  detail::sortSample(b, "ksDistance");
  const auto n_a = static_cast<double>(a.size());
  const auto n_b = static_cast<double>(b.size());
  // Walk the pooled values in ascending order; after consuming every sample <= v, i and j are the
  // right-continuous counts of each ECDF at v.
  std::size_t i = 0, j = 0;
  double distance = 0;
  while (i < a.size() || j < b.size()) {
    const double v = j == b.size() || (i < a.size() && a[i] <= b[j]) ? a[i] : b[j];
    while (i < a.size() && a[i] <= v) ++i;
    while (j < b.size() && b[j] <= v) ++j;
    distance = std::max(distance, std::abs(static_cast<double>(i) / n_a -
                                           static_cast<double>(j) / n_b));
  }
  return distance;
}

double wasserstein1(std::vector<double> a, std::vector<double> b) {
  detail::sortSample(a, "wasserstein1");
  detail::sortSample(b, "wasserstein1");
  double sum = 0;
  if (a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
    return sum / static_cast<double>(a.size());
  }
  // Sizes differ, so both are non-empty and the grid has at least two points.
  const std::size_t grid = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < grid; ++i) {
    const double q = static_cast<double>(i) / static_cast<double>(grid - 1);
    sum += std::abs(detail::quantileOfSorted(a, q) - detail::quantileOfSorted(b, q));
  }
  return sum / static_cast<double>(grid);
}

Fidelity compareWithTruth(const std::vector<JobResult>& simulated,
                          const std::vector<JobResult>& truth) {
  Fidelity f;
  f.simulated = aggregate(simulated);
  f.truth = aggregate(truth);
  f.ape_avg_training = absolutePercentError(f.simulated.avg_training_s, f.truth.avg_training_s);
  f.ape_avg_jct = absolutePercentError(f.simulated.avg_jct_s, f.truth.avg_jct_s);
  f.ape_median_jct = absolutePercentError(f.simulated.median_jct_s, f.truth.median_jct_s);
  f.ape_p99_jct = absolutePercentError(f.simulated.p99_jct_s, f.truth.p99_jct_s);
  f.ape_makespan = absolutePercentError(f.simulated.makespan_s, f.truth.makespan_s);
  f.ape_avg_wait = absolutePercentError(f.simulated.avg_wait_s, f.truth.avg_wait_s);
  f.ks_jct = ksDistance(completedJcts(simulated), completedJcts(truth));
  f.wasserstein_jct_s = wasserstein1(completedJcts(simulated), completedJcts(truth));
  return f;
}

}  // namespace mosim
