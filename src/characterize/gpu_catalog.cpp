// The built-in GPU catalog and its YAML extension.
//
// Peaks are dense (no sparsity) data-sheet figures (facts.md). The intra-server link bandwidth is
// per GPU and direction: NVLink 2/3/4 give 300/600/900 GB/s in total per GPU, half of it each way;
// PCIe Gen3/Gen4 x16 give 16/32 GB/s per direction. Per-step latencies are NCCL's (Simple
// protocol, src/graph/tuning.cc): NVLink 3.4 us, PCIe 5.7 us. Kernel launches cost ~4 us.
//
// YAML schema (any number of entries; every field but `name` and the peaks has a default):
//   gpus:
//     - name: L40S
//       fp32_tflops: 91.6          # dense FP32
//       tf32_tflops: 183           # dense TF32 tensor cores (0 or absent: none)
//       fp16_tflops: 362           # dense FP16 tensor cores
//       memory_bandwidth: 864 GB/s
//       memory_gib: 48
//       intra_link: PCIe           # or NVLink
//       intra_bandwidth: 32 GB/s   # per GPU and direction
//       intra_latency_us: 5.7      # per ring step
//       launch_overhead_us: 4
//       efficiency: {conv: 0.5, conv3x3: 1.0, gemm: 0.6, tensor_core: 0.35, memory: 0.7}
#include "mosim/gpu_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "characterize/calibration.hpp"
#include "characterize/yaml_fields.hpp"

namespace mosim {

namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kNvlinkLatency_s = 3.4e-6;
constexpr double kPcieLatency_s = 5.7e-6;
constexpr double kLaunch_s = 4e-6;

GpuSpec gpu(const char* name, double fp32_tflops, double tf32_tflops, double fp16_tflops,
            double memory_GBps, double memory_gib, const char* link, double link_GBps) {
  GpuSpec spec;
  spec.name = name;
  spec.fp32_flops = fp32_tflops * kTera;
  spec.tf32_flops = tf32_tflops * kTera;
  spec.fp16_flops = fp16_tflops * kTera;
  spec.memory_Bps = memory_GBps * kGiga;
  spec.memory_bytes = memory_gib * kGiB;
  spec.intra_link = link;
  spec.intra_link_Bps = link_GBps * kGiga;
  spec.intra_step_latency_s = std::string(link) == "NVLink" ? kNvlinkLatency_s : kPcieLatency_s;
  spec.launch_s = kLaunch_s;
  // One set of efficiencies for every GPU: calibrated on V100 (calibration.hpp); the other GPUs
  // have no public per-operator measurements to fit, so they borrow them.
  spec.efficiency = calibration::kEfficiency;
  return spec;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

GpuCatalog GpuCatalog::builtin() {
  GpuCatalog catalog;
  catalog.add(gpu("V100-SXM2-16GB", 15.7, 0, 125, 900, 16, "NVLink", 150));
  catalog.add(gpu("V100-PCIe-16GB", 14.0, 0, 112, 900, 16, "PCIe", 16));
  catalog.add(gpu("A100-SXM4-40GB", 19.5, 156, 312, 1555, 40, "NVLink", 300));
  catalog.add(gpu("A100-SXM4-80GB", 19.5, 156, 312, 2039, 80, "NVLink", 300));
  catalog.add(gpu("A100-PCIe-80GB", 19.5, 156, 312, 1935, 80, "PCIe", 32));
  catalog.add(gpu("H100-SXM", 67, 495, 989, 3350, 80, "NVLink", 450));
  return catalog;
}

bool GpuCatalog::contains(const std::string& name) const {
  return std::any_of(gpus_.begin(), gpus_.end(), [&](const GpuSpec& g) { return lower(g.name) == lower(name); });
}

const GpuSpec& GpuCatalog::find(const std::string& name) const {
  for (const auto& g : gpus_)
    if (lower(g.name) == lower(name)) return g;
  std::string known;
  for (const auto& g : gpus_) known += (known.empty() ? "" : ", ") + g.name;
  throw std::invalid_argument(fmt::format("unknown GPU '{}' (known: {})", name, known));
}

void GpuCatalog::add(const GpuSpec& spec) {
  for (auto& g : gpus_)
    if (lower(g.name) == lower(spec.name)) {
      g = spec;
      return;
    }
  gpus_.push_back(spec);
}

void GpuCatalog::addYaml(const std::string& path) {
  const yaml::Field root{path, yaml::loadFile(path), ""};
  const yaml::Field list = root.at("gpus");
  if (!list.node.IsSequence() || list.node.size() == 0) list.fail("expected a list of GPUs");
  for (std::size_t i = 0; i < list.node.size(); ++i) {
    const yaml::Field entry = list.at(i);
    GpuSpec spec;
    spec.name = entry.at("name").text();
    spec.fp32_flops = entry.at("fp32_tflops").positive() * kTera;
    spec.tf32_flops = entry.has("tf32_tflops") ? entry.at("tf32_tflops").number() * kTera : 0;
    if (spec.tf32_flops < 0) entry.at("tf32_tflops").fail("must not be negative");
    spec.fp16_flops = entry.at("fp16_tflops").positive() * kTera;
    spec.memory_Bps = entry.at("memory_bandwidth").bandwidth_Bps();
    spec.memory_bytes = entry.at("memory_gib").positive() * kGiB;
    spec.intra_link = entry.has("intra_link") ? entry.at("intra_link").text() : "PCIe";
    if (spec.intra_link != "NVLink" && spec.intra_link != "PCIe")
      entry.at("intra_link").fail(fmt::format("'{}' must be NVLink or PCIe", spec.intra_link));
    spec.intra_link_Bps = entry.has("intra_bandwidth") ? entry.at("intra_bandwidth").bandwidth_Bps() : 16 * kGiga;
    spec.intra_step_latency_s = entry.has("intra_latency_us") ? entry.at("intra_latency_us").positive() * 1e-6
                                : spec.intra_link == "NVLink" ? kNvlinkLatency_s
                                                              : kPcieLatency_s;
    spec.launch_s = entry.has("launch_overhead_us") ? entry.at("launch_overhead_us").positive() * 1e-6 : kLaunch_s;
    spec.efficiency = calibration::kEfficiency;
    if (const auto eff = entry.find("efficiency")) {
      const auto read = [&](const char* key, double& value) {
        if (eff->has(key)) value = eff->at(key).positive();
      };
      read("conv", spec.efficiency.conv);
      read("conv3x3", spec.efficiency.conv3x3);
      read("gemm", spec.efficiency.gemm);
      read("tensor_core", spec.efficiency.tensor_core);
      read("memory", spec.efficiency.memory);
    }
    add(spec);
  }
}

}  // namespace mosim
