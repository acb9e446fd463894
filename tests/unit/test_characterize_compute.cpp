#define BOOST_TEST_MODULE characterize_compute
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "characterize/models.hpp"
#include "mosim/characterize.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::detail;

namespace {

// Round numbers so that every expectation below can be worked out by hand.
GpuSpec toyGpu() {
  GpuSpec g;
  g.name = "toy";
  g.fp32_flops = 1e12;
  g.tf32_flops = 0;  // Volta-like: no TF32
  g.fp16_flops = 8e12;
  g.memory_Bps = 1e11;
  g.memory_bytes = 1e9;
  g.intra_link = "NVLink";
  g.intra_link_Bps = 1e10;
  g.intra_step_latency_s = 1e-6;
  g.launch_s = 1e-5;
  g.efficiency = ComputeEfficiency{/*conv=*/0.5, /*conv3x3=*/1.0, /*gemm=*/0.25, /*tensor_core=*/0.5, /*memory=*/1.0};
  return g;
}

Layer linearLayer() {
  Layer l;
  l.name = "fc";
  l.type = "linear";
  l.op_class = OpClass::Gemm;
  l.params = 1e5;
  l.param_tensors = 2;
  l.fwd_macs = 1e6;
  l.fwd_flops = 2e6;        // per sample
  l.fwd_elems_moved = 1000;  // per sample
  return l;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

const ModelPool& pool() {
  static const ModelPool p = ModelPool::builtin();
  return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(roofline_of_a_compute_bound_layer) {
  // Batch 100: 2e8 FLOPs at 1e12 x 0.25 = 0.8 ms; 100 x 1000 x 4 B + 1e5 x 4 B = 8e5 B at 1e11 B/s
  // = 8 us, so math bounds it: 0.8 ms + a 10 us launch. Backward: twice that.
  const LayerTime t = layerTime(linearLayer(), toyGpu(), 100, Precision::Fp32, Framework::PyTorch);
  BOOST_TEST(close(t.forward_s, 0.8e-3 + 1e-5));
  BOOST_TEST(close(t.backward_s, 2 * (0.8e-3 + 1e-5)));
  // AMP: 8e12 x 0.5 = 4e12 FLOP/s -> 50 us; bytes halve to 4e5 (4 us): 50 + 10 us.
  const LayerTime amp = layerTime(linearLayer(), toyGpu(), 100, Precision::Amp, Framework::PyTorch);
  BOOST_TEST(close(amp.forward_s, 50e-6 + 1e-5));
}

BOOST_AUTO_TEST_CASE(roofline_of_a_memory_bound_layer) {
  Layer relu;
  relu.op_class = OpClass::Memory;
  relu.fwd_flops = 1e6;
  relu.fwd_elems_moved = 1e6;
  // Batch 10: 1e7 elements x 4 B = 4e7 B at 1e11 B/s = 0.4 ms (its FLOPs never count) + launch.
  const LayerTime t = layerTime(relu, toyGpu(), 10, Precision::Fp32, Framework::TensorFlow);
  BOOST_TEST(close(t.forward_s, 0.4e-3 + 1e-5));
}

BOOST_AUTO_TEST_CASE(which_peak_each_operator_uses) {
  GpuSpec volta = toyGpu();
  BOOST_TEST(mathRate_flops(OpClass::Conv, volta, Precision::Fp32, Framework::PyTorch) == 0.5e12);
  BOOST_TEST(mathRate_flops(OpClass::ConvWinograd, volta, Precision::Fp32, Framework::PyTorch) == 1e12);
  BOOST_TEST(mathRate_flops(OpClass::Gemm, volta, Precision::Fp32, Framework::TensorFlow) == 0.25e12);
  BOOST_TEST(mathRate_flops(OpClass::Gemm, volta, Precision::Amp, Framework::PyTorch) == 4e12);
  GpuSpec ampere = toyGpu();
  ampere.tf32_flops = 4e12;
  // FP32 convolutions run in TF32 in both frameworks (x tensor-core efficiency 0.5 = 2e12); matmuls
  // only in TensorFlow; PyTorch keeps them in FP32 (1e12 x 0.25).
  BOOST_TEST(mathRate_flops(OpClass::Conv, ampere, Precision::Fp32, Framework::PyTorch) == 2e12);
  BOOST_TEST(mathRate_flops(OpClass::ConvWinograd, ampere, Precision::Fp32, Framework::PyTorch) == 2e12);
  BOOST_TEST(mathRate_flops(OpClass::Gemm, ampere, Precision::Fp32, Framework::PyTorch) == 0.25e12);
  BOOST_TEST(mathRate_flops(OpClass::Gemm, ampere, Precision::Fp32, Framework::TensorFlow) == 2e12);
}

BOOST_AUTO_TEST_CASE(optimizer_step_by_hand) {
  ModelGraph m;
  Layer l = linearLayer();
  l.params = 1e6;
  l.param_tensors = 4;
  m.layers = {l};
  m.optimizer = Optimizer::SgdMomentum;
  // SGD with momentum: 20 B per parameter = 2e7 B at 1e11 B/s = 0.2 ms, + 4 launches of 10 us.
  BOOST_TEST(close(optimizerTime_s(m, toyGpu(), Precision::Fp32), 0.2e-3 + 4e-5));
  m.optimizer = Optimizer::Adam;  // 28 B per parameter
  BOOST_TEST(close(optimizerTime_s(m, toyGpu(), Precision::Fp32), 0.28e-3 + 4e-5));
  BOOST_TEST(close(optimizerTime_s(m, toyGpu(), Precision::Amp), 0.30e-3 + 4e-5));  // + FP16 copy
}

BOOST_AUTO_TEST_CASE(memory_estimate_by_hand) {
  const auto toy = readModelsYaml(mosim::test::kTestData + "/characterize/toy.yaml").front();
  // 5,354 parameters x (4 weight + 4 gradient + 4 momentum) = 64,248 B; kept activations per
  // sample: conv output 512 + linear output 10 + loss 10 = 532 elements, x 2 samples x 4 B = 4,256 B.
  JobSpec job;
  job.batch_per_gpu = 2;
  BOOST_TEST(memoryPerGpu_bytes(toy, job) == 64248 + 4256);
}

BOOST_AUTO_TEST_CASE(compute_time_is_the_sum_of_its_parts) {
  const GpuSpec gpu = GpuCatalog::builtin().find("V100-SXM2-16GB");
  JobSpec job;
  job.batch_per_gpu = 128;
  const Characterization c = characterize(pool().find("resnet50"), gpu, job);
  BOOST_TEST(close(c.t_comp_s, c.t_forward_s + c.t_backward_s + c.t_optimizer_s));
  BOOST_TEST(close(c.t_backward_s, 2 * c.t_forward_s));
  BOOST_TEST(c.t_net_s == 0.0);  // one worker
  BOOST_TEST(c.net_rate_Bps == 0.0);
  BOOST_TEST(c.v_net_bytes == 0.0);
  BOOST_TEST(c.grad_bytes == 4.0 * 25557032);
}

BOOST_AUTO_TEST_CASE(published_throughput_anchors) {
  // NVIDIA DeepLearningExamples, ResNet-50 (facts.md). V100-16G FP32 at batch 112: 367 img/s (the
  // FP32 efficiencies are fitted to the artifact's table, not to this); A100-80G TF32 at 256:
  // 938 img/s (the tensor-core efficiency is set from it).
  const GpuCatalog gpus = GpuCatalog::builtin();
  JobSpec job;
  job.batch_per_gpu = 112;
  const double v100 = 112 / characterize(pool().find("resnet50"), gpus.find("V100-SXM2-16GB"), job).iteration_s();
  BOOST_TEST(std::abs(v100 / 367 - 1) < 0.05, "V100 FP32: " << v100 << " img/s");
  job.batch_per_gpu = 256;
  const double a100 = 256 / characterize(pool().find("resnet50"), gpus.find("A100-SXM4-80GB"), job).iteration_s();
  BOOST_TEST(std::abs(a100 / 938 - 1) < 0.05, "A100 TF32: " << a100 << " img/s");
  // Newer GPUs are faster on the same job.
  const double h100 = 256 / characterize(pool().find("resnet50"), gpus.find("H100-SXM"), job).iteration_s();
  BOOST_TEST(h100 > a100);
}

BOOST_AUTO_TEST_CASE(invalid_jobs_are_rejected_naming_the_option) {
  const GpuSpec gpu = GpuCatalog::builtin().find("V100-SXM2-16GB");
  const ModelGraph& vgg = pool().find("vgg16");
  const auto message = [&](JobSpec job) -> std::string {
    try {
      characterize(vgg, gpu, job);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  JobSpec job;
  job.batch_per_gpu = 0;
  BOOST_TEST(message(job).find("--batch") != std::string::npos);
  job.batch_per_gpu = 4096;  // ~240 GiB of activations
  BOOST_TEST(message(job).find("GiB") != std::string::npos);
  BOOST_TEST(message(job).find("--batch 4096") != std::string::npos);
  job.batch_per_gpu = 128;
  job.num_gpus = 2;
  job.servers = 3;
  BOOST_TEST(message(job).find("--servers") != std::string::npos);
  job.servers = 1;
  job.num_gpus = 0;
  BOOST_TEST(message(job).find("--gpus") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(every_pool_model_fits_a_v100_at_the_artifacts_batch) {
  const GpuSpec gpu = GpuCatalog::builtin().find("V100-SXM2-16GB");
  for (const auto& m : pool().models()) {
    JobSpec job;
    job.batch_per_gpu = m.default_batch;
    BOOST_TEST(memoryPerGpu_bytes(m, job) < gpu.memory_bytes, m.name);
  }
}

BOOST_AUTO_TEST_CASE(precision_names) {
  BOOST_TEST((parsePrecision("fp32") == Precision::Fp32));
  BOOST_TEST((parsePrecision("amp") == Precision::Amp));
  BOOST_CHECK_THROW(parsePrecision("fp16"), std::invalid_argument);
  BOOST_TEST(std::string(precisionName(Precision::Amp)) == "amp");
}
