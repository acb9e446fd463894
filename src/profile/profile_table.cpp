#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/profile.hpp"

namespace mosim {

std::optional<Profile> ProfileTable::profile(const ProfileQuery& query) const {
  const auto found = rows_.find({query.model, query.num_gpus});
  if (found == rows_.end()) return std::nullopt;
  return found->second;
}

void ProfileTable::set(const std::string& model, int num_gpus, const Profile& profile) {
  rows_[{model, num_gpus}] = profile;
}

double iterationCount(double duration_s, double iteration_time_s) {
  // run.sh writes the quotient as '%.12g' text and the artifact parses it back; the rounding
  // decides whether floor() of an iteration-level model lands on n or n-1 (e.g. 0.3/0.1).
  // fmt rounds correctly like printf but never depends on the C locale.
  const std::string text = fmt::format("{:.12g}", duration_s / iteration_time_s);
  double count = 0;
  std::from_chars(text.data(), text.data() + text.size(), count);
  return count;
}

std::vector<ProfiledJob> attachProfiles(const Trace& trace, const ProfileSource& profiles) {
  std::vector<ProfiledJob> result;
  result.reserve(trace.jobs.size());
  for (const Job& job : trace.jobs) {
    ProfiledJob profiled{job, Profile{}, 1.0};
    if (job.model.empty()) {
      // No model: the job computes for its whole duration as a single iteration.
      profiled.profile.t_comp_s = job.duration_s;
      result.push_back(std::move(profiled));
      continue;
    }

    const auto fail = [&](const std::string& message) {
      throw InputError(trace.path, job.source_line, "model", message);
    };
    const std::string what =
        fmt::format("model '{}' on {} GPU{} in {}", job.model, job.num_gpus,
                    job.num_gpus == 1 ? "" : "s", profiles.describe());
    const std::optional<Profile> profile = profiles.profile({job.model, job.num_gpus, job.gpu_type});
    if (!profile) fail("no profile for " + what);
    // A NaN rate marks a profile row whose network row is missing (readArtifactProfiles).
    if (std::isnan(profile->net_rate_Bps)) fail("no network profile for " + what);

    const double iteration_s = profile->t_comp_s + profile->t_net_s;
    const bool valid = profile->t_comp_s >= 0 && profile->t_net_s >= 0 &&
                       profile->loading_s >= 0 && profile->net_rate_Bps >= 0 &&
                       std::isfinite(iteration_s) && std::isfinite(profile->loading_s) &&
                       std::isfinite(profile->net_rate_Bps);
    if (!valid) fail("invalid profile (negative or not finite) for " + what);
    if (iteration_s <= 0) fail("zero iteration time (T_comp + T_net) for " + what);

    profiled.profile = *profile;
    profiled.iterations = iterationCount(job.duration_s, iteration_s);
    result.push_back(std::move(profiled));
  }
  return result;
}

}  // namespace mosim
