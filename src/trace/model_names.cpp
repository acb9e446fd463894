#include <functional>
#include <map>

#include "mosim/job.hpp"

namespace mosim {

std::string canonicalModelName(const std::string& name) {
  // run.sh's mapping (mosim-reference.md §2.2) read backwards: workload id -> model name.
  static const std::map<std::string, std::string, std::less<>> kNames{
      {"workload_01", "alexnet"},
      {"workload_02", "bert"},
      {"workload_04", "densenet100_k12"},
      {"workload_05", "densenet40_k12"},
      {"workload_06", "googlenet"},
      {"workload_07", "gpt2"},
      {"workload_11", "inception3"},
      {"workload_12", "resnet110"},
      {"workload_13", "resnet44"},
      {"workload_14", "resnet50"},
      {"workload_16", "vgg16"},
      {"workload_17", "wav2vec2"},
      {"workload_18", "whisper"},
  };
  const auto found = kNames.find(name);
  return found == kNames.end() ? name : found->second;
}

}  // namespace mosim
