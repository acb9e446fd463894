// GPU-free characterization (paper §IV-A2): a data-parallel job's per-iteration compute time,
// network time and network volume from its model description, GPU type and placement, without a
// GPU. The results feed mosim's profiles (profile.hpp): T_comp, T_net, C_j and the loading time.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "mosim/gpu_catalog.hpp"
#include "mosim/model_graph.hpp"
#include "mosim/profile.hpp"

namespace mosim {

enum class Precision {
  Fp32,  ///< FP32 storage; convolutions (and TensorFlow's matmuls) use TF32 on Ampere and later
  Amp,   ///< automatic mixed precision: FP16 tensor-core math and activations, FP32 master weights
};
Precision parsePrecision(const std::string& text);  ///< "fp32" or "amp"; std::invalid_argument otherwise
const char* precisionName(Precision precision);

/// How gradients travel between the workers (network_model.cpp). The defaults are NCCL's.
struct NetworkSpec {
  double nic_Bps = 463e6;               ///< per server and direction (the artifact's 5 Gbps NIC)
  double net_step_latency_s = 9.6e-6;   ///< per ring step crossing the network (NCCL, Simple)
  double bucket_bytes = 25.0 * (1 << 20);       ///< PyTorch DDP's bucket_cap_mb = 25
  double first_bucket_bytes = 1.0 * (1 << 20);  ///< DDP's smaller first bucket
  /// The framework's own cost beyond NCCL's wire latencies, per collective call and per ring
  /// step (0 for a bare NCCL stack; fitted for the artifact's testbed, see calibration.hpp).
  double software_collective_s = 0;
  double software_step_s = 0;
  /// PyTorch DDP overlaps bucket all-reduces with the backward pass (true for a bare NCCL stack).
  /// False: every collective waits for the end of the backward pass, as measured on the testbed.
  bool overlap_backward = true;
  /// The testbed's reporting rule (0: off): it counted at most ceiling x (N + 2) / 4 seconds of an
  /// iteration as network time and the rest as compute (experiments/characterization/README.md).
  double report_ceiling_s = 0;
};

/// One data-parallel job to characterize.
struct JobSpec {
  int num_gpus = 1;
  int servers = 1;  ///< workers spread evenly over this many servers (1: no NIC)
  int batch_per_gpu = 0;
  Precision precision = Precision::Fp32;
};

/// Per-iteration times and volumes of one job running alone.
struct Characterization {
  // Compute (per worker; all workers are identical).
  double t_forward_s = 0;
  double t_backward_s = 0;
  double t_optimizer_s = 0;
  double t_comp_s = 0;  ///< forward + backward + optimizer (+ what a reporting rule moves here)
  // Gradient exchange.
  double grad_bytes = 0;   ///< gradient size: trainable parameters x 4 bytes (FP32 gradients)
  double v_net_bytes = 0;  ///< ring all-reduce bytes each worker sends per iteration, 2(N-1)/N x grad
  int collectives = 0;     ///< all-reduce calls per iteration (tensors or buckets)
  double t_comm_s = 0;     ///< all collectives back to back, including what the backward pass hides
  double t_net_s = 0;      ///< what the iteration waits for beyond compute (exposed communication)
  double net_rate_Bps = 0; ///< C_j: per-server demand D = v_net / T_net, C_j = N/2 D (N > 2), 2 D (N = 2)
  bool uses_nic = false;   ///< the job spans servers
  // Once per job and memory.
  double loading_s = 0;
  double memory_bytes = 0;  ///< per GPU: weights, gradients, optimizer state, activations
  double iteration_s() const { return t_comp_s + t_net_s; }
};

/// A built-in sequence model rebuilt for another input length: tokens for bert (<= 512) and gpt2
/// (<= 1024), decoder tokens for whisper (<= 448), 16 kHz audio samples for wav2vec2. Other
/// models have no sequence length (std::invalid_argument).
ModelGraph builtinModel(const std::string& name, int sequence_length);

/// Characterizes `job` of `model` on `gpu`. Invalid jobs (zero batch or GPUs, more servers than
/// GPUs, a workload that does not fit the GPU's memory) throw std::invalid_argument naming the
/// option at fault.
Characterization characterize(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job,
                              const NetworkSpec& network = {});

/// Per-operator forward and backward times of one iteration (the compute model's detail, in
/// model.layers order), for reports such as `mosim characterize --layers`.
struct OperatorTime {
  double forward_s = 0;
  double backward_s = 0;
};
std::vector<OperatorTime> operatorTimes(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job);

/// Estimated memory per GPU (bytes): weights, gradients and optimizer state for every parameter,
/// plus activations kept for the backward pass times the batch.
double memoryPerGpu_bytes(const ModelGraph& model, const JobSpec& job);

/// The model pool: the built-in models plus those added from YAML, by name.
class ModelPool {
 public:
  static ModelPool builtin();
  const ModelGraph& find(const std::string& name) const;  ///< std::invalid_argument when unknown
  bool contains(const std::string& name) const;
  void add(ModelGraph model);  ///< adds or replaces
  void addYaml(const std::string& path);
  const std::vector<ModelGraph>& models() const { return models_; }

 private:
  std::vector<ModelGraph> models_;
};

/// A ProfileSource that characterizes on demand (`mosim run --profile auto`).
class CharacterizedProfiles final : public ProfileSource {
 public:
  struct Config {
    std::string gpu = "V100-SXM2-16GB";  ///< default GPU type when a query names none
    double nic_Bps = 463e6;
    int gpus_per_server = 8;
    Precision precision = Precision::Fp32;
    /// Per-GPU batch by model; models not listed use their pool default (the artifact's batches).
    std::map<std::string, int> batch_per_gpu;
    /// The communication stack; the default is the artifact's testbed (testbedNetwork()).
    std::optional<NetworkSpec> network;
    /// How many servers a job of N GPUs spans when the query does not say: "spread" puts it on
    /// min(N, 2) servers, as the artifact's real-GPU profiles were measured; "pack" on as few
    /// servers as hold it (ceil(N / gpus_per_server)).
    std::string default_placement = "spread";
  };

  CharacterizedProfiles(Config config, ModelPool pool = ModelPool::builtin(),
                        GpuCatalog gpus = GpuCatalog::builtin());

  std::optional<Profile> profile(const ProfileQuery& query) const override;
  std::string describe() const override;
  /// The full characterization behind a profile (for reports and tests).
  Characterization characterization(const ProfileQuery& query) const;
  /// Servers a job of `num_gpus` spans for this query (its own `servers`, or the default rule).
  int serversFor(const ProfileQuery& query) const;
  /// The per-GPU batch used for a model (configured, else the pool's default).
  int batchFor(const std::string& model) const;

 private:
  Config config_;
  ModelPool pool_;
  GpuCatalog gpus_;
  NetworkSpec network_;
  // Characterizations by (model, GPUs, servers, GPU type): a trace asks for the same few many times.
  mutable std::mutex cache_mutex_;
  mutable std::map<std::tuple<std::string, int, int, std::string>, Characterization> cache_;
};

/// The artifact's testbed stack (two 8-GPU V100 servers, Kubernetes pods, 5 Gbps NIC): NCCL's
/// latencies plus the fitted per-step software cost (calibration.hpp), with the given NIC.
NetworkSpec testbedNetwork(double nic_Bps);

/// A communication stack by name: "testbed" (testbedNetwork) or "nccl" (bare NCCL over the given
/// NIC). Throws std::invalid_argument for any other name.
NetworkSpec networkStack(const std::string& name, double nic_Bps);

/// Writes a profile table for `models` x `worker_counts` x `gpus` into `folder`: mosim's format
/// (profiles.csv, plus a gpu column when more than one GPU type), and per GPU type the artifact's
/// iteration-time CSV and network-summary CSV ("Sum of Max TX+RX (MB/s)" in decimal MB/s).
/// Returns the files written.
std::vector<std::string> writePoolProfiles(const std::string& folder, const CharacterizedProfiles& source,
                                           const std::vector<std::string>& models,
                                           const std::vector<int>& worker_counts,
                                           const std::vector<std::string>& gpus);

// --- ASTRA-sim interoperability -------------------------------------------------------------

/// ASTRA-sim's text workload: line 1 "DATA" (data parallel), line 2 the layer count, then one line
/// per layer with 12 columns: name, reserved, forward compute, forward comm type, forward comm
/// bytes, input-grad compute, comm type, comm bytes, weight-grad compute, comm type, comm bytes,
/// update delay. Compute columns are ns in ASTRA-sim 1.0 and us from the Chakra converter.
struct AstraLayer {
  std::string name;
  double forward_compute = 0, input_grad_compute = 0, weight_grad_compute = 0;  // in the file's unit
  std::string forward_comm = "NONE", input_grad_comm = "NONE", weight_grad_comm = "ALLREDUCE";
  double forward_comm_bytes = 0, input_grad_comm_bytes = 0, weight_grad_comm_bytes = 0;
  double update_delay = 0;
};
struct AstraWorkload {
  std::string parallelism = "DATA";
  std::vector<AstraLayer> layers;
};

/// Reads a workload; errors are InputErrors naming file, line and column.
AstraWorkload readAstraWorkload(const std::string& path);
void writeAstraWorkload(const std::string& path, const AstraWorkload& workload);
/// A model's characterized layers in ASTRA-sim's format (compute in `compute_unit_s`, 1e-9 or
/// 1e-6), weight-gradient all-reduce of each layer's gradient bytes.
AstraWorkload astraWorkload(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job,
                            double compute_unit_s);
/// A profile from an ASTRA-sim workload: T_comp = sum of compute columns; the all-reduce bytes go
/// through the same ring model as characterize() (no overlap: ASTRA-sim's workloads run layer by
/// layer). `compute_unit_s` is 1e-9 (ns) or 1e-6 (us).
Characterization characterizeAstra(const AstraWorkload& workload, const GpuSpec& gpu, const JobSpec& job,
                                   const NetworkSpec& network, double compute_unit_s);

}  // namespace mosim
