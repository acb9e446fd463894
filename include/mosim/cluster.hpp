// The cluster: servers with GPUs, CPUs and network interfaces, and which of them are free.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mosim {

using ServerIndex = std::uint32_t;

struct ServerSpec {
  int gpus = 8;
  int cpus = 256;
  double nic_Bps = 0;    ///< NIC bandwidth C of this server
  double intra_Bps = 0;  ///< intra-server (NVLink/PCIe) bandwidth IC
  std::string gpu_type;  ///< a knownGpuTypes() name; empty = untyped, taken only by untyped jobs
};

struct ClusterSpec {
  std::vector<ServerSpec> servers;

  static ClusterSpec homogeneous(int servers, int gpus_per_server, int cpus_per_server,
                                 double nic_Bps, double intra_Bps);
  int totalGpus() const;
  /// True when some server has this GPU type; an empty type (any) is always available.
  bool hasGpuType(std::string_view gpu_type) const;
};

/// One server index per worker, in the order the placement policy chose them.
using Allocation = std::vector<ServerIndex>;

/// The GPU type of each worker of an allocation, in worker order. The hook for characterization:
/// a job on mixed GPUs runs at the pace of its slowest GPU, so a profile query that knows these
/// types can answer for the slowest of them (see README "Workloads and clusters").
std::vector<std::string> allocationGpuTypes(const ClusterSpec& spec, const Allocation& allocation);

/// The GPU types mosim knows: the names of characterization's built-in GPU catalog
/// (gpu_catalog.hpp: V100-SXM2-16GB, V100-PCIe-16GB, A100-SXM4-40GB, A100-SXM4-80GB,
/// A100-PCIe-80GB, H100-SXM).
const std::vector<std::string>& knownGpuTypes();
/// The catalog's spelling of a known GPU type, matched without regard to case.
/// Throws std::invalid_argument naming the known types otherwise.
std::string canonicalGpuType(std::string_view name);

/// "4 x 8 GPUs" for a homogeneous cluster without GPU types (as `mosim run` always printed);
/// otherwise runs of identical servers: "2 x 8 V100-SXM2-16GB + 4 x 4 H100-SXM (32 GPUs)".
std::string describeCluster(const ClusterSpec& spec);

/// Free GPUs and CPUs per server: what placement policies read and the engine changes.
class ClusterState {
 public:
  explicit ClusterState(const ClusterSpec& spec);

  const ClusterSpec& spec() const { return *spec_; }
  std::size_t servers() const { return free_gpus_.size(); }
  int freeGpus(ServerIndex s) const { return free_gpus_[s]; }
  int freeCpus(ServerIndex s) const { return free_cpus_[s]; }
  int totalFreeGpus() const { return total_free_gpus_; }
  int totalFreeCpus() const { return total_free_cpus_; }

  /// Takes one GPU and `cpus_per_worker` CPUs per worker. Throws std::logic_error if the allocation
  /// does not fit (a placement policy bug).
  void allocate(const Allocation& allocation, int cpus_per_worker);
  /// Returns them (capped at each server's capacity, as the artifact does).
  void release(const Allocation& allocation, int cpus_per_worker);

 private:
  const ClusterSpec* spec_;
  std::vector<int> free_gpus_;
  std::vector<int> free_cpus_;
  int total_free_gpus_ = 0;
  int total_free_cpus_ = 0;
};

}  // namespace mosim
