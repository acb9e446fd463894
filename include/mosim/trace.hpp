// Trace input: mosim's own CSV, the artifact's CSVs, and the public production-trace formats
// (Microsoft Philly, Helios, Acme, Tiresias/Muri, Pollux). README "Workloads and clusters" has the
// rules by which each format becomes jobs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mosim/job.hpp"

namespace mosim {

/// The artifact's trace CSV (mosim-reference.md §2.1): job_id, model, arrival_time, duration,
/// gpu_workers, gpu_per_worker, cpu_per_gpu_worker, and optional/ignored columns. Both its 16gpu
/// and 32gpu variants; model names go through canonicalModelName.
Trace readArtifactTrace(const std::string& path);

/// mosim's format: job_id,submit_time,num_gpus,duration[,model][,gpu_type][,name].
Trace readMosimTrace(const std::string& path);

/// Chooses the reader from the content (see detectTraceFormat), with default options:
/// readTraceFile(path, {}).
Trace readTrace(const std::string& path);

/// Checks what every reader must guarantee: at least one job, unique ids, finite non-negative
/// submit times, durations that are finite and positive, whole positive GPU counts. Throws
/// InputError naming the file, line and field.
void validateTrace(const Trace& trace);

// ---- The production-trace formats ---------------------------------------------------------------

enum class TraceFormat {
  Auto,        ///< detected from the content
  Mosim,       ///< job_id,submit_time,num_gpus,duration[,model][,gpu_type][,name]
  Artifact,    ///< the MoSim artifact's trace CSV
  PhillyJson,  ///< Microsoft Philly cluster_job_log: a JSON array of job records
  Helios,      ///< Helios CSV: job_id,user,vc,gpu_num,cpu_num,node_num,state,submit_time,...
  Acme,        ///< Acme CSV: the same with `type` instead of `vc`
  Tiresias,    ///< job_id,num_gpu,submit_time,iterations,model_name,duration,interval (and Muri's)
  Pollux,      ///< name,time,application,num_replicas,batch_size (no duration)
};

/// "auto", "mosim", "artifact", "philly", "helios", "acme", "tiresias", "pollux".
std::string_view traceFormatName(TraceFormat format);
/// The inverse of traceFormatName ("philly-json" is accepted too); throws std::invalid_argument.
TraceFormat parseTraceFormat(std::string_view name);

/// Where submit times start.
enum class TimeOrigin {
  Auto,      ///< FirstJob for the production formats, File for mosim's and the artifact's
  FirstJob,  ///< shift so that the first kept job submits at 0
  File,      ///< as the file says (epoch seconds stay epoch seconds)
};

/// The unit of the Tiresias format's times. Auto: milliseconds when the header has the Muri
/// variant's extra columns (iteration_time or resource_time_0), seconds otherwise.
enum class TimeUnit { Auto, Seconds, Milliseconds };

/// How a Philly job with several attempts becomes one job.
enum class PhillyAttempts {
  All,   ///< GPUs = the most any attempt held; duration = the sum of the attempts' run times
  Last,  ///< GPUs and duration of the last attempt that has both a start and an end time
};

struct TraceOptions {
  TraceFormat format = TraceFormat::Auto;
  TimeOrigin time_origin = TimeOrigin::Auto;
  /// Job states to keep, case-insensitive (Philly: Pass, Failed, Killed; Helios and Acme:
  /// COMPLETED, FAILED, CANCELLED, TIMEOUT, ...). Empty keeps every job. The other jobs are
  /// counted as skipped with reason "status X". Formats without a status ignore it.
  std::vector<std::string> statuses;
  PhillyAttempts philly_attempts = PhillyAttempts::All;
  TimeUnit tiresias_time_unit = TimeUnit::Auto;
  /// Pollux traces have no duration column. If the file has none, one of these must be given:
  /// a fixed duration for every job, or durations drawn from Philly's run-time distribution
  /// (see synthetic.hpp) with `seed`.
  std::optional<double> pollux_duration_s;
  bool pollux_philly_durations = false;
  std::uint64_t seed = 0;
};

/// The command-line spellings of the options above (std::invalid_argument for anything else):
/// "auto" | "first-job" | "file";  "auto" | "s" | "ms";  "all" | "last"; and a comma-separated
/// status list, where "all" (or nothing) keeps every job: "pass", "pass,killed".
TimeOrigin parseTimeOrigin(std::string_view text);
TimeUnit parseTimeUnit(std::string_view text);
PhillyAttempts parsePhillyAttempts(std::string_view text);
std::vector<std::string> parseStatusList(std::string_view text);

/// The reading options as `mosim run` and `mosim trace` spell them on the command line.
struct TraceOptionTexts {
  std::string format = "auto";          ///< --trace-format
  std::string time_origin = "auto";     ///< --time-origin
  std::string statuses;                 ///< --status / --philly-status; empty or "all": every job
  std::string philly_attempts = "all";  ///< --philly-attempts
  std::string time_unit = "auto";       ///< --time-unit
  std::string pollux_duration;          ///< --pollux-duration: seconds, "philly", or empty
  std::uint64_t seed = 0;               ///< --seed
};
/// Parses them; std::invalid_argument naming the option ("--time-unit: unknown time unit ...").
TraceOptions parseTraceOptions(const TraceOptionTexts& texts);

/// Reads `path` in the given or detected format. Single bad jobs of the production formats
/// (no GPUs, no duration, missing times, filtered status, ...) are skipped and counted in
/// Trace::report; malformed files, and every bad row of mosim's and the artifact's formats, are
/// InputErrors naming the file, line and field. A trace with no job left is an InputError.
Trace readTraceFile(const std::string& path, const TraceOptions& options);

/// The format of a file from its content: JSON ('[' or '{' first) is Philly's; otherwise the CSV
/// header decides (arrival_time+gpu_workers: artifact; submit_time+num_gpus: mosim;
/// num_gpu+submit_time: Tiresias; gpu_num+submit_time: Helios with `vc`, Acme with `type`;
/// time+num_replicas: Pollux). Throws InputError for anything else.
TraceFormat detectTraceFormat(const std::string& path);

/// Writes mosim's trace CSV: job_id,submit_time,num_gpus,duration,model, plus gpu_type and name
/// columns when any job has one. Numbers in shortest round-trip form (reading them back gives the
/// same doubles).
void writeMosimTrace(std::ostream& out, const Trace& trace);
/// The same into a file; "-" is standard output. Throws InputError when it cannot be written.
void writeMosimTrace(const std::string& path, const Trace& trace);

}  // namespace mosim
