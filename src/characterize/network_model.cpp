// The network model: data-parallel gradient exchange as NCCL's flat ring all-reduce.
//
// A ring of N workers over S servers moves 2(N-1)/N x bytes through every link in each direction
// (reduce-scatter then all-gather, nccl-tests' busbw factor). Per channel, exactly one GPU of each
// server receives from the network and one sends, so each server's NIC carries that volume per
// direction, whatever N and S; the other ring links are NVLink or PCIe. Of the 2(N-1) steps,
// 2(S-1) cross the network (NCCL's latency model).
#include <algorithm>
#include <cmath>

#include "characterize/models.hpp"

namespace mosim::detail {

double allReduceTime_s(double bytes, int num_gpus, int servers, const GpuSpec& gpu, const NetworkSpec& network) {
  if (num_gpus < 2) return 0;
  const double n = num_gpus;
  const double ring_bytes = 2 * (n - 1) / n * bytes;
  const int steps = 2 * (num_gpus - 1);
  const int network_steps = servers > 1 ? 2 * (servers - 1) : 0;
  const int intra_steps = steps - network_steps;
  const double latency_s = network.software_collective_s +
                           network_steps * (network.net_step_latency_s + network.software_step_s) +
                           intra_steps * (gpu.intra_step_latency_s + network.software_step_s);
  const double bottleneck_Bps = servers > 1 ? std::min(network.nic_Bps, gpu.intra_link_Bps) : gpu.intra_link_Bps;
  return latency_s + ring_bytes / bottleneck_Bps;
}

std::vector<Collective> gradientCollectives(const ModelGraph& model, const std::vector<LayerTime>& times,
                                            const NetworkSpec& network) {
  // When each layer's gradients are ready: the backward pass runs the layers in reverse order.
  std::vector<double> ready_s(model.layers.size());
  double clock_s = 0;
  for (std::size_t i = model.layers.size(); i-- > 0;) {
    clock_s += times[i].backward_s;
    ready_s[i] = clock_s;
  }
  const double backward_end_s = clock_s;

  std::vector<Collective> collectives;
  if (model.framework == Framework::TensorFlow) {
    // One all-reduce per gradient tensor, in backward order, once all gradients exist.
    for (std::size_t i = model.layers.size(); i-- > 0;) {
      const Layer& layer = model.layers[i];
      if (layer.param_tensors == 0) continue;
      const double tensor_bytes = 4 * layer.params / layer.param_tensors;
      for (int t = 0; t < layer.param_tensors; ++t) collectives.push_back({tensor_bytes, backward_end_s});
    }
    return collectives;
  }
  // PyTorch DDP: fill buckets with whole layers' gradients in reverse order; without overlap, all
  // buckets wait for the end of the backward pass.
  if (!network.overlap_backward) std::fill(ready_s.begin(), ready_s.end(), backward_end_s);
  Collective bucket;
  double cap_bytes = network.first_bucket_bytes;
  for (std::size_t i = model.layers.size(); i-- > 0;) {
    const Layer& layer = model.layers[i];
    if (layer.params <= 0) continue;
    bucket.bytes += 4 * layer.params;
    bucket.ready_s = ready_s[i];
    if (bucket.bytes >= cap_bytes) {
      collectives.push_back(bucket);
      bucket = Collective{};
      cap_bytes = network.bucket_bytes;
    }
  }
  if (bucket.bytes > 0) collectives.push_back(bucket);
  return collectives;
}

Exchange runCollectives(const std::vector<Collective>& collectives, double backward_s, int num_gpus,
                        int servers, const GpuSpec& gpu, const NetworkSpec& network) {
  Exchange result;
  if (num_gpus < 2) return result;
  double free_s = 0;  // when the communication channel is next free
  for (const Collective& c : collectives) {
    const double duration_s = allReduceTime_s(c.bytes, num_gpus, servers, gpu, network);
    free_s = std::max(free_s, c.ready_s) + duration_s;
    result.t_comm_s += duration_s;
  }
  result.exposed_s = std::max(0.0, free_s - backward_s);
  return result;
}

std::pair<double, double> reportedSplit(double t_comp_s, double exposed_s, int num_gpus, const NetworkSpec& network) {
  if (!(network.report_ceiling_s > 0) || num_gpus < 2) return {t_comp_s, exposed_s};
  const double ceiling_s = network.report_ceiling_s * (num_gpus + 2) / 4.0;
  if (exposed_s <= ceiling_s) return {t_comp_s, exposed_s};
  return {t_comp_s + exposed_s - ceiling_s, ceiling_s};
}

double networkRate_Bps(double v_net_bytes, double t_net_s, int num_gpus) {
  if (num_gpus < 2 || !(t_net_s > 0)) return 0;
  const double demand_Bps = v_net_bytes / t_net_s;  // per server (Eq. 7's D)
  return num_gpus == 2 ? 2 * demand_Bps : num_gpus / 2.0 * demand_Bps;
}

}  // namespace mosim::detail
