// GPU types for characterization: peak throughputs, memory, the intra-server link, launch overhead
// and the few efficiency parameters of the compute model (see compute_model.cpp). Built-in entries
// come from vendor data sheets (facts.md); users add more from YAML.
#pragma once

#include <string>
#include <vector>

namespace mosim {

/// Fractions of peak the compute model assumes, one per operator class (OpClass). These are the
/// only tuned numbers of the compute model; experiments/characterization/README.md says how the
/// built-in values were obtained.
struct ComputeEfficiency {
  double conv = 0.5;          ///< implicit-GEMM convolutions on CUDA cores (FP32), of FP32 peak
  double conv3x3 = 1.0;       ///< 3x3 stride-1 convolutions in FP32 (Winograd: may exceed 1)
  double gemm = 0.6;          ///< linear layers and attention matmuls in FP32, of FP32 peak
  double tensor_core = 0.35;  ///< any conv or matmul on tensor cores (TF32, FP16), of that peak
  double memory = 0.7;        ///< bandwidth-bound operators, of HBM bandwidth
};

struct GpuSpec {
  std::string name;
  double fp32_flops = 0;      ///< dense FP32 peak (CUDA cores)
  double tf32_flops = 0;      ///< dense TF32 tensor-core peak; 0: none (Volta)
  double fp16_flops = 0;      ///< dense FP16 tensor-core peak
  double memory_Bps = 0;      ///< HBM bandwidth
  double memory_bytes = 0;    ///< HBM capacity
  std::string intra_link;     ///< "NVLink" or "PCIe": how GPUs of one server reach each other
  double intra_link_Bps = 0;  ///< per GPU and direction
  double intra_step_latency_s = 0;  ///< per ring step over that link (NCCL's tuning table)
  double launch_s = 0;        ///< per kernel launch
  ComputeEfficiency efficiency;
};

class GpuCatalog {
 public:
  /// V100-SXM2-16GB, V100-PCIe-16GB, A100-SXM4-40GB, A100-SXM4-80GB, A100-PCIe-80GB, H100-SXM.
  static GpuCatalog builtin();

  /// The GPU of that name (case-insensitive), or an std::invalid_argument listing the known names.
  const GpuSpec& find(const std::string& name) const;
  bool contains(const std::string& name) const;
  /// Adds or replaces a GPU.
  void add(const GpuSpec& gpu);
  /// Adds the GPUs of a YAML file (schema in gpu_catalog.cpp); errors are InputErrors naming the
  /// file and field.
  void addYaml(const std::string& path);
  const std::vector<GpuSpec>& gpus() const { return gpus_; }

 private:
  std::vector<GpuSpec> gpus_;
};

}  // namespace mosim
