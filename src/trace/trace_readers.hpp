// Internal to the trace readers: reading from an already parsed table (so readTrace parses the
// file once), validation that names each format's own columns in its messages, and the lenient
// field parsing of the production-trace formats.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mosim/csv.hpp"
#include "mosim/job.hpp"
#include "mosim/trace.hpp"

namespace mosim::detail {

/// The column names a trace format uses for the fields validateTrace checks.
struct TraceFields {
  std::string_view job_id;
  std::string_view submit;
  std::string_view num_gpus;
  std::string_view duration;
};

inline constexpr TraceFields kMosimTraceFields{"job_id", "submit_time", "num_gpus", "duration"};
inline constexpr TraceFields kArtifactTraceFields{"job_id", "arrival_time", "gpu_workers",
                                                  "duration"};

void validateTrace(const Trace& trace, const TraceFields& fields);

Trace artifactTraceFromTable(const CsvTable& table);
Trace mosimTraceFromTable(const CsvTable& table);

/// The production formats. Each fills Trace::report with what it skipped (kept and source are
/// set by readTrace) and numbers string-id jobs 0, 1, ... in file order.
Trace phillyTraceFromJson(const std::string& path, std::string_view text, const TraceOptions& options);
Trace heliosTraceFromTable(const CsvTable& table, const TraceOptions& options, TraceFormat format);
Trace tiresiasTraceFromTable(const CsvTable& table, const TraceOptions& options);
Trace polluxTraceFromTable(const CsvTable& table, const TraceOptions& options);

/// A whole number that fits an int (GPU and CPU counts); range checks are the caller's.
int readInt(const CsvTable::Row& row, std::size_t column);

/// A number from a production trace: nullopt when the field is missing (empty, "None", "null",
/// "NA", "NaT"); NaN or an infinity for "nan" and "inf"; InputError for text that is no number.
std::optional<double> lenientNumber(const CsvTable::Row& row, std::size_t column);
/// A timestamp field (see parseTimestamp_s); InputError for text that is neither.
std::optional<double> timestampField(const CsvTable::Row& row, std::size_t column);

/// The fields a production-trace row needs to become a job, as read leniently (nullopt: missing).
struct JobFields {
  std::optional<double> gpus;
  std::optional<double> submit_s;
  std::optional<double> duration_s;
  bool duration_from_times = false;  ///< end - start rather than a duration column
};
/// Why such a row cannot be simulated ("zero GPUs", "no duration", ...: a counted skip), or nullopt
/// when it can. A GPU count that is not a whole number is malformed input, not a job to skip:
/// InputError on `gpu_column`.
std::optional<std::string> unusableJob(const CsvTable::Row& row, std::size_t gpu_column,
                                       const JobFields& fields);

/// True when the options keep jobs of this status (case-insensitive; an empty list keeps all).
bool statusKept(const TraceOptions& options, std::string_view status);

/// "FILE:LINE: job NAME: REASON", the example text of a skipped job.
std::string skipExample(const std::string& path, std::size_t line, std::string_view name,
                        const std::string& reason);

/// Seconds since 1970-01-01 00:00:00 from an epoch number ("1506998843", "1.5e9") or an ISO-8601
/// date-time: "2017-10-03 02:47:23" (Philly's style) or "2017-10-03T02:47:23.25", optionally
/// followed by "Z" or an offset "+08:00"; a time without an offset is taken as UTC (only
/// differences matter once times are shifted). nullopt for a missing value: "", "None", "null",
/// "NaN", "NaT", "NA" (any case). Throws std::invalid_argument for anything else, including
/// impossible dates such as 2017-02-30.
std::optional<double> parseTimestamp_s(std::string_view text);

/// True for the texts production traces use for a missing value: "", None, null, NA, NaT.
bool isMissingValue(std::string_view text);

}  // namespace mosim::detail
