// Internal to the trace readers: reading from an already parsed table (so readTrace parses the
// file once) and validation that names each format's own columns in its messages.
#pragma once

#include <string_view>

#include "mosim/csv.hpp"
#include "mosim/job.hpp"

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

/// A whole number that fits an int (GPU and CPU counts); range checks are the caller's.
int readInt(const CsvTable::Row& row, std::size_t column);

}  // namespace mosim::detail
