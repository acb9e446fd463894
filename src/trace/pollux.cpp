// Pollux's workload traces (Qiao et al., OSDI'21): name,time,application,num_replicas,batch_size;
// time is the submission in seconds. Pollux runs each job to a fixed amount of work, so its traces
// have no duration: a `duration` column (seconds) is used when the file has one; otherwise
// TraceOptions must give a fixed duration or ask for durations drawn from Philly's run times.
// The application names the model, except Pollux's two Table I models: `imagenet` (ResNet-50 on
// ImageNet) becomes resnet50 and `bert` (BERT fine-tuned on SQuAD) bert; the others (cifar10,
// deepspeech2, yolov3, ncf) keep their names and need profiles or augmentation. batch_size (the
// initial global batch, which Pollux adapts) is not used.
#include <cmath>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/synthetic.hpp"
#include "trace/trace_readers.hpp"
#include "workload/random.hpp"

namespace mosim::detail {

namespace {

std::pair<std::string, std::string> modelAndDataset(const std::string& application) {
  if (application == "imagenet") return {"resnet50", "imagenet"};
  if (application == "bert") return {"bert", "squad"};
  return {canonicalModelName(application), ""};
}

}  // namespace

Trace polluxTraceFromTable(const CsvTable& table, const TraceOptions& options) {
  const std::size_t name_column = table.require("name");
  const std::size_t time = table.require("time");
  const std::size_t num_replicas = table.require("num_replicas");
  const auto application = table.find("application");
  const auto duration = table.find("duration");
  if (!duration && !options.pollux_duration_s && !options.pollux_philly_durations)
    throw InputError(table.path(), 1, "duration",
                     "Pollux traces have no duration: give one (--pollux-duration SECONDS) or "
                     "draw them from Philly's run times (--pollux-duration philly)");
  if (!duration && options.pollux_duration_s &&
      !(std::isfinite(*options.pollux_duration_s) && *options.pollux_duration_s > 0))
    throw std::invalid_argument(fmt::format("the Pollux job duration must be positive, not {}",
                                            *options.pollux_duration_s));

  std::mt19937_64 random(options.seed);
  Trace trace;
  trace.path = table.path();
  for (const CsvTable::Row& row : table) {
    const std::string name(row.text(name_column));
    const auto skip = [&](const std::string& reason) {
      trace.report.skip(reason, skipExample(trace.path, row.line(), name, reason));
    };
    const auto gpus = lenientNumber(row, num_replicas);
    const auto submit_s = lenientNumber(row, time);
    std::optional<double> duration_s;
    if (duration)
      duration_s = lenientNumber(row, *duration);
    else if (options.pollux_philly_durations)
      duration_s = phillyDurationQuantile_s(uniform01(random));  // one draw per row, kept or not
    else
      duration_s = options.pollux_duration_s;

    if (const auto reason = unusableJob(row, num_replicas, {gpus, submit_s, duration_s})) {
      skip(*reason);
      continue;
    }

    Job job;
    job.id = static_cast<JobId>(trace.jobs.size());
    job.name = name;
    if (application) {
      auto [model, dataset] = modelAndDataset(std::string(row.text(*application)));
      job.model = std::move(model);
      job.workload.dataset = std::move(dataset);
    }
    job.submit_s = *submit_s;
    job.num_gpus = static_cast<int>(*gpus);
    job.duration_s = *duration_s;
    job.source_line = row.line();
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

}  // namespace mosim::detail
