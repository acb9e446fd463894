#include "mosim/characterize.hpp"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "characterize/calibration.hpp"
#include "characterize/models.hpp"
#include "mosim/job.hpp"

namespace mosim {

Precision parsePrecision(const std::string& text) {
  if (text == "fp32") return Precision::Fp32;
  if (text == "amp") return Precision::Amp;
  throw std::invalid_argument(fmt::format("precision '{}' must be fp32 or amp", text));
}

const char* precisionName(Precision precision) { return precision == Precision::Amp ? "amp" : "fp32"; }

double memoryPerGpu_bytes(const ModelGraph& model, const JobSpec& job) {
  // Per trainable parameter: FP32 weight and gradient (8 B), optimizer state (momentum 4 B, Adam's
  // two moments 8 B), AMP's FP16 weight copy (2 B). Frozen tables: their weights (4 B).
  double per_param = 8 + (model.optimizer == Optimizer::Adam ? 8 : 4);
  if (job.precision == Precision::Amp) per_param += 2;
  const double activation_bytes = job.precision == Precision::Amp ? 2 : 4;
  const double frozen = model.totalParameters() - model.parameters();
  return model.parameters() * per_param + frozen * 4 +
         static_cast<double>(job.batch_per_gpu) * model.savedElements() * activation_bytes;
}

Characterization characterize(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job,
                              const NetworkSpec& network) {
  if (job.num_gpus < 1) throw std::invalid_argument(fmt::format("--gpus must be at least 1, not {}", job.num_gpus));
  if (job.batch_per_gpu < 1)
    throw std::invalid_argument(fmt::format("--batch must be at least 1 sample per GPU, not {}", job.batch_per_gpu));
  if (job.servers < 1 || job.servers > job.num_gpus)
    throw std::invalid_argument(
        fmt::format("--servers must be between 1 and the GPU count {}, not {}", job.num_gpus, job.servers));
  if (!(network.nic_Bps > 0)) throw std::invalid_argument("--nic-bandwidth must be positive");

  Characterization c;
  c.memory_bytes = memoryPerGpu_bytes(model, job);
  if (c.memory_bytes > gpu.memory_bytes)
    throw std::invalid_argument(fmt::format(
        "--batch {}: {} needs about {:.1f} GiB per GPU (weights, gradients, optimizer state, activations), "
        "more than the {:.0f} GiB of a {}",
        job.batch_per_gpu, model.name, c.memory_bytes / (1 << 30), gpu.memory_bytes / (1 << 30), gpu.name));

  const auto times = detail::layerTimes(model, gpu, job.batch_per_gpu, job.precision);
  for (const auto& t : times) {
    c.t_forward_s += t.forward_s;
    c.t_backward_s += t.backward_s;
  }
  c.t_optimizer_s = detail::optimizerTime_s(model, gpu, job.precision);
  c.t_comp_s = c.t_forward_s + c.t_backward_s + c.t_optimizer_s;

  c.grad_bytes = 4 * model.parameters();
  c.uses_nic = job.servers > 1;
  if (job.num_gpus > 1) {
    const double n = job.num_gpus;
    c.v_net_bytes = 2 * (n - 1) / n * c.grad_bytes;
    const auto collectives = detail::gradientCollectives(model, times, network);
    c.collectives = static_cast<int>(collectives.size());
    const auto exchange =
        detail::runCollectives(collectives, c.t_backward_s, job.num_gpus, job.servers, gpu, network);
    c.t_comm_s = exchange.t_comm_s;
    std::tie(c.t_comp_s, c.t_net_s) = detail::reportedSplit(c.t_comp_s, exchange.exposed_s, job.num_gpus, network);
    c.net_rate_Bps = detail::networkRate_Bps(c.v_net_bytes, c.t_net_s, job.num_gpus);
  }
  c.loading_s = detail::loadingTime_s(model, job);
  return c;
}

NetworkSpec testbedNetwork(double nic_Bps) {
  NetworkSpec network;
  network.nic_Bps = nic_Bps;
  network.software_collective_s = calibration::kTestbedCollective_s;
  network.software_step_s = calibration::kTestbedStep_s;
  network.overlap_backward = calibration::kTestbedOverlap;
  network.report_ceiling_s = calibration::kTestbedReportCeiling_s;
  return network;
}

NetworkSpec networkStack(const std::string& name, double nic_Bps) {
  if (name == "testbed") return testbedNetwork(nic_Bps);
  if (name != "nccl") throw std::invalid_argument("unknown stack '" + name + "' (known: testbed, nccl)");
  NetworkSpec network;
  network.nic_Bps = nic_Bps;
  return network;
}

// --- Model pool -------------------------------------------------------------------------------

ModelPool ModelPool::builtin() {
  ModelPool pool;
  for (auto& model : builtinModels()) pool.add(std::move(model));
  return pool;
}

bool ModelPool::contains(const std::string& name) const {
  for (const auto& m : models_)
    if (m.name == name) return true;
  return false;
}

const ModelGraph& ModelPool::find(const std::string& name) const {
  for (const auto& m : models_)
    if (m.name == name) return m;
  std::string known;
  for (const auto& m : models_) known += (known.empty() ? "" : ", ") + m.name;
  throw std::invalid_argument(fmt::format("unknown model '{}' (known: {})", name, known));
}

void ModelPool::add(ModelGraph model) {
  for (auto& m : models_)
    if (m.name == model.name) {
      m = std::move(model);
      return;
    }
  models_.push_back(std::move(model));
}

void ModelPool::addYaml(const std::string& path) {
  for (auto& model : readModelsYaml(path)) add(std::move(model));
}

// --- ProfileSource ------------------------------------------------------------------------------

CharacterizedProfiles::CharacterizedProfiles(Config config, ModelPool pool, GpuCatalog gpus)
    : config_(std::move(config)), pool_(std::move(pool)), gpus_(std::move(gpus)) {
  if (config_.gpus_per_server < 1) throw std::invalid_argument("gpus per server must be at least 1");
  if (config_.default_placement != "spread" && config_.default_placement != "pack")
    throw std::invalid_argument(fmt::format("placement '{}' must be spread or pack", config_.default_placement));
  gpus_.find(config_.gpu);  // fail early on an unknown GPU
  for (const auto& [model, batch] : config_.batch_per_gpu) {
    pool_.find(model);
    if (batch < 1) throw std::invalid_argument(fmt::format("batch of {} must be at least 1, not {}", model, batch));
  }
  network_ = config_.network ? *config_.network : testbedNetwork(config_.nic_Bps);
  network_.nic_Bps = config_.nic_Bps;
}

int CharacterizedProfiles::serversFor(const ProfileQuery& query) const {
  if (query.servers > 0) return query.servers;
  const int packed = (query.num_gpus + config_.gpus_per_server - 1) / config_.gpus_per_server;
  if (config_.default_placement == "pack") return packed;
  return std::max(packed, std::min(query.num_gpus, 2));
}

int CharacterizedProfiles::batchFor(const std::string& model) const {
  const std::string name = canonicalModelName(model);
  const auto batch = config_.batch_per_gpu.find(name);
  return batch != config_.batch_per_gpu.end() ? batch->second : pool_.find(name).default_batch;
}

Characterization CharacterizedProfiles::characterization(const ProfileQuery& query) const {
  const ModelGraph& model = pool_.find(canonicalModelName(query.model));
  const GpuSpec& gpu = gpus_.find(query.gpu_type.empty() ? config_.gpu : query.gpu_type);
  JobSpec job;
  job.num_gpus = query.num_gpus;
  job.servers = serversFor(query);
  job.batch_per_gpu = batchFor(model.name);
  job.precision = config_.precision;
  const auto key = std::make_tuple(model.name, job.num_gpus, job.servers, gpu.name);
  {
    const std::lock_guard lock(cache_mutex_);
    if (const auto hit = cache_.find(key); hit != cache_.end()) return hit->second;
  }
  const Characterization c = characterize(model, gpu, job, network_);
  const std::lock_guard lock(cache_mutex_);
  cache_.emplace(key, c);
  return c;
}

std::optional<Profile> CharacterizedProfiles::profile(const ProfileQuery& query) const {
  if (!pool_.contains(canonicalModelName(query.model)) || query.num_gpus < 1) return std::nullopt;
  const Characterization c = characterization(query);
  return Profile{c.t_comp_s, c.t_net_s, c.net_rate_Bps, c.loading_s};
}

std::string CharacterizedProfiles::describe() const {
  return fmt::format("GPU-free characterization ({}, {}, NIC {:.0f} MB/s, {} GPUs per server, {} placement)",
                     config_.gpu, precisionName(config_.precision), config_.nic_Bps / 1e6,
                     config_.gpus_per_server, config_.default_placement);
}

}  // namespace mosim
