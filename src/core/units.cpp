#include "mosim/units.hpp"
#include "mosim/text.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace mosim {

namespace {

struct RateUnit {
  std::string_view name;
  double bytes_per_s;
};

// Byte rates (decimal and binary prefixes) and bit rates (decimal prefixes, two spellings).
constexpr std::array<RateUnit, 20> kRateUnits{{
    {"B/s", 1.0},
    {"kB/s", 1e3},
    {"KB/s", 1e3},
    {"MB/s", 1e6},
    {"GB/s", 1e9},
    {"TB/s", 1e12},
    {"KiB/s", 1024.0},
    {"MiB/s", 1024.0 * 1024.0},
    {"GiB/s", 1024.0 * 1024.0 * 1024.0},
    {"TiB/s", 1024.0 * 1024.0 * 1024.0 * 1024.0},
    {"bps", 1.0 / 8},
    {"kbps", 1e3 / 8},
    {"Kbps", 1e3 / 8},
    {"Mbps", 1e6 / 8},
    {"Gbps", 1e9 / 8},
    {"Tbps", 1e12 / 8},
    {"kb/s", 1e3 / 8},
    {"Mb/s", 1e6 / 8},
    {"Gb/s", 1e9 / 8},
    {"Tb/s", 1e12 / 8},
}};

constexpr std::string_view kUnitExamples = "e.g. '463 MiB/s', '463 MB/s', '5 Gbps' or '25 GB/s'";

// Parses the longest number at the start of `text` (after an optional '+'); returns the value
// and the rest of the text. Throws std::invalid_argument when there is no finite number there.
std::pair<double, std::string_view> leadingNumber(std::string_view text, std::string_view whole) {
  std::string_view digits = text;
  if (digits.size() > 1 && digits.front() == '+' && digits[1] != '-') digits.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error == std::errc::result_out_of_range)
    throw std::invalid_argument(fmt::format("'{}' is out of range", whole));
  if (error != std::errc{}) throw std::invalid_argument(fmt::format("'{}' is not a number", whole));
  // from_chars accepts "inf" and "nan"; mosim never does.
  if (!std::isfinite(value))
    throw std::invalid_argument(fmt::format("'{}' is not a finite number", whole));
  return {value, digits.substr(static_cast<std::size_t>(end - digits.data()))};
}

}  // namespace

double rateUnit_Bps(std::string_view unit) {
  for (const RateUnit& known : kRateUnits)
    if (known.name == unit) return known.bytes_per_s;
  throw std::invalid_argument(fmt::format(
      "unknown bandwidth unit '{}'; use one of B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, "
      "TiB/s, bps, kbps, Mbps, Gbps, Tbps (or kb/s, Mb/s, Gb/s, Tb/s)",
      unit));
}

double parseBandwidth_Bps(std::string_view text) {
  const std::string_view whole = trim(text);
  if (whole.empty())
    throw std::invalid_argument(fmt::format("empty bandwidth; give a number and a unit, {}",
                                            kUnitExamples));
  const auto [value, rest] = leadingNumber(whole, whole);
  const std::string_view unit = trim(rest);
  if (unit.empty())
    throw std::invalid_argument(fmt::format("bandwidth '{}' has no unit; a unit is required, {}",
                                            whole, kUnitExamples));
  if (value < 0) throw std::invalid_argument(fmt::format("bandwidth '{}' is negative", whole));
  const double rate_Bps = value * rateUnit_Bps(unit);
  if (!std::isfinite(rate_Bps))
    throw std::invalid_argument(fmt::format("bandwidth '{}' is out of range", whole));
  return rate_Bps;
}

std::string formatBandwidth(double rate_Bps) {
  static constexpr std::array<RateUnit, 5> kDecimal{{
      {"B/s", 1.0}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}}};
  // The largest unit that keeps at least 1 before the decimal point.
  const RateUnit* chosen = &kDecimal.front();
  for (const RateUnit& unit : kDecimal)
    if (std::fabs(rate_Bps) >= unit.bytes_per_s) chosen = &unit;
  return fmt::format("{:g} {}", rate_Bps / chosen->bytes_per_s, chosen->name);
}

double parseNumber(std::string_view text) {
  const std::string_view whole = trim(text);
  if (whole.empty()) throw std::invalid_argument("empty text is not a number");
  const auto [value, rest] = leadingNumber(whole, whole);
  if (!rest.empty()) throw std::invalid_argument(fmt::format("'{}' is not a number", whole));
  return value;
}

}  // namespace mosim
