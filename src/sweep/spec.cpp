// Sweep specs: parsing, checking every value before any work, and the grid of points.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/sweep.hpp"
#include "mosim/text.hpp"
#include "workload/random.hpp"
#include "workload/yaml_input.hpp"

namespace mosim::sweep {
namespace {

// ---- Ranges -------------------------------------------------------------------------------------
// Range bounds are plain decimals, turned into integers in units of their finest decimal place so
// that {from: 0.005, to: 0.02, step: 0.005} gives exactly 0.005, 0.01, 0.015, 0.02 (repeated
// floating-point addition would give 0.015000000000000001).

struct Decimal {
  std::int64_t digits = 0;  ///< the value times 10^decimals
  int decimals = 0;
};

constexpr int kMaxDecimals = 9;

std::int64_t powerOfTen(int exponent) {
  std::int64_t value = 1;
  for (int i = 0; i < exponent; ++i) value *= 10;
  return value;
}

/// "-12.50" -> {-1250, 2}; std::invalid_argument for anything but [+-]digits[.digits].
Decimal parseDecimal(const std::string& text) {
  std::size_t at = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) at = 1;
  Decimal decimal;
  bool any_digit = false, in_fraction = false;
  for (; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '.' && !in_fraction && any_digit) {
      in_fraction = true;
      continue;
    }
    if (c < '0' || c > '9') throw std::invalid_argument("not a plain decimal number");
    if (in_fraction && ++decimal.decimals > kMaxDecimals)
      throw std::invalid_argument(fmt::format("more than {} decimal places", kMaxDecimals));
    if (decimal.digits > (std::numeric_limits<std::int64_t>::max() - 9) / 10)
      throw std::invalid_argument("too large");
    decimal.digits = decimal.digits * 10 + (c - '0');
    any_digit = true;
  }
  if (!any_digit || text.back() == '.') throw std::invalid_argument("not a plain decimal number");
  if (negative) decimal.digits = -decimal.digits;
  return decimal;
}

std::int64_t scaledTo(const Decimal& d, int decimals) {
  std::int64_t scaled = 0;
  if (__builtin_mul_overflow(d.digits, powerOfTen(decimals - d.decimals), &scaled))
    throw std::invalid_argument("too large for its number of decimal places");
  return scaled;
}

/// The shortest decimal text of scaled / 10^decimals: 15, 3 -> "0.015"; 2000, 3 -> "2".
std::string formatScaled(std::int64_t scaled, int decimals) {
  const std::int64_t unit = powerOfTen(decimals);
  const std::uint64_t magnitude = scaled < 0 ? static_cast<std::uint64_t>(-scaled) : static_cast<std::uint64_t>(scaled);
  const char* sign = scaled < 0 ? "-" : "";
  const std::uint64_t whole = magnitude / static_cast<std::uint64_t>(unit);
  if (decimals == 0) return fmt::format("{}{}", sign, whole);
  std::string fraction = fmt::format("{:0{}}", magnitude % static_cast<std::uint64_t>(unit), decimals);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  return fraction.empty() ? fmt::format("{}{}", sign, whole) : fmt::format("{}{}.{}", sign, whole, fraction);
}

std::string scalar(const YAML::Node& node, const std::string& path, const std::string& key) {
  return detail::scalarText(node, path, key);
}

/// {from, to[, step][, unit]}: from, from + step, ... up to and including `to` when it is reached.
std::vector<std::string> rangeValues(const YAML::Node& range, const std::string& path,
                                     const std::string& axis) {
  for (const char* key : {"from", "to"})
    if (!range[key].IsDefined())
      throw InputError(path, detail::lineOf(range), axis,
                       fmt::format("a range needs `from` and `to` (and optionally `step`, `unit`)"));
  auto decimal = [&](const char* key) {
    try {
      return parseDecimal(scalar(range[key], path, axis));
    } catch (const std::invalid_argument& e) {
      throw InputError(path, detail::lineOf(range[key]), axis,
                       fmt::format("range `{}` '{}': {}", key, range[key].Scalar(), e.what()));
    }
  };
  const Decimal from = decimal("from"), to = decimal("to");
  const Decimal step = range["step"].IsDefined() ? decimal("step") : Decimal{1, 0};
  const int decimals = std::max({from.decimals, to.decimals, step.decimals});
  std::int64_t first = 0, last = 0, increment = 0, span = 0;
  try {
    first = scaledTo(from, decimals);
    last = scaledTo(to, decimals);
    increment = scaledTo(step, decimals);
    if (__builtin_sub_overflow(last, first, &span)) throw std::invalid_argument("too wide");
  } catch (const std::invalid_argument& e) {
    throw InputError(path, detail::lineOf(range), axis, fmt::format("range: {}", e.what()));
  }
  if (increment <= 0)
    throw InputError(path, detail::lineOf(range), axis, "range `step` must be positive");
  if (span < 0) throw InputError(path, detail::lineOf(range), axis, "range `to` is below `from`");
  const std::uint64_t count = static_cast<std::uint64_t>(span / increment) + 1;
  if (count > kMaxPoints)
    throw InputError(path, detail::lineOf(range), axis,
                     fmt::format("range has {} values, more than {}", count, kMaxPoints));
  const std::string unit =
      range["unit"].IsDefined() ? fmt::format(" {}", scalar(range["unit"], path, axis)) : "";
  std::vector<std::string> values;
  for (std::uint64_t i = 0; i < count; ++i)
    values.push_back(formatScaled(first + static_cast<std::int64_t>(i) * increment, decimals) + unit);
  return values;
}

/// An axis: a list of values, {values: [...]}, or a range.
Axis parseAxis(const std::string& name, const YAML::Node& node, std::size_t name_line,
               const std::string& path) {
  Axis axis{name, {}, name_line, {}};
  YAML::Node list = node;
  if (node.IsMap()) {
    if (node["values"].IsDefined()) {
      detail::rejectUnknownKeys(node, {"values"}, path);
      list = node["values"];
    } else {
      detail::rejectUnknownKeys(node, {"from", "to", "step", "unit"}, path);
      axis.values = rangeValues(node, path, name);
      axis.value_lines.assign(axis.values.size(), detail::lineOf(node));
      return axis;
    }
  }
  if (!list.IsSequence())
    throw InputError(path, name_line, name,
                     "an axis is a list of values, {values: [...]}, or a range {from, to, step}");
  for (const YAML::Node& value : list) {
    axis.values.push_back(scalar(value, path, name));
    axis.value_lines.push_back(detail::lineOf(value));
  }
  if (axis.values.empty()) throw InputError(path, name_line, name, "the axis has no values");
  return axis;
}

bool isScenarioOption(const std::string& name) {
  const auto& options = scenarioOptions();
  return std::any_of(options.begin(), options.end(),
                     [&](const ScenarioOption& o) { return o.name == name; });
}

std::uint64_t wholeNumber(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("not a non-negative whole number");
  return value;
}

/// Every base value and every axis value through setOption, before any work.
void checkValues(const SweepSpec& spec) {
  Scenario base;
  for (const Setting& setting : spec.base) {
    try {
      setOption(base, setting.name, setting.value);
    } catch (const std::invalid_argument& e) {
      throw InputError(spec.path, setting.line, setting.name, e.what());
    }
  }
  std::uint64_t stride = spec.pointCount();
  for (const Axis& axis : spec.axes) {
    stride /= axis.values.size();
    for (std::size_t k = 0; k < axis.values.size(); ++k) {
      Scenario scenario = base;
      try {
        setOption(scenario, axis.name, axis.values[k]);
      } catch (const std::invalid_argument& e) {
        const std::uint64_t point = k * stride;  // the first point with this value
        throw InputError(spec.path, axis.value_lines[k], axis.name,
                         fmt::format("axis value '{}' is rejected, e.g. at point {} ({}): {}",
                                     axis.values[k], point, spec.describePoint(point), e.what()));
      }
    }
  }
}

}  // namespace

std::uint64_t SweepSpec::pointCount() const {
  std::uint64_t count = 1;
  for (const Axis& axis : axes) count *= axis.values.size();
  return count;
}

std::vector<std::uint32_t> SweepSpec::coordinates(std::uint64_t point) const {
  std::vector<std::uint32_t> coordinates(axes.size());
  for (std::size_t a = axes.size(); a-- > 0;) {
    coordinates[a] = static_cast<std::uint32_t>(point % axes[a].values.size());
    point /= axes[a].values.size();
  }
  return coordinates;
}

std::string SweepSpec::describePoint(std::uint64_t point) const {
  const std::vector<std::uint32_t> at = coordinates(point);
  std::string description;
  for (std::size_t a = 0; a < axes.size(); ++a)
    description += fmt::format("{}{}={}", a == 0 ? "" : ", ", axes[a].name, axes[a].values[at[a]]);
  return description;
}

std::uint64_t SweepSpec::scenarioSeed(std::uint64_t point) const {
  std::uint64_t point_seed = 0;
  for (const Setting& setting : base)
    if (setting.name == "seed") point_seed = wholeNumber(setting.value);
  const std::vector<std::uint32_t> at = coordinates(point);
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (axes[a].name == "seed") point_seed = wholeNumber(axes[a].values[at[a]]);
  return detail::splitmix64(detail::splitmix64(seed) ^ point_seed) >> 1;
}

Scenario SweepSpec::scenario(std::uint64_t point) const {
  Scenario scenario;
  for (const Setting& setting : base) setOption(scenario, setting.name, setting.value);
  const std::vector<std::uint32_t> at = coordinates(point);
  for (std::size_t a = 0; a < axes.size(); ++a)
    setOption(scenario, axes[a].name, axes[a].values[at[a]]);
  setOption(scenario, "seed", std::to_string(scenarioSeed(point)));
  return scenario;
}

std::string SweepSpec::hash() const {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", hash);
}

SweepSpec parseSweepSpec(const std::string& text, const std::string& path) {
  const YAML::Node root = detail::loadYaml(text, path);
  if (!root.IsMap())
    throw InputError(path, detail::lineOf(root), "",
                     "a sweep spec is a map with `axes` (and optionally `seed` and `base`)");
  detail::rejectUnknownKeys(root, {"seed", "base", "axes"}, path);

  SweepSpec spec;
  spec.path = path;
  spec.text = text;
  if (const YAML::Node seed = root["seed"]; seed.IsDefined()) {
    try {
      spec.seed = wholeNumber(scalar(seed, path, "seed"));
    } catch (const std::invalid_argument& e) {
      throw InputError(path, detail::lineOf(seed), "seed", fmt::format("'{}': {}", seed.Scalar(), e.what()));
    }
  }

  if (const YAML::Node base = root["base"]; base.IsDefined() && !base.IsNull()) {
    if (!base.IsMap())
      throw InputError(path, detail::lineOf(base), "base", "a map of option: value, as mosim run takes them");
    for (const auto& item : base) {
      const std::string name = item.first.Scalar();
      const std::size_t line = detail::lineOf(item.first);
      if (!isScenarioOption(name))
        throw InputError(path, line, name, "unknown option (see mosim run --help)");
      for (const Setting& earlier : spec.base)
        if (earlier.name == name) throw InputError(path, line, name, "given twice in `base`");
      spec.base.push_back({name, scalar(item.second, path, name), line});
    }
  }

  const YAML::Node axes = root["axes"];
  if (!axes.IsDefined() || axes.IsNull() || (axes.IsMap() && axes.size() == 0))
    throw InputError(path, detail::lineOf(root), "axes", "a sweep needs at least one axis");
  if (!axes.IsMap())
    throw InputError(path, detail::lineOf(axes), "axes", "a map of option: values");
  for (const auto& item : axes) {
    const std::string name = item.first.Scalar();
    const std::size_t line = detail::lineOf(item.first);
    if (!isScenarioOption(name))
      throw InputError(path, line, name, "unknown option for an axis (see mosim run --help)");
    for (const Axis& earlier : spec.axes)
      if (earlier.name == name) throw InputError(path, line, name, "axis given twice");
    for (const Setting& setting : spec.base)
      if (setting.name == name)
        throw InputError(path, line, name,
                         fmt::format("is both an axis and in `base` (line {}): keep one", setting.line));
    Axis axis = parseAxis(name, item.second, line, path);
    if (spec.pointCount() > kMaxPoints / axis.values.size())
      throw InputError(path, line, name, fmt::format("the grid would have more than {} points", kMaxPoints));
    spec.axes.push_back(std::move(axis));
  }
  checkValues(spec);
  return spec;
}

SweepSpec readSweepSpec(const std::string& path) {
  return parseSweepSpec(readTextFile(path), path);
}

std::string Shard::text() const {
  return all() ? "all" : fmt::format("{}/{}", index, count);
}

Shard parseShard(const std::string& text) {
  const std::size_t slash = text.find('/');
  Shard shard;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    shard.index = wholeNumber(text.substr(0, slash));
    shard.count = wholeNumber(text.substr(slash + 1));
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(fmt::format("--shard '{}': expected K/N, e.g. 0/4", text));
  }
  if (shard.count == 0 || shard.index >= shard.count)
    throw std::invalid_argument(fmt::format("--shard '{}': K must be below N (0/4 .. 3/4)", text));
  return shard;
}

}  // namespace mosim::sweep
