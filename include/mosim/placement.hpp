// Placement policies: where a job's workers go. Pure functions of the cluster's free resources;
// the engine commits what they propose.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mosim/cluster.hpp"
#include "mosim/registry.hpp"

namespace mosim {

struct PlacementRequest {
  int workers = 0;          ///< one GPU each
  int cpus_per_worker = 0;
  /// Only servers of this GPU type may take workers; empty = any server (the artifact's rule, bit
  /// for bit). Points into the job, which outlives the request.
  std::string_view gpu_type = {};
};

class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  /// Servers for the workers, in placement order, or nullopt when the job does not fit now.
  virtual std::optional<Allocation> place(const ClusterState& cluster,
                                          const PlacementRequest& request) const = 0;
};

using PlacementRegistry = Registry<PlacementPolicy>;

/// Builds a registered policy ("k8s-bin-packing", "k8s-load-balancing", "colocate", ...).
std::unique_ptr<PlacementPolicy> makePlacementPolicy(const std::string& name);

/// True when the job fits the empty cluster under this policy; a job that never fits is skipped.
bool fitsEmptyCluster(const PlacementPolicy& policy, const ClusterSpec& spec,
                      const PlacementRequest& request);

}  // namespace mosim
