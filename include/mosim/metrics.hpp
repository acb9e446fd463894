// Metrics: aggregates over jobs, and how far a simulation is from ground truth (semantics.md §4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mosim/results.hpp"

namespace mosim {

struct Aggregates {
  std::size_t jobs = 0;  ///< completed jobs the aggregates cover
  double avg_training_s = 0;
  double avg_jct_s = 0;
  double median_jct_s = 0;
  double p99_jct_s = 0;
  double makespan_s = 0;  ///< last completion - first submission
  double avg_wait_s = 0;
};

/// Aggregates over the completed jobs. Throws std::invalid_argument when there are none.
Aggregates aggregate(const std::vector<JobResult>& jobs);

/// Linear interpolation between order statistics at rank q*(n-1) (numpy's default); q in [0, 1].
double percentile(std::vector<double> values, double q);
/// The middle value, or the mean of the two middle values.
double median(std::vector<double> values);

/// |sim - truth| / |truth| * 100 (the paper's per-aggregate "MAPE").
double absolutePercentError(double simulated, double truth);
/// Kolmogorov–Smirnov distance: max |F_a(v) - F_b(v)| over the pooled sample points, right-continuous.
double ksDistance(std::vector<double> a, std::vector<double> b);
/// Wasserstein-1 distance: mean |a_(i) - b_(i)| of sorted samples when sizes match, else on a
/// quantile grid of max(n_a, n_b) points q = i/(G-1) with linearly interpolated quantiles.
double wasserstein1(std::vector<double> a, std::vector<double> b);

/// A simulation against ground truth: APE of each aggregate and distances between the JCT samples.
struct Fidelity {
  Aggregates simulated;
  Aggregates truth;
  double ape_avg_training = 0, ape_avg_jct = 0, ape_median_jct = 0, ape_p99_jct = 0,
         ape_makespan = 0, ape_avg_wait = 0;
  double ks_jct = 0;
  double wasserstein_jct_s = 0;
};
Fidelity compareWithTruth(const std::vector<JobResult>& simulated,
                          const std::vector<JobResult>& truth);

}  // namespace mosim
