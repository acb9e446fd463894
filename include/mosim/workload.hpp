// Job augmentation (paper §IV-A1): production traces say when a job came, how many GPUs it asked
// for and how long it ran, not what it trained. A workload pool lists candidate workloads; a
// seeded sampler attaches one to every job that has none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mosim/job.hpp"

namespace mosim {

struct WorkloadEntry {
  std::string model;            ///< canonical model name, e.g. "resnet50"
  WorkloadDetails details;      ///< dataset, batch per GPU, framework, collective algorithm
  std::vector<int> gpu_counts;  ///< GPU counts this workload may run on; empty = any
  double weight = 1;            ///< relative probability among the entries a job may take
  std::size_t source_line = 0;  ///< line in the pool file (0 for the built-in pool)
};

struct WorkloadPool {
  std::string path;  ///< the pool file, or "the default pool (paper Table I)"
  std::vector<WorkloadEntry> entries;
};

/// The paper's Table I: alexnet, resnet44, resnet110, densenet40_k12, densenet100_k12 on cifar10;
/// resnet50, vgg16, googlenet, inception3 on imagenet; bert on squad, gpt2 on imdb, whisper on
/// synthetic audio. Weight 1 each, any GPU count, ring all-reduce; per-GPU batches as in the
/// artifact's profiles. Framework: tensorflow for the CNNs (tf_cnn_benchmarks), pytorch for the
/// transformers.
WorkloadPool defaultWorkloadPool();

/// A pool YAML file:
///   workloads:
///     - model: resnet50        # required
///       dataset: imagenet
///       batch_per_gpu: 128
///       framework: pytorch
///       collective: ring
///       gpus: [1, 2, 4, 8]     # or one number; absent = any
///       weight: 2              # >= 0, default 1
/// (a bare list of entries is accepted too). Malformed YAML, unknown keys, an empty pool, bad
/// numbers, or weights that sum to zero are InputErrors naming the file, line and key.
WorkloadPool readWorkloadPool(const std::string& path);
/// The same from text; `name` stands in for the file name in messages.
WorkloadPool parseWorkloadPool(std::string_view yaml, const std::string& name);

enum class AugmentMode {
  Missing,  ///< only jobs without a model get a workload (the trace's own models stay)
  All,      ///< every job gets a workload from the pool, replacing the trace's model
};

enum class UnmatchedGpus {
  Skip,   ///< a job whose GPU count no entry allows is dropped and counted in the report
  Error,  ///< it is an InputError naming the trace line
};

struct AugmentOptions {
  std::uint64_t seed = 0;
  AugmentMode mode = AugmentMode::Missing;
  UnmatchedGpus unmatched = UnmatchedGpus::Skip;
};

/// Attaches a workload (model and details) to the jobs that need one. Each job's choice depends
/// only on the seed, its job id and the pool: u = (splitmix64(seed, id) >> 11) / 2^53 picks from
/// the cumulative weights of the entries that allow its GPU count, in pool order. So the same
/// seed gives the same assignment on every platform, whatever other jobs the trace holds.
/// Returns what was kept and skipped.
TraceReport augmentTrace(Trace& trace, const WorkloadPool& pool, const AugmentOptions& options);

}  // namespace mosim
