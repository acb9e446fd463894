// Internal pieces of characterize(): the compute model (per-operator roofline) and the network
// model (ring all-reduce of gradient buckets), kept apart so that tests can check each by hand.
#pragma once

#include <utility>
#include <vector>

#include "mosim/characterize.hpp"

namespace mosim::detail {

/// Forward and backward time of one operator for a whole per-GPU batch.
struct LayerTime {
  double forward_s = 0;
  double backward_s = 0;
};

/// Peak x efficiency of the math of an operator class on a GPU, in FLOP/s.
double mathRate_flops(OpClass op_class, const GpuSpec& gpu, Precision precision, Framework framework);

/// Roofline time of one pass of a layer over `batch` samples: max(FLOPs / math rate, bytes / memory
/// rate) plus one kernel launch; the backward pass is 2x the forward in FLOPs, bytes and launches.
LayerTime layerTime(const Layer& layer, const GpuSpec& gpu, int batch, Precision precision, Framework framework);
std::vector<LayerTime> layerTimes(const ModelGraph& model, const GpuSpec& gpu, int batch, Precision precision);

/// The optimizer step: bytes per parameter (SGD with momentum 20, Adam 28, +2 with AMP's FP16
/// copy) through memory, plus one launch per gradient tensor.
double optimizerTime_s(const ModelGraph& model, const GpuSpec& gpu, Precision precision);

/// One all-reduce of a model's gradient: its bytes and when its last gradient is ready, counted
/// from the start of the backward pass.
struct Collective {
  double bytes = 0;
  double ready_s = 0;
};

/// The all-reduces of one iteration, in issue order. TensorFlow: one per gradient tensor, issued
/// once the backward pass is over (ready = backward end). PyTorch DDP: buckets of parameters in
/// reverse order (first one `first_bucket_bytes`, then `bucket_bytes`), each ready when the
/// backward pass has produced all its gradients (or at its end, without `overlap_backward`).
std::vector<Collective> gradientCollectives(const ModelGraph& model, const std::vector<LayerTime>& times,
                                            const NetworkSpec& network);

/// Time of one ring all-reduce of `bytes` over `num_gpus` workers spread over `servers` servers:
///   latency = 2(S-1) network steps + 2(N-S) intra-server steps (NCCL's per-step latencies, plus
///             the stack's per-step software cost) + the per-collective software cost
///   transfer = 2(N-1)/N x bytes / bottleneck, where the bottleneck is the NIC (per direction)
///              when the ring spans servers, else the intra-server link.
double allReduceTime_s(double bytes, int num_gpus, int servers, const GpuSpec& gpu, const NetworkSpec& network);

/// Runs the collectives one after another, each starting when ready and when the previous one
/// is done. Returns (total busy time, time past the end of the backward pass).
struct Exchange {
  double t_comm_s = 0;
  double exposed_s = 0;
};
Exchange runCollectives(const std::vector<Collective>& collectives, double backward_s, int num_gpus,
                        int servers, const GpuSpec& gpu, const NetworkSpec& network);

/// The testbed's reporting rule: at most ceiling x (N + 2) / 4 of the exposed communication is
/// network time; the rest moves to compute. Returns (t_comp_s, t_net_s); identity when off.
std::pair<double, double> reportedSplit(double t_comp_s, double exposed_s, int num_gpus, const NetworkSpec& network);

/// C_j from the per-worker ring volume and T_net: D = v / T_net; C_j = 2D (N = 2), N/2 D (N > 2).
double networkRate_Bps(double v_net_bytes, double t_net_s, int num_gpus);

/// The loading-time estimate (calibration.hpp).
double loadingTime_s(const ModelGraph& model, const JobSpec& job);

}  // namespace mosim::detail
