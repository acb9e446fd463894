// Cluster configuration YAML: server groups and default policies.
#include "mosim/cluster_config.hpp"

#include <climits>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/contention.hpp"
#include "mosim/error.hpp"
#include "mosim/placement.hpp"
#include "mosim/queue.hpp"
#include "mosim/units.hpp"
#include "mosim/text.hpp"
#include "workload/yaml_input.hpp"

namespace mosim {

namespace {

// `mosim run`'s defaults (src/cli/run.cpp).
constexpr int kDefaultGpus = 8;
constexpr int kDefaultCpus = 256;
constexpr std::string_view kDefaultNic = "463 MB/s";
constexpr std::string_view kDefaultIntra = "16384 MB/s";
constexpr int kMaxServers = 1'000'000;

double bandwidthValue(const YAML::Node& node, const std::string& file, std::string_view key) {
  const std::string text = detail::scalarText(node, file, key);
  try {
    const double rate_Bps = parseBandwidth_Bps(text);
    if (!(rate_Bps > 0)) throw std::invalid_argument(fmt::format("'{}' must be positive", text));
    return rate_Bps;
  } catch (const std::invalid_argument& error) {
    throw InputError(file, detail::lineOf(node), std::string(key), error.what());
  }
}

void addGroup(ClusterSpec& spec, const YAML::Node& group, const std::string& file) {
  const std::size_t line = detail::lineOf(group);
  if (!group.IsMap())
    throw InputError(file, line, "servers", "a server group must be a map with at least `count`");
  detail::rejectUnknownKeys(
      group, {"count", "gpus", "gpu_type", "cpus", "nic_bandwidth", "intra_bandwidth"}, file);

  const YAML::Node count_node = group["count"];
  if (!count_node.IsDefined())
    throw InputError(file, line, "count", "every server group needs a count");
  const int count = detail::integerValue(count_node, file, "count", 1, kMaxServers);

  ServerSpec server;
  server.gpus = kDefaultGpus;
  server.cpus = kDefaultCpus;
  server.nic_Bps = parseBandwidth_Bps(kDefaultNic);
  server.intra_Bps = parseBandwidth_Bps(kDefaultIntra);
  if (const YAML::Node gpus = group["gpus"]; gpus.IsDefined())
    server.gpus = detail::integerValue(gpus, file, "gpus", 1, 1 << 20);
  if (const YAML::Node cpus = group["cpus"]; cpus.IsDefined())
    server.cpus = detail::integerValue(cpus, file, "cpus", 1, 1 << 24);
  if (const YAML::Node nic = group["nic_bandwidth"]; nic.IsDefined())
    server.nic_Bps = bandwidthValue(nic, file, "nic_bandwidth");
  if (const YAML::Node intra = group["intra_bandwidth"]; intra.IsDefined())
    server.intra_Bps = bandwidthValue(intra, file, "intra_bandwidth");
  if (const YAML::Node type = group["gpu_type"]; type.IsDefined()) {
    try {
      server.gpu_type = canonicalGpuType(detail::scalarText(type, file, "gpu_type"));
    } catch (const std::invalid_argument& error) {
      throw InputError(file, detail::lineOf(type), "gpu_type", error.what());
    }
  }

  if (spec.servers.size() + static_cast<std::size_t>(count) > kMaxServers)
    throw InputError(file, detail::lineOf(count_node), "count",
                     fmt::format("more than {} servers in all", kMaxServers));
  if (static_cast<long long>(spec.totalGpus()) + static_cast<long long>(count) * server.gpus >
      INT_MAX)
    throw InputError(file, line, "gpus", "too many GPUs in all");
  spec.servers.insert(spec.servers.end(), static_cast<std::size_t>(count), server);
}

template <class RegistryType>
std::optional<std::string> policyName(const YAML::Node& root, const char* key,
                                      const std::string& file) {
  const YAML::Node node = root[key];
  if (!node.IsDefined()) return std::nullopt;
  const std::string name = detail::scalarText(node, file, key);
  if (!RegistryType::instance().contains(name)) {
    std::string known;
    for (const auto& [registered, description] : RegistryType::instance().list())
      known += (known.empty() ? "" : ", ") + registered;
    throw InputError(file, detail::lineOf(node), key,
                     fmt::format("unknown name '{}' (known: {})", name, known));
  }
  return name;
}

}  // namespace

ClusterConfig parseClusterConfig(std::string_view yaml, const std::string& name) {
  const YAML::Node root = detail::loadYaml(yaml, name);
  if (!root.IsMap())
    throw InputError(name, detail::lineOf(root), "servers",
                     "a cluster configuration is a map with a `servers` list");
  detail::rejectUnknownKeys(root, {"servers", "placement", "queue", "contention"}, name);

  ClusterConfig config;
  config.path = name;
  const YAML::Node groups = root["servers"];
  if (!groups.IsDefined() || groups.IsNull())
    throw InputError(name, detail::lineOf(root), "servers", "the cluster has no `servers` list");
  if (!groups.IsSequence())
    throw InputError(name, detail::lineOf(groups), "servers", "expected a list of server groups");
  for (const YAML::Node& group : groups) addGroup(config.spec, group, name);
  if (config.spec.servers.empty())
    throw InputError(name, detail::lineOf(groups), "servers", "the cluster has no servers");

  config.placement = policyName<PlacementRegistry>(root, "placement", name);
  config.queue = policyName<QueueRegistry>(root, "queue", name);
  config.contention = policyName<ContentionRegistry>(root, "contention", name);
  return config;
}

ClusterConfig readClusterConfig(const std::string& path) {
  return parseClusterConfig(readTextFile(path), path);
}

}  // namespace mosim

namespace mosim {

TraceReport dropJobsWithoutGpuType(Trace& trace, const ClusterSpec& spec) {
  TraceReport report;
  report.source = "cluster GPU types";
  std::erase_if(trace.jobs, [&](const Job& job) {
    if (spec.hasGpuType(job.gpu_type)) return false;
    const std::string reason = fmt::format("no server has GPU type {}", job.gpu_type);
    const std::string name = job.name.empty() ? std::to_string(job.id) : job.name;
    report.skip(reason, fmt::format("{}:{}: job {}: {}", trace.path, job.source_line, name, reason));
    return true;
  });
  report.kept = trace.jobs.size();
  return report;
}

}  // namespace mosim
