// Profile tables for a model pool, in mosim's format and in the artifact's two CSV formats, so that
// `mosim run --profile` or `--iteration-profile/--network-profile --network-units MB/s` read them.
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "mosim/characterize.hpp"
#include "mosim/error.hpp"

namespace mosim {

namespace {

std::ofstream openForWriting(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError(path, 0, "", "cannot write the file");
  return out;
}

}  // namespace

std::vector<std::string> writePoolProfiles(const std::string& folder, const CharacterizedProfiles& source,
                                           const std::vector<std::string>& models,
                                           const std::vector<int>& worker_counts,
                                           const std::vector<std::string>& gpus) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw InputError(folder, 0, "", "cannot create the output folder: " + error.message());
  std::vector<std::string> written;
  for (const std::string& gpu : gpus) {
    const std::string profiles_path = fmt::format("{}/profiles-{}.csv", folder, gpu);
    const std::string iteration_path = fmt::format("{}/itertime-{}.csv", folder, gpu);
    const std::string network_path = fmt::format("{}/network-summary-{}.csv", folder, gpu);
    auto profiles = openForWriting(profiles_path);
    auto iteration = openForWriting(iteration_path);
    auto network = openForWriting(network_path);
    profiles << "model,num_gpus,t_comp_s,t_net_s,net_rate_Bps,loading_s\n";
    iteration << "model_name,iteration_computing_time,iteration_networking_time,gpu_workers,ps,loading_time\n";
    network << "Job ID,Data Set,Model,Sync/Async,Batch Size,Sum of Max TX+RX (B/s),Sum of Max TX+RX (MB/s),"
               "Number of Workers,Number of PSs,tensorsize,calculated communicated volume\n";
    int job_id = 0;
    for (const std::string& model : models) {
      for (const int workers : worker_counts) {
        const ProfileQuery query{model, workers, gpu};
        const Characterization c = source.characterization(query);
        const int batch = source.batchFor(model);
        profiles << fmt::format("{},{},{},{},{},{}\n", model, workers, c.t_comp_s, c.t_net_s, c.net_rate_Bps,
                                c.loading_s);
        iteration << fmt::format("{},{},{},{},0,{}\n", model, c.t_comp_s, c.t_net_s, workers, c.loading_s);
        network << fmt::format("{},characterized,{},sync,{},{:.0f},{:.4f},{},0,{:.4f},{:.4f}\n", job_id++, model,
                               batch * workers, c.net_rate_Bps, c.net_rate_Bps / 1e6, workers, c.grad_bytes / 1e6,
                               c.v_net_bytes / 1e6);
      }
    }
    for (auto* out : {&profiles, &iteration, &network})
      if (!*out) throw InputError(folder, 0, "", "cannot write the profile files");
    written.insert(written.end(), {profiles_path, iteration_path, network_path});
  }
  return written;
}

}  // namespace mosim
