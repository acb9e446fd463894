#include "mosim/cluster.hpp"

#include <algorithm>
#include <stdexcept>

namespace mosim {

ClusterSpec ClusterSpec::homogeneous(int servers, int gpus_per_server, int cpus_per_server,
                                     double nic_Bps, double intra_Bps) {
  ClusterSpec spec;
  spec.servers.assign(static_cast<std::size_t>(servers),
                      ServerSpec{gpus_per_server, cpus_per_server, nic_Bps, intra_Bps, ""});
  return spec;
}

int ClusterSpec::totalGpus() const {
  int total = 0;
  for (const auto& server : servers) total += server.gpus;
  return total;
}

bool ClusterSpec::hasGpuType(std::string_view gpu_type) const {
  if (gpu_type.empty()) return true;
  return std::any_of(servers.begin(), servers.end(),
                     [&](const ServerSpec& server) { return server.gpu_type == gpu_type; });
}

std::vector<std::string> allocationGpuTypes(const ClusterSpec& spec, const Allocation& allocation) {
  std::vector<std::string> types;
  types.reserve(allocation.size());
  for (ServerIndex s : allocation) types.push_back(spec.servers.at(s).gpu_type);
  return types;
}

ClusterState::ClusterState(const ClusterSpec& spec) : spec_(&spec) {
  for (const auto& server : spec.servers) {
    free_gpus_.push_back(server.gpus);
    free_cpus_.push_back(server.cpus);
    total_free_gpus_ += server.gpus;
    total_free_cpus_ += server.cpus;
  }
}

void ClusterState::allocate(const Allocation& allocation, int cpus_per_worker) {
  for (ServerIndex s : allocation) {
    if (s >= servers() || free_gpus_[s] < 1 || free_cpus_[s] < cpus_per_worker)
      throw std::logic_error("placement proposed a server without free resources");
    free_gpus_[s] -= 1;
    free_cpus_[s] -= cpus_per_worker;
  }
  total_free_gpus_ -= static_cast<int>(allocation.size());
  total_free_cpus_ -= static_cast<int>(allocation.size()) * cpus_per_worker;
}

void ClusterState::release(const Allocation& allocation, int cpus_per_worker) {
  for (ServerIndex s : allocation) {
    const ServerSpec& server = spec_->servers[s];
    const int gpus = std::min(free_gpus_[s] + 1, server.gpus);
    const int cpus = std::min(free_cpus_[s] + cpus_per_worker, server.cpus);
    total_free_gpus_ += gpus - free_gpus_[s];
    total_free_cpus_ += cpus - free_cpus_[s];
    free_gpus_[s] = gpus;
    free_cpus_[s] = cpus;
  }
}

}  // namespace mosim
