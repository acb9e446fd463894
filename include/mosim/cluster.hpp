// The cluster: servers with GPUs, CPUs and network interfaces, and which of them are free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mosim {

using ServerIndex = std::uint32_t;

struct ServerSpec {
  int gpus = 8;
  int cpus = 256;
  double nic_Bps = 0;    ///< NIC bandwidth C of this server
  double intra_Bps = 0;  ///< intra-server (NVLink/PCIe) bandwidth IC
  std::string gpu_type;  ///< informational until heterogeneous clusters land
};

struct ClusterSpec {
  std::vector<ServerSpec> servers;

  static ClusterSpec homogeneous(int servers, int gpus_per_server, int cpus_per_server,
                                 double nic_Bps, double intra_Bps);
  int totalGpus() const;
};

/// One server index per worker, in the order the placement policy chose them.
using Allocation = std::vector<ServerIndex>;

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
