// Field parsing shared by the production-trace readers: missing values, lenient numbers,
// timestamps, status filters.
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "mosim/units.hpp"
#include "mosim/text.hpp"
#include "trace/trace_readers.hpp"

namespace mosim::detail {

namespace {

/// Reads exactly `digits` decimal digits at `pos`, advancing it; nullopt if they are not there.
std::optional<int> fixedDigits(std::string_view text, std::size_t& pos, std::size_t digits) {
  if (pos + digits > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < digits; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += digits;
  return value;
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
/// days_from_civil, exact for every year).
long long daysFromCivil(long long year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const long long era = (year >= 0 ? year : year - 399) / 400;
  const long long year_of_era = year - era * 400;
  const int shifted_month = month > 2 ? month - 3 : month + 9;
  const long long day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
  const long long day_of_era =
      year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

int daysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

/// "YYYY-MM-DD[( |T)hh:mm[:ss[.fff]]][Z|(+|-)hh[:]mm]"; nullopt when the text is not one.
std::optional<double> isoDateTime_s(std::string_view text) {
  std::size_t pos = 0;
  const auto year = fixedDigits(text, pos, 4);
  if (!year || pos >= text.size() || text[pos++] != '-') return std::nullopt;
  const auto month = fixedDigits(text, pos, 2);
  if (!month || pos >= text.size() || text[pos++] != '-') return std::nullopt;
  const auto day = fixedDigits(text, pos, 2);
  if (!day || *month < 1 || *month > 12 || *day < 1 || *day > daysInMonth(*year, *month))
    return std::nullopt;
  double seconds = static_cast<double>(daysFromCivil(*year, *month, *day)) * 86400.0;
  if (pos == text.size()) return seconds;

  if (text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
  ++pos;
  const auto hour = fixedDigits(text, pos, 2);
  if (!hour || pos >= text.size() || text[pos++] != ':') return std::nullopt;
  const auto minute = fixedDigits(text, pos, 2);
  if (!minute || *hour > 23 || *minute > 59) return std::nullopt;
  seconds += *hour * 3600.0 + *minute * 60.0;
  if (pos < text.size() && text[pos] == ':') {
    ++pos;
    const auto second = fixedDigits(text, pos, 2);
    if (!second || *second > 60) return std::nullopt;  // 60: a leap second
    seconds += *second;
    if (pos < text.size() && text[pos] == '.') {
      const std::size_t start = pos;
      ++pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
      if (pos == start + 1) return std::nullopt;
      double fraction = 0;
      const std::string digits = "0" + std::string(text.substr(start, pos - start));  // "0.fff"
      std::from_chars(digits.data(), digits.data() + digits.size(), fraction);
      seconds += fraction;
    }
  }
  if (pos == text.size()) return seconds;
  if (text[pos] == 'Z' && pos + 1 == text.size()) return seconds;
  if (text[pos] == '+' || text[pos] == '-') {
    const double sign = text[pos] == '+' ? 1 : -1;
    ++pos;
    const auto offset_hours = fixedDigits(text, pos, 2);
    if (!offset_hours) return std::nullopt;
    if (pos < text.size() && text[pos] == ':') ++pos;
    const auto offset_minutes = fixedDigits(text, pos, 2);
    if (!offset_minutes || pos != text.size() || *offset_hours > 23 || *offset_minutes > 59)
      return std::nullopt;
    return seconds - sign * (*offset_hours * 3600.0 + *offset_minutes * 60.0);
  }
  return std::nullopt;
}

}  // namespace

bool isMissingValue(std::string_view text) {
  text = trim(text);
  return text.empty() || equalsIgnoringCase(text, "none") || equalsIgnoringCase(text, "null") ||
         equalsIgnoringCase(text, "na") || equalsIgnoringCase(text, "nat");
}

std::optional<double> parseTimestamp_s(std::string_view text) {
  text = trim(text);
  if (isMissingValue(text) || equalsIgnoringCase(text, "nan")) return std::nullopt;
  if (const auto iso = isoDateTime_s(text)) return iso;
  try {
    return parseNumber(text);  // epoch seconds
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(fmt::format(
        "'{}' is not a timestamp (expected epoch seconds or a date-time such as "
        "'2017-10-03 02:47:23')",
        text));
  }
}

std::optional<double> lenientNumber(const CsvTable::Row& row, std::size_t column) {
  const std::string_view text = trim(row.text(column));
  if (isMissingValue(text)) return std::nullopt;
  std::string_view unsigned_text = text;
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) unsigned_text.remove_prefix(1);
  if (equalsIgnoringCase(unsigned_text, "nan")) return std::numeric_limits<double>::quiet_NaN();
  if (equalsIgnoringCase(unsigned_text, "inf") || equalsIgnoringCase(unsigned_text, "infinity"))
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  return row.number(column);
}

std::optional<double> timestampField(const CsvTable::Row& row, std::size_t column) {
  try {
    return parseTimestamp_s(row.text(column));
  } catch (const std::invalid_argument& error) {
    row.fail(column, error.what());
  }
}

std::optional<std::string> unusableJob(const CsvTable::Row& row, std::size_t gpu_column,
                                       const JobFields& fields) {
  const auto& [gpus, submit_s, duration_s, from_times] = fields;
  if (!gpus || std::isnan(*gpus)) return "no GPU count";
  if (std::trunc(*gpus) != *gpus || *gpus > 1e9)
    row.fail(gpu_column, fmt::format("'{}' is not a whole GPU count", row.text(gpu_column)));
  if (*gpus <= 0) return *gpus == 0 ? "zero GPUs" : "negative GPU count";
  if (!submit_s || !std::isfinite(*submit_s)) return "no submit time";
  if (!duration_s) return "no duration";
  if (!std::isfinite(*duration_s)) return "duration not finite";
  if (*duration_s <= 0) {
    if (*duration_s == 0) return "zero duration";
    return from_times ? "ends before it starts" : "negative duration";
  }
  return std::nullopt;
}

bool statusKept(const TraceOptions& options, std::string_view status) {
  if (options.statuses.empty()) return true;
  status = trim(status);
  for (const std::string& kept : options.statuses)
    if (equalsIgnoringCase(kept, status)) return true;
  return false;
}

std::string skipExample(const std::string& path, std::size_t line, std::string_view name,
                        const std::string& reason) {
  if (name.empty()) return fmt::format("{}:{}: {}", path, line, reason);
  return fmt::format("{}:{}: job {}: {}", path, line, name, reason);
}

}  // namespace mosim::detail

namespace mosim {

TimeOrigin parseTimeOrigin(std::string_view text) {
  if (text == "auto") return TimeOrigin::Auto;
  if (text == "first-job") return TimeOrigin::FirstJob;
  if (text == "file") return TimeOrigin::File;
  throw std::invalid_argument(
      fmt::format("unknown time origin '{}' (known: auto, first-job, file)", text));
}

TimeUnit parseTimeUnit(std::string_view text) {
  if (text == "auto") return TimeUnit::Auto;
  if (text == "s") return TimeUnit::Seconds;
  if (text == "ms") return TimeUnit::Milliseconds;
  throw std::invalid_argument(fmt::format("unknown time unit '{}' (known: auto, s, ms)", text));
}

PhillyAttempts parsePhillyAttempts(std::string_view text) {
  if (text == "all") return PhillyAttempts::All;
  if (text == "last") return PhillyAttempts::Last;
  throw std::invalid_argument(fmt::format("unknown attempt rule '{}' (known: all, last)", text));
}

std::vector<std::string> parseStatusList(std::string_view text) {
  std::vector<std::string> statuses;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = trim(text.substr(0, comma));
    if (item.empty()) throw std::invalid_argument("empty status in the status list");
    statuses.emplace_back(item);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  if (statuses.size() == 1 && statuses.front() == "all") statuses.clear();
  return statuses;
}

}  // namespace mosim

namespace mosim {

namespace {

template <class Parse>
auto optionValue(const char* option, const std::string& text, Parse parse) {
  try {
    return parse(text);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(fmt::format("--{}: {}", option, error.what()));
  }
}

}  // namespace

TraceOptions parseTraceOptions(const TraceOptionTexts& texts) {
  TraceOptions options;
  options.format = optionValue("trace-format", texts.format, parseTraceFormat);
  options.time_origin = optionValue("time-origin", texts.time_origin, parseTimeOrigin);
  options.statuses = optionValue("status", texts.statuses, parseStatusList);
  options.philly_attempts = optionValue("philly-attempts", texts.philly_attempts, parsePhillyAttempts);
  options.tiresias_time_unit = optionValue("time-unit", texts.time_unit, parseTimeUnit);
  if (texts.pollux_duration == "philly") {
    options.pollux_philly_durations = true;
  } else if (!texts.pollux_duration.empty()) {
    options.pollux_duration_s = optionValue("pollux-duration", texts.pollux_duration, [](const std::string& text) {
      const double seconds = parseNumber(text);
      if (!(seconds > 0))
        throw std::invalid_argument(fmt::format("'{}' must be positive seconds or philly", text));
      return seconds;
    });
  }
  options.seed = texts.seed;
  return options;
}

}  // namespace mosim
