#include "characterize/yaml_fields.hpp"

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/units.hpp"

namespace mosim::yaml {

YAML::Node loadFile(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path, 0, "", "cannot open the file");
  try {
    return YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InputError(path, e.mark.line >= 0 ? static_cast<std::size_t>(e.mark.line) + 1 : 0, "",
                     "not valid YAML: " + e.msg);
  }
}

Field Field::at(const std::string& key) const {
  if (!node.IsMap()) fail("expected a mapping with '" + key + "'");
  const YAML::Node child = node[key];
  const std::string child_path = path.empty() ? key : path + "." + key;
  if (!child.IsDefined() || child.IsNull()) throw InputError(file, line(), child_path, "is required");
  return Field{file, child, child_path};
}

Field Field::at(std::size_t index) const { return Field{file, node[index], fmt::format("{}[{}]", path, index)}; }

std::optional<Field> Field::find(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return at(key);
}

std::string Field::text() const {
  if (!node.IsScalar()) fail("expected a single value");
  return node.Scalar();
}

double Field::number() const {
  try {
    return parseNumber(text());
  } catch (const std::invalid_argument&) {
    fail(fmt::format("'{}' is not a number", text()));
  }
}

double Field::positive() const {
  const double value = number();
  if (!(value > 0)) fail(fmt::format("'{}' must be positive", text()));
  return value;
}

int Field::positiveInteger() const {
  const double value = positive();
  if (value != std::floor(value) || value > 1e9) fail(fmt::format("'{}' must be a positive whole number", text()));
  return static_cast<int>(value);
}

bool Field::boolean() const {
  const std::string value = text();
  if (value == "true" || value == "yes") return true;
  if (value == "false" || value == "no") return false;
  fail(fmt::format("'{}' must be true or false", value));
}

double Field::bandwidth_Bps() const {
  try {
    const double rate = parseBandwidth_Bps(text());
    if (!(rate > 0)) fail(fmt::format("'{}' must be positive", text()));
    return rate;
  } catch (const std::invalid_argument& e) {
    fail(fmt::format("'{}': {}", text(), e.what()));
  }
}

}  // namespace mosim::yaml
