// Rough profiles from model sizes alone (facts.md: parameters and forward multiply-accumulates per
// sample; V100-SXM2 FP32 peak 15.7 TFLOPS). The 0.4 efficiency puts ResNet-50 at about 0.5 s per
// 128-image iteration, against NVIDIA's measured 367 img/s (0.35 s) and the artifact's 0.30–0.36 s.
#include <array>
#include <string_view>

#include "mosim/example.hpp"

namespace mosim {
namespace {

struct ModelSize {
  std::string_view name;
  double parameters;
  double forward_macs_per_sample;
  int batch_per_gpu;  // the artifact's batch sizes (network-summary file) per GPU
};

constexpr std::array<ModelSize, 13> kModels{{
    {"alexnet", 1.756e6, 32.8e6, 4096},
    {"resnet44", 0.659e6, 97.2e6, 1024},
    {"resnet110", 1.728e6, 252.9e6, 1024},
    {"densenet40_k12", 1.021e6, 264.8e6, 1024},
    {"densenet100_k12", 6.982e6, 1769.5e6, 128},
    {"resnet50", 25.557032e6, 4.09e9, 128},
    {"vgg16", 138.357544e6, 15.47e9, 128},
    {"googlenet", 6.624904e6, 1.50e9, 256},
    {"inception3", 27.161264e6, 5.71e9, 64},
    {"bert", 109.5e6, 35.4e9, 4},
    {"gpt2", 124.4e6, 145.8e9, 4},
    {"whisper", 244e6, 543e9, 4},
    {"wav2vec2", 95e6, 70e9, 4},  // wav2vec2-base on ~15 s clips: a rough figure
}};

constexpr double kPeak_flops = 15.7e12;  // V100-SXM2 FP32
constexpr double kEfficiency = 0.4;
constexpr double kBytesPerParameter = 4;  // fp32 gradients
constexpr double kLoadingFixed_s = 15;
constexpr double kLoadingRate_Bps = 50e6;

class EstimatedProfiles final : public ProfileSource {
 public:
  explicit EstimatedProfiles(double nic_Bps) : nic_Bps_(nic_Bps) {}

  std::optional<Profile> profile(const ProfileQuery& query) const override {
    for (const auto& model : kModels) {
      if (model.name != query.model) continue;
      const int n = query.num_gpus;
      const double gradient_bytes = kBytesPerParameter * model.parameters;
      Profile p;
      p.t_comp_s = 3 * 2 * model.forward_macs_per_sample * model.batch_per_gpu /
                   (kPeak_flops * kEfficiency);
      p.loading_s = kLoadingFixed_s + gradient_bytes / kLoadingRate_Bps;
      if (n >= 2) {
        p.t_net_s = 2.0 * (n - 1) / n * gradient_bytes / nic_Bps_;
        // Eq. 7: per-server demand D = C_j/2 for two workers, 2 C_j / N beyond; here D = NIC.
        p.net_rate_Bps = n == 2 ? 2 * nic_Bps_ : nic_Bps_ * n / 2;
      }
      return p;
    }
    return std::nullopt;
  }

  std::string describe() const override { return "built-in estimate from model sizes"; }

 private:
  double nic_Bps_;
};

}  // namespace

std::unique_ptr<ProfileSource> estimatedProfiles(double nic_Bps) {
  return std::make_unique<EstimatedProfiles>(nic_Bps);
}

}  // namespace mosim
