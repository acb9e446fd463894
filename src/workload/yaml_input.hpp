// Internal: reading mosim's YAML input files (workload pools, cluster configurations) with errors
// that name the file, line and key.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace mosim::detail {

/// Parses YAML text; a syntax error is an InputError at its line.
YAML::Node loadYaml(std::string_view text, const std::string& name);

/// The 1-based line of a node (0 when it has none, e.g. a node that is absent).
std::size_t lineOf(const YAML::Node& node);

/// Throws InputError for a key of `map` that is not among `known`, naming the known ones.
void rejectUnknownKeys(const YAML::Node& map, std::initializer_list<std::string_view> known,
                       const std::string& file);

/// A scalar's text; InputError at the node's line when it is a list or a map.
std::string scalarText(const YAML::Node& node, const std::string& file, std::string_view key);
/// A finite number.
double numberValue(const YAML::Node& node, const std::string& file, std::string_view key);
/// A whole number within [minimum, maximum].
int integerValue(const YAML::Node& node, const std::string& file, std::string_view key,
                 int minimum, int maximum);

}  // namespace mosim::detail
