// Profiles: the per-iteration quantities of one job running alone, keyed by model and GPU count.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mosim/job.hpp"

namespace mosim {

struct Profile {
  double t_comp_s = 0;      ///< compute time per iteration
  double t_net_s = 0;       ///< networking time per iteration, job alone
  double net_rate_Bps = 0;  ///< C_j: the job's profiled network rate, summed over its workers
  double loading_s = 0;     ///< start-up once per job, before the first iteration
};

/// What a profile is asked for. Sources that do not model GPU types or placement (profile tables)
/// ignore the optional fields.
struct ProfileQuery {
  std::string model;
  int num_gpus = 0;
  std::string gpu_type{};  ///< optional: empty means the source's default GPU type
  int servers = 0;         ///< optional: servers the job spans; 0 means the source's default
};

/// Anything that answers profile queries: a table read from files, or a characterizer.
class ProfileSource {
 public:
  virtual ~ProfileSource() = default;
  /// The profile, or nullopt when this source cannot give one.
  virtual std::optional<Profile> profile(const ProfileQuery& query) const = 0;
  /// Where the profiles come from, for messages ("profiles.csv", "built-in estimate").
  virtual std::string describe() const = 0;
};

/// Profiles read from files: (model, GPU count) -> Profile.
class ProfileTable : public ProfileSource {
 public:
  explicit ProfileTable(std::string description) : description_(std::move(description)) {}

  std::optional<Profile> profile(const ProfileQuery& query) const override;
  std::string describe() const override { return description_; }

  void set(const std::string& model, int num_gpus, const Profile& profile);
  std::size_t size() const { return rows_.size(); }

 private:
  std::string description_;
  std::map<std::pair<std::string, int>, Profile> rows_;
};

/// The artifact's two profile files (mosim-reference.md §2.3–2.4): the iteration-time CSV
/// (T_comp, T_net, loading per model and GPU count) and the network-summary CSV, whose
/// "Sum of Max TX+RX (MB/s)" column is C_j in `network_unit_Bps` (MiB/s for the real-GPU file,
/// MB/s for the ASTRA-sim file). One-GPU jobs need no network row (C_j = 0).
ProfileTable readArtifactProfiles(const std::string& iteration_csv, const std::string& network_csv,
                                  double network_unit_Bps);

/// mosim's format: model,num_gpus,t_comp_s,t_net_s,net_rate_Bps[,loading_s].
ProfileTable readMosimProfiles(const std::string& path);

/// A job ready to simulate: its trace entry, its solo profile and its iteration count.
struct ProfiledJob {
  Job job;
  Profile profile;
  double iterations = 0;  ///< N_iter = duration / (T_comp + T_net), possibly fractional
};

/// The iteration count as the artifact derives it (§2.5): duration / (T_comp + T_net), passed
/// through '%.12g' text, which decides where the floor of iteration-level models falls.
double iterationCount(double duration_s, double iteration_time_s);

/// Attaches profiles to the jobs of a trace. A job without a model runs as pure compute for its
/// duration (one iteration, no network). A model with no profile for its GPU count, or a profile
/// with zero iteration time, is an InputError naming the trace line and the `model` field.
std::vector<ProfiledJob> attachProfiles(const Trace& trace, const ProfileSource& profiles);

}  // namespace mosim
