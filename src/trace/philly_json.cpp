// Microsoft Philly's cluster_job_log (msr-fiddle/philly-traces): a JSON array of job records
//   {"jobid": "application_..._1234", "vc": "...", "user": "...", "status": "Pass",
//    "submitted_time": "2017-10-03 02:47:23",
//    "attempts": [{"start_time": "...", "end_time": "...",
//                  "detail": [{"ip": "m1", "gpus": ["gpu0", "gpu1"]}, ...]}, ...]}
// An attempt's GPUs are the distinct (ip, gpu) pairs over its detail entries. Attempts without a
// start or an end time (still running, or never started) are ignored. With PhillyAttempts::All a
// job holds the most GPUs any attempt held and runs for the sum of its attempts' run times (the
// GPU time it really took from the cluster); with Last, the last timed attempt's GPUs and run time.
//
// The file is read with nlohmann's SAX interface straight into the few fields used (a DOM of the
// full 117,325-job log would take several times longer), then a second pass finds the line on
// which each record starts, for messages.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mosim/error.hpp"
#include "trace/trace_readers.hpp"

namespace mosim::detail {

namespace {

using nlohmann::json;

/// A scalar as the file gave it: absent or null, text, or a number (with its text).
struct Value {
  enum class Kind { Missing, Text, Number } kind = Kind::Missing;
  std::string text;
  double number = 0;
};

struct RawAttempt {
  Value start, end;
  std::vector<std::string> gpus;  // "ip\ngpu" per GPU entry, duplicates included
};

struct RawRecord {
  std::string jobid, status;
  Value submitted;
  bool has_attempts = false;
  std::vector<RawAttempt> attempts;
  std::string problem_field, problem;  // the first structural fault, reported at the record's line
};

/// Builds RawRecords from SAX events, with a stack that says where in a record each event falls.
class PhillySax final : public json::json_sax_t {
 public:
  std::vector<RawRecord> records;
  bool not_an_array = false;
  std::size_t error_byte = 0;
  std::string error_message;

  bool null() override { return scalar(Value{}); }
  bool boolean(bool value) override { return scalar(text(value ? "true" : "false")); }
  bool number_integer(number_integer_t value) override { return scalar(number(static_cast<double>(value), fmt::format("{}", value))); }
  bool number_unsigned(number_unsigned_t value) override { return scalar(number(static_cast<double>(value), fmt::format("{}", value))); }
  bool number_float(number_float_t value, const string_t& raw) override { return scalar(number(value, raw)); }
  bool string(string_t& value) override { return scalar(text(std::move(value))); }
  bool binary(binary_t&) override { return scalar(text("")); }

  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool key(string_t& name) override {
    frames_.back().key = std::move(name);
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& error) override {
    error_byte = position;
    error_message = error.what();
    return false;
  }

 private:
  // Where a container or value sits: the top-level array, a record, its attempts list, an
  // attempt, its detail list, a detail entry, its gpus list, or somewhere not read.
  enum class Where { Top, Record, Attempts, Attempt, Details, Detail, Gpus, Ignored };
  struct Frame {
    Where where;
    std::string key;                // the current key, in objects
    std::string ip;                 // in a detail entry
    std::vector<std::string> gpus;  // in a detail entry: its GPU names until its ip is known
  };
  std::vector<Frame> frames_;

  static Value text(std::string content) {
    Value value;
    value.kind = Value::Kind::Text;
    value.text = std::move(content);
    return value;
  }
  static Value number(double content, std::string raw) {
    Value value;
    value.kind = Value::Kind::Number;
    value.number = content;
    value.text = std::move(raw);
    return value;
  }

  RawRecord& record() { return records.back(); }
  void problem(const char* field, const char* message) {
    if (record().problem.empty()) {
      record().problem_field = field;
      record().problem = message;
    }
  }

  /// A container starts: its place from its parent's place and key.
  bool open(bool object) {
    if (frames_.empty()) {
      if (object) {
        not_an_array = true;
        return false;
      }
      frames_.push_back({Where::Top, {}, {}, {}});
      return true;
    }
    const Frame& parent = frames_.back();
    Where where = Where::Ignored;
    switch (parent.where) {
      case Where::Top:
        records.emplace_back();
        if (object)
          where = Where::Record;
        else
          problem("", "a job record must be a JSON object");
        break;
      case Where::Record:
        if (parent.key == "attempts") {
          record().has_attempts = true;
          if (!object) where = Where::Attempts;
          else problem("attempts", "expected a list of attempts");
        } else if (parent.key == "submitted_time") {
          problem("submitted_time", "expected a timestamp string or epoch seconds");
        }
        break;
      case Where::Attempts:
        if (object) {
          record().attempts.emplace_back();
          where = Where::Attempt;
        } else {
          problem("attempts", "an attempt must be a JSON object");
        }
        break;
      case Where::Attempt:
        if (parent.key == "detail") {
          if (!object) where = Where::Details;
          else problem("attempts.detail", "expected a list of {ip, gpus}");
        } else if (parent.key == "start_time" || parent.key == "end_time") {
          problem(parent.key == "start_time" ? "attempts.start_time" : "attempts.end_time",
                  "expected a timestamp string or epoch seconds");
        }
        break;
      case Where::Details:
        if (object) where = Where::Detail;
        else problem("attempts.detail", "expected {ip, gpus} objects");
        break;
      case Where::Detail:
        if (parent.key == "gpus") {
          if (!object) where = Where::Gpus;
          else problem("attempts.detail.gpus", "expected a list of GPU names");
        }
        break;
      case Where::Gpus: problem("attempts.detail.gpus", "expected a list of GPU names"); break;
      case Where::Ignored: break;
    }
    frames_.push_back({where, {}, {}, {}});
    return true;
  }

  bool close() {
    Frame frame = std::move(frames_.back());
    frames_.pop_back();
    if (frame.where == Where::Detail)
      for (const std::string& gpu : frame.gpus)
        record().attempts.back().gpus.push_back(frame.ip + '\n' + gpu);
    return true;
  }

  /// A value that is not a container.
  bool scalar(Value value) {
    if (frames_.empty()) {
      not_an_array = true;
      return false;
    }
    Frame& parent = frames_.back();
    const bool missing = value.kind == Value::Kind::Missing;
    switch (parent.where) {
      case Where::Top:
        records.emplace_back();
        problem("", "a job record must be a JSON object");
        break;
      case Where::Record:
        if (parent.key == "jobid") {
          record().jobid = std::move(value.text);
        } else if (parent.key == "status") {
          record().status = std::move(value.text);
        } else if (parent.key == "submitted_time") {
          record().submitted = std::move(value);
        } else if (parent.key == "attempts" && !missing) {
          record().has_attempts = true;
          problem("attempts", "expected a list of attempts");
        }
        break;
      case Where::Attempts: problem("attempts", "an attempt must be a JSON object"); break;
      case Where::Attempt:
        if (parent.key == "start_time")
          record().attempts.back().start = std::move(value);
        else if (parent.key == "end_time")
          record().attempts.back().end = std::move(value);
        else if (parent.key == "detail" && !missing)
          problem("attempts.detail", "expected a list of {ip, gpus}");
        break;
      case Where::Details:
        problem("attempts.detail", "expected {ip, gpus} objects");
        break;
      case Where::Detail:
        if (parent.key == "ip")
          parent.ip = std::move(value.text);
        else if (parent.key == "gpus" && !missing)
          problem("attempts.detail.gpus", "expected a list of GPU names");
        break;
      case Where::Gpus: {
        Frame& detail = frames_[frames_.size() - 2];
        detail.gpus.push_back(std::move(value.text));
        break;
      }
      case Where::Ignored: break;
    }
    return true;
  }
};

/// The line on which each element of the top-level array starts; `text` is valid JSON.
std::vector<std::size_t> topLevelElementLines(std::string_view text) {
  std::vector<std::size_t> lines;
  std::size_t line = 1;
  int depth = 0;
  bool in_string = false;
  bool expecting_element = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {  // never inside a string: JSON escapes line breaks
      ++line;
      continue;
    }
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    const bool space = c == ' ' || c == '\t' || c == '\r';
    if (depth == 1 && expecting_element && !space && c != ']') {
      lines.push_back(line);
      expecting_element = false;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth == 1) expecting_element = true;
        break;
      case ']':
      case '}': --depth; break;
      case ',':
        if (depth == 1) expecting_element = true;
        break;
      default: break;
    }
  }
  return lines;
}

std::size_t lineAtByte(std::string_view text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  return 1 + static_cast<std::size_t>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

std::optional<double> timestamp(const Value& value, const std::string& path, std::size_t line,
                                const char* field) {
  switch (value.kind) {
    case Value::Kind::Missing: return std::nullopt;
    case Value::Kind::Number: return value.number;
    case Value::Kind::Text: break;
  }
  try {
    return parseTimestamp_s(value.text);
  } catch (const std::invalid_argument& error) {
    throw InputError(path, line, field, error.what());
  }
}

struct TimedAttempt {
  int gpus;
  double duration_s;
};

int distinctGpus(std::vector<std::string>& gpus) {
  std::sort(gpus.begin(), gpus.end());
  return static_cast<int>(std::unique(gpus.begin(), gpus.end()) - gpus.begin());
}

}  // namespace

Trace phillyTraceFromJson(const std::string& path, std::string_view text,
                          const TraceOptions& options) {
  PhillySax sax;
  const bool parsed = json::sax_parse(text, &sax);
  if (sax.not_an_array)
    throw InputError(path, 1, "", "a Philly job log is a JSON array of job records");
  if (!parsed) {
    std::string message = sax.error_message;
    if (const std::size_t bracket = message.find("] "); bracket != std::string::npos)
      message.erase(0, bracket + 2);  // drop "[json.exception.parse_error.101] "
    throw InputError(path, lineAtByte(text, sax.error_byte), "", "malformed JSON: " + message);
  }
  const std::vector<std::size_t> lines = topLevelElementLines(text);

  Trace trace;
  trace.path = path;
  trace.jobs.reserve(sax.records.size());
  for (std::size_t i = 0; i < sax.records.size(); ++i) {
    RawRecord& record = sax.records[i];
    const std::size_t line = i < lines.size() ? lines[i] : 0;
    if (!record.problem.empty()) throw InputError(path, line, record.problem_field, record.problem);
    const auto skip = [&](const std::string& reason) {
      trace.report.skip(reason, skipExample(path, line, record.jobid, reason));
    };

    if (!statusKept(options, record.status)) {
      skip(record.status.empty() ? "no status" : "status " + record.status);
      continue;
    }
    const auto submit_s = timestamp(record.submitted, path, line, "submitted_time");
    if (!record.has_attempts || record.attempts.empty()) {
      skip("no attempts");
      continue;
    }
    std::vector<TimedAttempt> timed;
    bool reversed = false;
    for (RawAttempt& attempt : record.attempts) {
      const auto start_s = timestamp(attempt.start, path, line, "attempts.start_time");
      const auto end_s = timestamp(attempt.end, path, line, "attempts.end_time");
      if (!start_s || !end_s) continue;
      if (*end_s < *start_s) reversed = true;
      timed.push_back({distinctGpus(attempt.gpus), *end_s - *start_s});
    }
    if (reversed) {
      skip("attempt ends before it starts");
      continue;
    }
    if (timed.empty()) {
      skip("no attempt with start and end times");
      continue;
    }
    if (!submit_s) {
      skip("no submit time");
      continue;
    }

    Job job;
    if (options.philly_attempts == PhillyAttempts::Last) {
      job.num_gpus = timed.back().gpus;
      job.duration_s = timed.back().duration_s;
    } else {
      for (const TimedAttempt& attempt : timed) {
        job.num_gpus = std::max(job.num_gpus, attempt.gpus);
        job.duration_s += attempt.duration_s;
      }
    }
    if (job.num_gpus == 0) {
      skip("zero GPUs");
      continue;
    }
    if (job.duration_s == 0) {
      skip("zero duration");
      continue;
    }
    job.id = static_cast<JobId>(trace.jobs.size());
    job.name = std::move(record.jobid);
    job.submit_s = *submit_s;
    job.source_line = line;
    trace.jobs.push_back(std::move(job));
  }
  return trace;
}

}  // namespace mosim::detail
