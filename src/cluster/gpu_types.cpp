// GPU types by name, and a one-line description of a cluster.
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "mosim/cluster.hpp"
#include "mosim/gpu_catalog.hpp"
#include "mosim/text.hpp"

namespace mosim {

namespace {

bool sameShape(const ServerSpec& a, const ServerSpec& b) {
  return a.gpus == b.gpus && a.gpu_type == b.gpu_type;
}

}  // namespace

const std::vector<std::string>& knownGpuTypes() {
  // The names of characterization's built-in GPU catalog, so that every server type is one it
  // can characterize (GpuCatalog::find(server.gpu_type)).
  static const std::vector<std::string> kTypes = [] {
    const GpuCatalog catalog = GpuCatalog::builtin();
    std::vector<std::string> names;
    for (const GpuSpec& gpu : catalog.gpus()) names.push_back(gpu.name);
    return names;
  }();
  return kTypes;
}

std::string canonicalGpuType(std::string_view name) {
  for (const std::string& known : knownGpuTypes())
    if (equalsIgnoringCase(known, name)) return known;
  throw std::invalid_argument(fmt::format("unknown GPU type '{}' (known: {})", name,
                                          fmt::join(knownGpuTypes(), ", ")));
}

std::string describeCluster(const ClusterSpec& spec) {
  // Runs of consecutive servers with the same GPU count and type.
  std::vector<std::pair<std::size_t, const ServerSpec*>> runs;
  for (const ServerSpec& server : spec.servers) {
    if (!runs.empty() && sameShape(*runs.back().second, server))
      ++runs.back().first;
    else
      runs.emplace_back(1, &server);
  }
  if (runs.size() == 1 && runs.front().second->gpu_type.empty())
    return fmt::format("{} x {} GPUs", runs.front().first, runs.front().second->gpus);

  std::string text;
  for (const auto& [count, server] : runs) {
    if (!text.empty()) text += " + ";
    text += fmt::format("{} x {} {}", count, server->gpus,
                        server->gpu_type.empty() ? "untyped GPUs" : server->gpu_type);
  }
  return fmt::format("{} ({} GPUs)", text, spec.totalGpus());
}

}  // namespace mosim
