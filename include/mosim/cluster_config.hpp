// Cluster configuration files (paper §IV-A1, "cluster configuration"): groups of servers, each
// with its own count, GPUs, GPU type, CPUs and bandwidths, plus the default scheduling policy.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mosim/cluster.hpp"
#include "mosim/job.hpp"

namespace mosim {

struct ClusterConfig {
  std::string path;
  ClusterSpec spec;  ///< servers in file order, each group's servers together
  /// Defaults for `mosim run`; an explicit command-line option overrides each.
  std::optional<std::string> placement, queue, contention;
};

/// A cluster YAML file:
///   servers:
///     - count: 2                     # required
///       gpus: 8                      # GPUs per server (default 8)
///       gpu_type: V100-SXM2-16GB     # one of knownGpuTypes(); absent = untyped
///       cpus: 256                    # default 256
///       nic_bandwidth: 463 MB/s      # with a unit (default 463 MB/s)
///       intra_bandwidth: 16384 MB/s  # with a unit (default 16384 MB/s)
///   placement: k8s-bin-packing       # optional, as `mosim run --placement`
///   queue: fifo                      # optional
///   contention: mosim                # optional
/// The defaults are `mosim run`'s. Malformed YAML, unknown keys, bad numbers, bandwidths without a
/// unit, unknown GPU types and unknown policy names are InputErrors naming the file, line and key.
ClusterConfig readClusterConfig(const std::string& path);
/// The same from text; `name` stands in for the file name in messages.
ClusterConfig parseClusterConfig(std::string_view yaml, const std::string& name);

/// Removes the jobs that ask for a GPU type no server of the cluster has; each is counted (reason
/// "no server has GPU type X") with a warning example. Jobs of a type that exists but with too few
/// GPUs are left to the engine, which reports them as unplaceable.
TraceReport dropJobsWithoutGpuType(Trace& trace, const ClusterSpec& spec);

}  // namespace mosim
