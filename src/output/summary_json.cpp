// summary.json: the run's aggregates and how long it took.
#include <nlohmann/json.hpp>

#include "mosim/output.hpp"
#include "output/output_file.hpp"

namespace mosim {

void writeSummaryJson(const std::string& path, const Aggregates& aggregates, std::size_t skipped,
                      std::uint64_t events, double wall_seconds) {
  // ordered_json keeps the keys in this reading order instead of sorting them.
  const nlohmann::ordered_json summary = {
      {"jobs", aggregates.jobs},
      {"avg_training", aggregates.avg_training_s},
      {"avg_jct", aggregates.avg_jct_s},
      {"median_jct", aggregates.median_jct_s},
      {"p99_jct", aggregates.p99_jct_s},
      {"makespan", aggregates.makespan_s},
      {"avg_wait", aggregates.avg_wait_s},
      {"skipped", skipped},
      {"events", events},
      {"wall_seconds", wall_seconds},
  };
  std::ofstream out = detail::openOutputFile(path);
  out << summary.dump(2) << '\n';
  detail::closeOutputFile(out, path);
}

}  // namespace mosim
