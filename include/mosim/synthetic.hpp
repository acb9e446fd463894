// Synthetic traces shaped like Microsoft Philly, and bootstrap resampling of a real trace. Both
// are deterministic per seed on every machine (std::mt19937_64 and mosim's own distribution code;
// see src/workload/random.hpp). README "Workloads and clusters" lists the figures and sources.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "mosim/job.hpp"

namespace mosim {

struct SyntheticSpec {
  std::uint64_t seed = 0;
  double rate_per_s = 0.005;  ///< Poisson arrival rate λ (the paper's 0.005/s)
  std::size_t jobs = 0;       ///< exactly this many jobs; 0: every arrival before horizon_s
  double horizon_s = 0;       ///< with jobs == 0: arrivals in [0, horizon_s)
  /// Largest GPU count drawn (e.g. the cluster's GPUs); 0 = no cap. Counts above it are removed
  /// from the distribution and the others keep their relative shares.
  int max_gpus = 0;
};

/// Jobs with Poisson arrivals (the first at the first exponential gap after 0), GPU counts from
/// phillyGpuShares() and durations from phillyDurationQuantile_s(), without models (attach them
/// with augmentTrace). Per job, in order: one draw for the gap, one for the GPU count, one for the
/// duration. Ids 0..n-1 in arrival order. Throws std::invalid_argument for a bad spec.
Trace generateSyntheticTrace(const SyntheticSpec& spec);

struct GpuShare {
  int gpus;
  double share;  ///< fraction of jobs; the shares sum to 1
};
/// GPU-count shares of the four Philly-derived Muri traces pooled (10,879 jobs):
/// 1: 4685, 2: 463, 4: 2005, 8: 3063, 16: 467, 32: 196 jobs.
std::span<const GpuShare> phillyGpuShares();

struct DurationKnot {
  double quantile;  ///< cumulative probability
  double value_s;   ///< run time at that quantile
};
/// 38 quantiles of the 83,154 Philly run times (philly_runtime.csv, linear interpolation between
/// order statistics), the minimum raised from 0 to 1 s.
std::span<const DurationKnot> phillyDurationKnots();
/// The inverse CDF at u in [0, 1]: log-linear interpolation between the knots.
double phillyDurationQuantile_s(double u);

enum class ResampleArrivals {
  Poisson,  ///< new Poisson arrivals (rate_per_s, or the source's mean rate when 0)
  Keep,     ///< each drawn job keeps its source submit time; the output is sorted by it
};

struct ResampleSpec {
  std::uint64_t seed = 0;
  std::size_t jobs = 0;
  ResampleArrivals arrivals = ResampleArrivals::Poisson;
  /// Arrival rate for Poisson arrivals; 0 = the source's mean rate, (n - 1) / (last - first submit).
  double rate_per_s = 0;
};

/// Bootstrap: `jobs` draws with replacement, uniform over the source's jobs; a drawn job keeps its
/// GPU count, duration, model, workload, GPU type and name. Ids 0..n-1 in submit order. Per job:
/// one draw for the gap (Poisson only), one for the source index. Throws std::invalid_argument.
Trace resampleTrace(const Trace& source, const ResampleSpec& spec);

}  // namespace mosim
