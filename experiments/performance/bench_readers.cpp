// Trace-reader benchmarks: reading a 100,000-job trace in every supported format (target: under
// one second each). The inputs are written into a temporary folder at start, from one synthetic
// Philly-like trace, and removed at the end. Run: build/experiments/performance/mosim_bench_readers
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "mosim/synthetic.hpp"
#include "mosim/trace.hpp"
#include "mosim/workload.hpp"

namespace {

using namespace mosim;

constexpr std::size_t kJobs = 100000;
constexpr double kEpoch_s = 1506988800;  // 2017-10-03 00:00:00 UTC

/// "2017-10-03 02:47:23" for seconds since kEpoch_s (whole seconds).
std::string dateTime(double seconds_after_epoch) {
  const auto total = static_cast<long long>(seconds_after_epoch);
  const long long day = total / 86400, second_of_day = total % 86400;
  // Days after 2017-10-03 with 31-day months are close enough for a benchmark's dates; keep them
  // valid by staying inside each month.
  const long long month = day / 28, day_of_month = day % 28;
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", 2017 + (9 + month) / 12,
                     (9 + month) % 12 + 1, day_of_month + 1, second_of_day / 3600,
                     second_of_day % 3600 / 60, second_of_day % 60);
}

struct Inputs {
  std::filesystem::path folder;
  std::vector<std::pair<std::string, std::string>> files;  // benchmark name, path
};

Inputs writeInputs() {
  SyntheticSpec spec;
  spec.seed = 1;
  spec.jobs = kJobs;
  spec.rate_per_s = 0.05;
  Trace trace = generateSyntheticTrace(spec);
  augmentTrace(trace, defaultWorkloadPool(), {});

  Inputs inputs;
  inputs.folder = std::filesystem::temp_directory_path() /
                  fmt::format("mosim_bench_readers_{}", static_cast<long long>(::getpid()));
  std::filesystem::create_directories(inputs.folder);
  const auto path = [&](const char* name) { return (inputs.folder / name).string(); };

  writeMosimTrace(path("mosim.csv"), trace);
  {
    std::ofstream out(path("artifact.csv"));
    out << "job_id,model,arrival_time,duration,gpu_workers,ps,gpu_per_worker,cpu_per_gpu_worker,"
           "cpu_per_ps_worker,tensorsizes,skewness,profiled_network\n";
    for (const Job& j : trace.jobs)
      out << fmt::format("{},{},{},{},{},0,1,5,5,1560,7.3,1300\n", j.id, j.model, j.submit_s,
                         j.duration_s, j.num_gpus);
  }
  {
    std::ofstream out(path("philly.json"));
    out << "[\n";
    for (const Job& j : trace.jobs) {
      // Every tenth job has a failed first attempt on one GPU before its real run.
      const double start_s = j.submit_s + 30;
      std::string detail = "[";
      for (int g = 0; g < j.num_gpus; ++g)
        detail += fmt::format("{}{{\"ip\": \"m{}\", \"gpus\": [\"gpu{}\"]}}", g ? ", " : "",
                              j.id % 500 + g / 8, g % 8);
      detail += "]";
      std::string attempts;
      if (j.id % 10 == 0)
        attempts += fmt::format(
            "{{\"start_time\": \"{}\", \"end_time\": \"{}\", \"detail\": [{{\"ip\": \"m0\", "
            "\"gpus\": [\"gpu0\"]}}]}}, ",
            dateTime(start_s - 20), dateTime(start_s - 10));
      attempts += fmt::format("{{\"start_time\": \"{}\", \"end_time\": \"{}\", \"detail\": {}}}",
                              dateTime(start_s), dateTime(start_s + j.duration_s), detail);
      out << fmt::format(
          "{}{{\"jobid\": \"application_1506638472019_{}\", \"vc\": \"vc{}\", \"user\": \"u{}\", "
          "\"status\": \"{}\", \"submitted_time\": \"{}\", \"attempts\": [{}]}}\n",
          j.id ? "," : "", j.id, j.id % 14, j.id % 300, j.id % 7 ? "Pass" : "Killed",
          dateTime(j.submit_s), attempts);
    }
    out << "]\n";
  }
  for (const char* name : {"helios.csv", "acme.csv"}) {
    const bool helios = std::string(name) == "helios.csv";
    std::ofstream out(path(name));
    out << fmt::format("job_id,user,{},gpu_num,cpu_num,node_num,state,submit_time,start_time,"
                       "end_time,duration,queue\n",
                       helios ? "vc" : "type");
    for (const Job& j : trace.jobs) {
      const double start_s = j.submit_s + 30;
      if (helios)
        out << fmt::format("job{},u{},vc{},{},{},{},COMPLETED,{},{},{},{},30\n", j.id, j.id % 300,
                           j.id % 14, j.num_gpus, 4 * j.num_gpus, (j.num_gpus + 7) / 8,
                           dateTime(j.submit_s), dateTime(start_s), dateTime(start_s + j.duration_s),
                           static_cast<long long>(j.duration_s));
      else
        out << fmt::format("dlc{},u{},Pretrain,{},{},{},COMPLETED,{},{},{},{},30\n", j.id,
                           j.id % 300, j.num_gpus, 4 * j.num_gpus, (j.num_gpus + 7) / 8,
                           static_cast<long long>(kEpoch_s + j.submit_s),
                           static_cast<long long>(kEpoch_s + start_s),
                           static_cast<long long>(kEpoch_s + start_s + j.duration_s),
                           static_cast<long long>(j.duration_s));
    }
  }
  {
    std::ofstream out(path("tiresias.csv"));
    out << "job_id,num_gpu,submit_time,iterations,model_name,duration,interval\n";
    for (const Job& j : trace.jobs)
      out << fmt::format("{},{},{},{},{},{},10\n", j.id, j.num_gpus, j.submit_s, 1000, j.model,
                         j.duration_s);
  }
  {
    std::ofstream out(path("muri.csv"));
    out << "job_id,num_gpu,submit_time,iterations,model_name,batch_size,duration,interval,"
           "iteration_time,resource_time_0,resource_time_1,resource_time_2,priority\n";
    for (const Job& j : trace.jobs)
      out << fmt::format("{},{},{},{},{},128,{},1000,490,446,8,0,1\n", j.id, j.num_gpus,
                         static_cast<long long>(j.submit_s * 1000), 1000, j.model,
                         static_cast<long long>(j.duration_s * 1000));
  }
  {
    std::ofstream out(path("pollux.csv"));
    out << "name,time,application,num_replicas,batch_size\n";
    for (const Job& j : trace.jobs)
      out << fmt::format("{}-{},{},{},{},128\n", j.model, j.id, j.submit_s, j.model, j.num_gpus);
  }
  for (const char* name : {"mosim.csv", "artifact.csv", "philly.json", "helios.csv", "acme.csv",
                           "tiresias.csv", "muri.csv", "pollux.csv"})
    inputs.files.emplace_back(std::filesystem::path(name).stem().string(), path(name));
  return inputs;
}

void readFormat(benchmark::State& state, const std::string& path) {
  TraceOptions options;
  options.pollux_duration_s = 600;  // Pollux traces have no duration
  std::size_t jobs = 0;
  for (auto _ : state) {
    const Trace trace = readTraceFile(path, options);
    jobs = trace.jobs.size() + trace.report.skippedTotal();
    benchmark::DoNotOptimize(trace.jobs.data());
  }
  state.counters["jobs"] = static_cast<double>(jobs);
  state.counters["MB"] = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
  state.counters["jobs/s"] =
      benchmark::Counter(static_cast<double>(jobs), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

int main(int argc, char** argv) {
  const Inputs inputs = writeInputs();
  for (const auto& [name, path] : inputs.files)
    benchmark::RegisterBenchmark(("read_100k/" + name).c_str(), readFormat, path)
        ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  std::filesystem::remove_all(inputs.folder);
  return 0;
}
