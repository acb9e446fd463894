// jobs.csv: one row per job, written so that reading it back gives the very same JobResults.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include "mosim/csv.hpp"
#include "mosim/output.hpp"
#include "output/output_file.hpp"

namespace mosim {

const char* toString(JobStatus status) {
  switch (status) {
    case JobStatus::Completed: return "completed";
    case JobStatus::Unplaceable: return "unplaceable";
  }
  return "unknown";
}

namespace {

constexpr std::string_view kHeader =
    "job_id,model,num_gpus,servers,submit,start,end,wait,training,jct,compute,comm,loading,"
    "iterations,status";
constexpr char kServerSeparator = '|';

/// The shortest text that reads back as the same double; NaN (unknown) is an empty field.
void writeNumber(std::ostream& out, double value) {
  if (std::isnan(value)) return;
  char text[32];  // the longest shortest form of a double, "-2.2250738585072014e-308", is 24
  out.write(text, std::to_chars(text, text + sizeof text, value).ptr - text);
}

/// A text field, quoted only when it holds a character CSV gives a meaning to.
void writeText(std::ostream& out, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out << text;
    return;
  }
  out << '"';
  for (char c : text) {
    if (c == '"') out << '"';
    out << c;
  }
  out << '"';
}

double numberOrNaN(const CsvTable::Row& row, std::size_t column) {
  return row.text(column).empty() ? NAN : row.number(column);
}

Allocation parseServers(const CsvTable::Row& row, std::size_t column) {
  Allocation servers;
  const std::string_view text = row.text(column);
  if (text.empty()) return servers;  // never placed
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = std::min(text.find(kServerSeparator, begin), text.size());
    ServerIndex server = 0;
    const char* first = text.data() + begin;
    const char* last = text.data() + end;
    const auto [ptr, error] = std::from_chars(first, last, server);
    if (error != std::errc() || ptr != last || first == last)
      row.fail(column, "expected server indices separated by '|', like 0|1|1, got '" +
                           std::string(text) + "'");
    servers.push_back(server);
    if (end == text.size()) return servers;
    begin = end + 1;
  }
}

JobStatus parseStatus(const CsvTable::Row& row, std::size_t column) {
  const std::string_view text = row.text(column);
  for (JobStatus status : {JobStatus::Completed, JobStatus::Unplaceable})
    if (text == toString(status)) return status;
  row.fail(column, "unknown status '" + std::string(text) + "' (expected completed or unplaceable)");
}

}  // namespace

void writeJobsCsv(const std::string& path, const std::vector<JobResult>& jobs) {
  std::ofstream out = detail::openOutputFile(path);
  out << kHeader << '\n';
  for (const JobResult& job : jobs) {
    out << job.id << ',';
    writeText(out, job.model);
    out << ',' << job.num_gpus << ',';
    for (std::size_t i = 0; i < job.servers.size(); ++i) {
      if (i > 0) out << kServerSeparator;
      out << job.servers[i];
    }
    for (double value : {job.submit_s, job.start_s, job.end_s, job.wait_s, job.training_s,
                         job.jct_s, job.compute_s, job.comm_s, job.loading_s, job.iterations}) {
      out << ',';
      writeNumber(out, value);
    }
    out << ',' << toString(job.status) << '\n';
  }
  detail::closeOutputFile(out, path);
}

std::vector<JobResult> readJobsCsv(const std::string& path) {
  const CsvTable table = CsvTable::read(path, /*allow_empty=*/true);
  const std::size_t id = table.require("job_id");
  const std::size_t model = table.require("model");
  const std::size_t num_gpus = table.require("num_gpus");
  const std::size_t servers = table.require("servers");
  const std::size_t submit = table.require("submit");
  const std::size_t start = table.require("start");
  const std::size_t end = table.require("end");
  const std::size_t wait = table.require("wait");
  const std::size_t training = table.require("training");
  const std::size_t jct = table.require("jct");
  const std::size_t compute = table.require("compute");
  const std::size_t comm = table.require("comm");
  const std::size_t loading = table.require("loading");
  const std::size_t iterations = table.require("iterations");
  const std::size_t status = table.require("status");

  std::vector<JobResult> jobs;
  jobs.reserve(table.rows());
  for (const CsvTable::Row& row : table) {
    JobResult job;
    job.id = row.integer(id);
    job.model = std::string(row.text(model));
    const long long gpus = row.integer(num_gpus);
    if (!std::in_range<int>(gpus)) row.fail(num_gpus, "GPU count out of range");
    job.num_gpus = static_cast<int>(gpus);
    job.servers = parseServers(row, servers);
    job.submit_s = numberOrNaN(row, submit);
    job.start_s = numberOrNaN(row, start);
    job.end_s = numberOrNaN(row, end);
    job.wait_s = numberOrNaN(row, wait);
    job.training_s = numberOrNaN(row, training);
    job.jct_s = numberOrNaN(row, jct);
    job.compute_s = numberOrNaN(row, compute);
    job.comm_s = numberOrNaN(row, comm);
    job.loading_s = numberOrNaN(row, loading);
    job.iterations = numberOrNaN(row, iterations);
    job.status = parseStatus(row, status);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace mosim
