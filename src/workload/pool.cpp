// Workload pools: the built-in one (the paper's Table I) and pool YAML files.
#include <array>
#include <climits>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/workload.hpp"
#include "mosim/text.hpp"
#include "workload/yaml_input.hpp"

namespace mosim {

namespace {

struct TableIEntry {
  std::string_view model;
  std::string_view dataset;
  int batch_per_gpu;  // the artifact's per-GPU batch (its network-summary file's batch / workers)
  std::string_view framework;
};

constexpr std::array<TableIEntry, 12> kTableI{{
    {"alexnet", "cifar10", 4096, "tensorflow"},
    {"resnet44", "cifar10", 1024, "tensorflow"},
    {"resnet110", "cifar10", 1024, "tensorflow"},
    {"densenet40_k12", "cifar10", 1024, "tensorflow"},
    {"densenet100_k12", "cifar10", 128, "tensorflow"},
    {"resnet50", "imagenet", 128, "tensorflow"},
    {"vgg16", "imagenet", 128, "tensorflow"},
    {"googlenet", "imagenet", 256, "tensorflow"},
    {"inception3", "imagenet", 64, "tensorflow"},
    {"bert", "squad", 4, "pytorch"},
    {"gpt2", "imdb", 4, "pytorch"},
    {"whisper", "synthetic", 4, "pytorch"},
}};

WorkloadEntry entryFromYaml(const YAML::Node& node, const std::string& file) {
  const std::size_t line = detail::lineOf(node);
  if (!node.IsMap())
    throw InputError(file, line, "", "a pool entry must be a map with at least a `model` key");
  detail::rejectUnknownKeys(
      node, {"model", "dataset", "batch_per_gpu", "framework", "collective", "gpus", "weight"},
      file);

  WorkloadEntry entry;
  entry.source_line = line;
  const YAML::Node model = node["model"];
  if (!model.IsDefined()) throw InputError(file, line, "model", "every entry needs a model");
  entry.model = canonicalModelName(detail::scalarText(model, file, "model"));
  if (entry.model.empty()) throw InputError(file, detail::lineOf(model), "model", "is empty");

  if (const YAML::Node dataset = node["dataset"]; dataset.IsDefined())
    entry.details.dataset = detail::scalarText(dataset, file, "dataset");
  if (const YAML::Node framework = node["framework"]; framework.IsDefined())
    entry.details.framework = detail::scalarText(framework, file, "framework");
  if (const YAML::Node collective = node["collective"]; collective.IsDefined())
    entry.details.collective = detail::scalarText(collective, file, "collective");
  if (const YAML::Node batch = node["batch_per_gpu"]; batch.IsDefined())
    entry.details.batch_per_gpu = detail::integerValue(batch, file, "batch_per_gpu", 1, INT_MAX);

  if (const YAML::Node gpus = node["gpus"]; gpus.IsDefined()) {
    if (gpus.IsSequence()) {
      for (const YAML::Node& count : gpus)
        entry.gpu_counts.push_back(detail::integerValue(count, file, "gpus", 1, INT_MAX));
      if (entry.gpu_counts.empty())
        throw InputError(file, detail::lineOf(gpus), "gpus",
                         "an empty list allows no GPU count; leave the key out to allow any");
    } else {
      entry.gpu_counts.push_back(detail::integerValue(gpus, file, "gpus", 1, INT_MAX));
    }
  }

  if (const YAML::Node weight = node["weight"]; weight.IsDefined()) {
    entry.weight = detail::numberValue(weight, file, "weight");
    if (entry.weight < 0)
      throw InputError(file, detail::lineOf(weight), "weight",
                       fmt::format("{} is negative", entry.weight));
  }
  return entry;
}

}  // namespace

WorkloadPool defaultWorkloadPool() {
  WorkloadPool pool;
  pool.path = "the default pool (paper Table I)";
  for (const TableIEntry& row : kTableI) {
    WorkloadEntry entry;
    entry.model = std::string(row.model);
    entry.details.dataset = std::string(row.dataset);
    entry.details.batch_per_gpu = row.batch_per_gpu;
    entry.details.framework = std::string(row.framework);
    entry.details.collective = "ring";
    pool.entries.push_back(std::move(entry));
  }
  return pool;
}

WorkloadPool parseWorkloadPool(std::string_view yaml, const std::string& name) {
  const YAML::Node root = detail::loadYaml(yaml, name);
  YAML::Node list = root;
  if (root.IsMap()) {
    detail::rejectUnknownKeys(root, {"workloads"}, name);
    list = root["workloads"];
    if (!list.IsDefined())
      throw InputError(name, detail::lineOf(root), "workloads", "the pool has no `workloads` list");
  }
  if (!list.IsSequence() && !list.IsNull())
    throw InputError(name, detail::lineOf(list), "workloads", "expected a list of workloads");

  WorkloadPool pool;
  pool.path = name;
  if (list.IsSequence())
    for (const YAML::Node& node : list) pool.entries.push_back(entryFromYaml(node, name));
  if (pool.entries.empty()) throw InputError(name, 0, "workloads", "the pool is empty");

  double total_weight = 0;
  for (const WorkloadEntry& entry : pool.entries) total_weight += entry.weight;
  if (!std::isfinite(total_weight) || total_weight <= 0)
    throw InputError(name, 0, "weight",
                     fmt::format("the weights sum to {}; at least one must be positive",
                                 total_weight));
  return pool;
}

WorkloadPool readWorkloadPool(const std::string& path) {
  return parseWorkloadPool(readTextFile(path), path);
}

}  // namespace mosim
