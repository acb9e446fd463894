// The built-in example trace, drawn once with a fixed seed and kept here as data so that it never
// changes: exponential gaps at 0.005/s, GPUs 1/2/4/8 with weights .30/.25/.25/.20, log-normal
// durations (mu 6.6, sigma 1.0) clipped to [60 s, 3 h], models uniform over the paper's twelve.
#include <array>

#include "mosim/example.hpp"

namespace mosim {
namespace {

struct ExampleJob {
  double submit_s;
  int gpus;
  double duration_s;
  const char* model;
};

constexpr std::array<ExampleJob, 40> kJobs{{
    {4.74, 4, 386, "resnet110"},     {47.95, 1, 712, "vgg16"},
    {198.87, 1, 1225, "bert"},       {504.95, 8, 719, "alexnet"},
    {671.24, 8, 770, "gpt2"},        {830.77, 4, 1671, "bert"},
    {839.26, 2, 1731, "bert"},       {846.90, 8, 3092, "resnet110"},
    {1129.17, 2, 993, "vgg16"},      {1391.84, 1, 2424, "alexnet"},
    {1455.43, 2, 569, "resnet50"},   {1591.04, 2, 682, "gpt2"},
    {1617.27, 8, 1225, "alexnet"},   {2086.14, 2, 2389, "densenet40_k12"},
    {2227.01, 4, 148, "bert"},       {2307.62, 1, 458, "inception3"},
    {2384.03, 1, 1454, "vgg16"},     {2726.86, 4, 343, "whisper"},
    {2828.67, 1, 705, "whisper"},    {3074.57, 4, 3254, "densenet100_k12"},
    {3325.95, 4, 1314, "bert"},      {3409.49, 8, 1722, "whisper"},
    {3602.42, 2, 1256, "whisper"},   {3771.05, 1, 638, "densenet100_k12"},
    {4177.77, 2, 364, "vgg16"},      {4283.46, 4, 1549, "densenet100_k12"},
    {4284.20, 1, 10800, "gpt2"},     {4539.31, 4, 665, "bert"},
    {4704.09, 2, 424, "inception3"}, {5063.98, 1, 1952, "whisper"},
    {5378.09, 2, 963, "vgg16"},      {5595.34, 4, 1095, "inception3"},
    {5693.31, 1, 161, "bert"},       {5917.12, 1, 1049, "alexnet"},
    {5939.59, 4, 177, "bert"},       {5965.10, 1, 2141, "resnet50"},
    {6145.73, 8, 60, "densenet40_k12"}, {6399.15, 4, 538, "densenet40_k12"},
    {6400.91, 2, 202, "whisper"},    {6456.38, 8, 738, "resnet50"},
}};

}  // namespace

Trace builtinExampleTrace() {
  Trace trace;
  trace.path = "built-in example";
  for (std::size_t i = 0; i < kJobs.size(); ++i) {
    Job job;
    job.id = static_cast<JobId>(i);
    job.model = kJobs[i].model;
    job.submit_s = kJobs[i].submit_s;
    job.num_gpus = kJobs[i].gpus;
    job.duration_s = kJobs[i].duration_s;
    job.source_line = i + 1;
    trace.jobs.push_back(job);
  }
  return trace;
}

}  // namespace mosim
