#include "workload/yaml_input.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/units.hpp"

namespace mosim::detail {

YAML::Node loadYaml(std::string_view text, const std::string& name) {
  try {
    return YAML::Load(std::string(text));
  } catch (const YAML::ParserException& error) {
    throw InputError(name, static_cast<std::size_t>(error.mark.line + 1), "",
                     "malformed YAML: " + error.msg);
  } catch (const YAML::Exception& error) {
    throw InputError(name, 0, "", std::string("malformed YAML: ") + error.what());
  }
}

std::size_t lineOf(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line < 0 ? 0 : static_cast<std::size_t>(mark.line + 1);
}

void rejectUnknownKeys(const YAML::Node& map, std::initializer_list<std::string_view> known,
                       const std::string& file) {
  for (const auto& item : map) {
    const std::string key = item.first.Scalar();
    bool found = false;
    for (std::string_view name : known) found = found || key == name;
    if (found) continue;
    std::string list;
    for (std::string_view name : known) list += fmt::format("{}{}", list.empty() ? "" : ", ", name);
    throw InputError(file, lineOf(item.first), key,
                     fmt::format("unknown key (known: {})", list));
  }
}

std::string scalarText(const YAML::Node& node, const std::string& file, std::string_view key) {
  if (!node.IsScalar())
    throw InputError(file, lineOf(node), std::string(key),
                     node.IsNull() ? "a value is required" : "expected a single value");
  return node.Scalar();
}

double numberValue(const YAML::Node& node, const std::string& file, std::string_view key) {
  const std::string text = scalarText(node, file, key);
  try {
    return parseNumber(text);
  } catch (const std::invalid_argument& error) {
    throw InputError(file, lineOf(node), std::string(key), error.what());
  }
}

int integerValue(const YAML::Node& node, const std::string& file, std::string_view key,
                 int minimum, int maximum) {
  const double value = numberValue(node, file, key);
  if (std::trunc(value) != value)
    throw InputError(file, lineOf(node), std::string(key),
                     fmt::format("'{}' is not a whole number", node.Scalar()));
  if (value < minimum || value > maximum)
    throw InputError(file, lineOf(node), std::string(key),
                     fmt::format("{} is out of range ({} to {})", node.Scalar(), minimum, maximum));
  return static_cast<int>(value);
}

}  // namespace mosim::detail
