// Aggregates over the completed jobs of a run (mosim-reference.md §8, §9.2).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "metrics/sample.hpp"
#include "mosim/metrics.hpp"

namespace mosim {
namespace {

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return sum / static_cast<double>(values.size());
}

}  // namespace

double percentile(std::vector<double> values, double q) {
  if (!(q >= 0 && q <= 1))
    throw std::invalid_argument("percentile: q must be in [0, 1], got " + std::to_string(q));
  detail::sortSample(values, "percentile");
  return detail::quantileOfSorted(values, q);
}

double median(std::vector<double> values) {
  detail::sortSample(values, "median");
  const std::size_t n = values.size();
  // As Python's statistics.median, which analyze.py uses: the mean of the two middle values.
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Aggregates aggregate(const std::vector<JobResult>& jobs) {
  std::vector<double> training_s, jct_s, wait_s;
  double first_submit_s = INFINITY;
  double last_end_s = -INFINITY;
  for (const JobResult& job : jobs) {
    if (job.status != JobStatus::Completed) continue;
    training_s.push_back(job.training_s);
    jct_s.push_back(job.jct_s);
    wait_s.push_back(job.wait_s);
    first_submit_s = std::min(first_submit_s, job.submit_s);
    last_end_s = std::max(last_end_s, job.end_s);
  }
  if (jct_s.empty()) throw std::invalid_argument("aggregate: no completed job");

  Aggregates result;
  result.jobs = jct_s.size();
  result.avg_training_s = mean(training_s);
  result.avg_jct_s = mean(jct_s);
  result.avg_wait_s = mean(wait_s);
  result.median_jct_s = median(jct_s);
  result.p99_jct_s = percentile(std::move(jct_s), 0.99);
  result.makespan_s = last_end_s - first_submit_s;
  return result;
}

}  // namespace mosim
