#include "mosim/trace.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "mosim/csv.hpp"
#include "mosim/error.hpp"
#include "mosim/text.hpp"
#include "trace/trace_readers.hpp"

namespace mosim {

namespace detail {

int readInt(const CsvTable::Row& row, std::size_t column) {
  const long long value = row.integer(column);
  if (value < INT_MIN || value > INT_MAX)
    row.fail(column, fmt::format("'{}' is out of range", row.text(column)));
  return static_cast<int>(value);
}

void validateTrace(const Trace& trace, const TraceFields& fields) {
  if (trace.jobs.empty()) throw InputError(trace.path, 0, "", "the trace has no jobs");

  std::map<JobId, std::size_t> first_line_of_id;
  for (const Job& job : trace.jobs) {
    const auto fail = [&](std::string_view field, const std::string& message) {
      throw InputError(trace.path, job.source_line, std::string(field), message);
    };
    if (!std::isfinite(job.submit_s))
      fail(fields.submit, fmt::format("submit time {} is not a finite number", job.submit_s));
    if (job.submit_s < 0)
      fail(fields.submit, fmt::format("submit time {} is negative", job.submit_s));
    if (!std::isfinite(job.duration_s))
      fail(fields.duration, fmt::format("duration {} is not a finite number", job.duration_s));
    if (job.duration_s <= 0)
      fail(fields.duration, fmt::format("duration {} must be positive", job.duration_s));
    if (job.num_gpus <= 0)
      fail(fields.num_gpus, fmt::format("GPU count {} must be positive", job.num_gpus));

    const auto [previous, inserted] = first_line_of_id.emplace(job.id, job.source_line);
    if (!inserted)
      fail(fields.job_id,
           fmt::format("duplicate job id {} (first on line {})", job.id, previous->second));
  }
}

}  // namespace detail

namespace {

struct FormatName {
  TraceFormat format;
  std::string_view name;
};

constexpr std::array<FormatName, 8> kFormatNames{{
    {TraceFormat::Auto, "auto"},
    {TraceFormat::Mosim, "mosim"},
    {TraceFormat::Artifact, "artifact"},
    {TraceFormat::PhillyJson, "philly"},
    {TraceFormat::Helios, "helios"},
    {TraceFormat::Acme, "acme"},
    {TraceFormat::Tiresias, "tiresias"},
    {TraceFormat::Pollux, "pollux"},
}};

/// The column names of each production format in validation messages.
detail::TraceFields fieldsOf(TraceFormat format) {
  switch (format) {
    case TraceFormat::PhillyJson: return {"jobid", "submitted_time", "attempts", "attempts"};
    case TraceFormat::Helios:
    case TraceFormat::Acme: return {"job_id", "submit_time", "gpu_num", "duration"};
    case TraceFormat::Tiresias: return {"job_id", "submit_time", "num_gpu", "duration"};
    case TraceFormat::Pollux: return {"name", "time", "num_replicas", "duration"};
    case TraceFormat::Artifact: return detail::kArtifactTraceFields;
    default: return detail::kMosimTraceFields;
  }
}

bool looksLikeJson(std::string_view text) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '[' || text[first] == '{');
}

/// The CSV format from the header, or Auto when no rule matches.
TraceFormat detectCsvFormat(const CsvTable& table) {
  const auto has = [&](std::string_view column) { return table.find(column).has_value(); };
  if (has("arrival_time") && has("gpu_workers")) return TraceFormat::Artifact;
  if (has("submit_time") && has("num_gpus")) return TraceFormat::Mosim;
  if (has("submit_time") && has("num_gpu")) return TraceFormat::Tiresias;
  if (has("submit_time") && has("gpu_num")) return has("type") && !has("vc") ? TraceFormat::Acme
                                                                             : TraceFormat::Helios;
  if (has("time") && has("num_replicas")) return TraceFormat::Pollux;
  return TraceFormat::Auto;
}

[[noreturn]] void unknownFormat(const std::string& path) {
  throw InputError(path, 1, "",
                   "unknown trace format: expected the artifact's columns (job_id, model, "
                   "arrival_time, duration, gpu_workers, ...), mosim's (job_id, submit_time, "
                   "num_gpus, duration[, model]), Tiresias' (job_id, num_gpu, submit_time, ...), "
                   "Helios' or Acme's (job_id, gpu_num, submit_time, ...), Pollux' (name, time, "
                   "num_replicas, ...) or a Philly JSON job log; --trace-format names one");
}

bool isProductionFormat(TraceFormat format) {
  return format != TraceFormat::Mosim && format != TraceFormat::Artifact;
}

void shiftToFirstJob(Trace& trace) {
  if (trace.jobs.empty()) return;
  const double first_s =
      std::min_element(trace.jobs.begin(), trace.jobs.end(), [](const Job& a, const Job& b) {
        return a.submit_s < b.submit_s;
      })->submit_s;
  for (Job& job : trace.jobs) job.submit_s -= first_s;
}

void finishReport(Trace& trace, TraceFormat format) {
  trace.report.source = fmt::format("{} ({})", trace.path, traceFormatName(format));
  trace.report.kept = trace.jobs.size();
}

}  // namespace

std::string_view traceFormatName(TraceFormat format) {
  for (const auto& [known, name] : kFormatNames)
    if (known == format) return name;
  return "unknown";
}

TraceFormat parseTraceFormat(std::string_view name) {
  if (name == "philly-json") return TraceFormat::PhillyJson;
  for (const auto& [format, known] : kFormatNames)
    if (known == name) return format;
  throw std::invalid_argument(fmt::format(
      "unknown trace format '{}' (known: auto, mosim, artifact, philly, helios, acme, tiresias, "
      "pollux)",
      name));
}

TraceFormat detectTraceFormat(const std::string& path) {
  const std::string text = readTextFile(path, "trace file");
  if (looksLikeJson(text)) return TraceFormat::PhillyJson;
  const TraceFormat format = detectCsvFormat(CsvTable::parse(text, path));
  if (format == TraceFormat::Auto) unknownFormat(path);
  return format;
}

Trace readTraceFile(const std::string& path, const TraceOptions& options) {
  const std::string text = readTextFile(path, "trace file");
  TraceFormat format = options.format;
  const bool json = format == TraceFormat::PhillyJson ||
                    (format == TraceFormat::Auto && looksLikeJson(text));

  Trace trace;
  if (json) {
    format = TraceFormat::PhillyJson;
    trace = detail::phillyTraceFromJson(path, text, options);
  } else {
    const CsvTable table = CsvTable::parse(text, path);
    if (format == TraceFormat::Auto) format = detectCsvFormat(table);
    switch (format) {
      case TraceFormat::Mosim: trace = detail::mosimTraceFromTable(table); break;
      case TraceFormat::Artifact: trace = detail::artifactTraceFromTable(table); break;
      case TraceFormat::Helios:
      case TraceFormat::Acme: trace = detail::heliosTraceFromTable(table, options, format); break;
      case TraceFormat::Tiresias: trace = detail::tiresiasTraceFromTable(table, options); break;
      case TraceFormat::Pollux: trace = detail::polluxTraceFromTable(table, options); break;
      default: unknownFormat(path);
    }
  }

  const bool shift = options.time_origin == TimeOrigin::FirstJob ||
                     (options.time_origin == TimeOrigin::Auto && isProductionFormat(format));
  if (shift) shiftToFirstJob(trace);
  finishReport(trace, format);
  if (trace.jobs.empty())
    throw InputError(path, 0, "", "no usable jobs: " + trace.report.skippedSummary());
  detail::validateTrace(trace, fieldsOf(format));
  return trace;
}

Trace readTrace(const std::string& path) { return readTraceFile(path, TraceOptions{}); }

Trace readMosimTrace(const std::string& path) {
  Trace trace = detail::mosimTraceFromTable(CsvTable::read(path));
  finishReport(trace, TraceFormat::Mosim);
  return trace;
}

Trace readArtifactTrace(const std::string& path) {
  Trace trace = detail::artifactTraceFromTable(CsvTable::read(path));
  finishReport(trace, TraceFormat::Artifact);
  return trace;
}

void validateTrace(const Trace& trace) { detail::validateTrace(trace, detail::kMosimTraceFields); }

}  // namespace mosim
