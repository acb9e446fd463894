// The compute model: every operator is a roofline (math at peak x efficiency of its class, memory
// traffic at HBM bandwidth x efficiency, whichever is slower) plus a kernel launch.
//
// Precision: FP32 convolutions and matmuls run on CUDA cores on Volta. On GPUs with TF32 tensor
// cores, cuDNN convolutions use TF32 by default in both frameworks, and TensorFlow (>= 2.4) also
// runs matmuls in TF32, while PyTorch keeps matmuls in FP32 unless asked (allow_tf32 defaults to
// False since 1.12). AMP runs both on FP16 tensor cores with 2-byte activations.
#include <algorithm>

#include "characterize/models.hpp"

namespace mosim::detail {

namespace {

constexpr double kFp32Bytes = 4;
constexpr double kFp16Bytes = 2;
constexpr double kBackwardFactor = 2;  // input gradients + weight gradients (facts.md: ~2x forward)

double elementBytes(Precision precision) { return precision == Precision::Amp ? kFp16Bytes : kFp32Bytes; }

}  // namespace

double mathRate_flops(OpClass op_class, const GpuSpec& gpu, Precision precision, Framework framework) {
  const ComputeEfficiency& eff = gpu.efficiency;
  if (precision == Precision::Amp) return gpu.fp16_flops * eff.tensor_core;
  const bool is_conv = op_class == OpClass::Conv || op_class == OpClass::ConvWinograd;
  const bool tf32 = gpu.tf32_flops > 0 && (is_conv || framework == Framework::TensorFlow);
  if (tf32) return gpu.tf32_flops * eff.tensor_core;
  switch (op_class) {
    case OpClass::Conv: return gpu.fp32_flops * eff.conv;
    case OpClass::ConvWinograd: return gpu.fp32_flops * eff.conv3x3;
    case OpClass::Gemm: return gpu.fp32_flops * eff.gemm;
    case OpClass::Memory: break;
  }
  return gpu.fp32_flops * eff.gemm;  // not used: memory operators are bandwidth-bound
}

LayerTime layerTime(const Layer& layer, const GpuSpec& gpu, int batch, Precision precision, Framework framework) {
  const double bytes = batch * layer.fwd_elems_moved * elementBytes(precision) +
                       (layer.params + layer.frozen_params) * elementBytes(precision);
  const double memory_s = bytes / (gpu.memory_Bps * gpu.efficiency.memory);
  double forward_s = memory_s;
  if (layer.op_class != OpClass::Memory)
    forward_s = std::max(forward_s, batch * layer.fwd_flops / mathRate_flops(layer.op_class, gpu, precision, framework));
  return LayerTime{forward_s + gpu.launch_s, kBackwardFactor * (forward_s + gpu.launch_s)};
}

std::vector<LayerTime> layerTimes(const ModelGraph& model, const GpuSpec& gpu, int batch, Precision precision) {
  std::vector<LayerTime> times;
  times.reserve(model.layers.size());
  for (const Layer& layer : model.layers) times.push_back(layerTime(layer, gpu, batch, precision, model.framework));
  return times;
}

double optimizerTime_s(const ModelGraph& model, const GpuSpec& gpu, Precision precision) {
  // SGD with momentum reads weight, gradient and momentum and writes weight and momentum (5 x 4 B);
  // Adam also reads and writes the second moment (7 x 4 B). AMP writes the FP16 copy (2 B).
  double bytes_per_param = model.optimizer == Optimizer::Adam ? 28 : 20;
  if (precision == Precision::Amp) bytes_per_param += kFp16Bytes;
  return model.parameters() * bytes_per_param / (gpu.memory_Bps * gpu.efficiency.memory) +
         model.gradientTensors() * gpu.launch_s;
}

}  // namespace mosim::detail

namespace mosim {

std::vector<OperatorTime> operatorTimes(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job) {
  std::vector<OperatorTime> result;
  for (const auto& t : detail::layerTimes(model, gpu, job.batch_per_gpu, job.precision))
    result.push_back({t.forward_s, t.backward_s});
  return result;
}

}  // namespace mosim
