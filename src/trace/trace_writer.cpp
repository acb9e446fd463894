// mosim's trace CSV out: what `mosim trace generate|resample|convert` write.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/trace.hpp"

namespace mosim {

namespace {

/// A CSV field, quoted when it holds a comma, a quote, a line break or edge spaces.
std::string csvField(const std::string& text) {
  const bool quote = text.find_first_of(",\"\n\r") != std::string::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

void writeMosimTrace(std::ostream& out, const Trace& trace) {
  const bool gpu_types = std::any_of(trace.jobs.begin(), trace.jobs.end(),
                                     [](const Job& job) { return !job.gpu_type.empty(); });
  const bool names = std::any_of(trace.jobs.begin(), trace.jobs.end(),
                                 [](const Job& job) { return !job.name.empty(); });
  fmt::memory_buffer buffer;
  auto it = std::back_inserter(buffer);
  fmt::format_to(it, "job_id,submit_time,num_gpus,duration,model{}{}\n",
                 gpu_types ? ",gpu_type" : "", names ? ",name" : "");
  for (const Job& job : trace.jobs) {
    // fmt's "{}" is the shortest text that reads back as the same double.
    fmt::format_to(it, "{},{},{},{},{}", job.id, job.submit_s, job.num_gpus, job.duration_s,
                   csvField(job.model));
    if (gpu_types) fmt::format_to(it, ",{}", job.gpu_type);
    if (names) fmt::format_to(it, ",{}", csvField(job.name));
    buffer.push_back('\n');
    if (buffer.size() > (1 << 20)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

void writeMosimTrace(const std::string& path, const Trace& trace) {
  if (path == "-") {
    writeMosimTrace(std::cout, trace);
    std::cout.flush();
    if (!std::cout) throw InputError("standard output", 0, "", "cannot write the trace");
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path, 0, "", fmt::format("cannot create: {}", std::strerror(errno)));
  writeMosimTrace(out, trace);
  out.close();
  if (!out) throw InputError(path, 0, "", "cannot write the trace");
}

}  // namespace mosim
