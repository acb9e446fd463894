// Reading fields of YAML mappings with errors that name the file, line and field (InputError).
#pragma once

#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "mosim/error.hpp"

namespace mosim::yaml {

/// A YAML node with the file it came from and the path of field names leading to it, so that
/// every error can say "models.yaml:12: field 'models[1].layers[3].kernel': ...".
struct Field {
  std::string file;
  YAML::Node node;
  std::string path;

  std::size_t line() const { return node.Mark().line >= 0 ? static_cast<std::size_t>(node.Mark().line) + 1 : 0; }
  [[noreturn]] void fail(const std::string& message) const { throw InputError(file, line(), path, message); }

  bool has(const std::string& key) const { return node.IsMap() && node[key].IsDefined() && !node[key].IsNull(); }
  /// A member; missing members are an error naming the member.
  Field at(const std::string& key) const;
  Field at(std::size_t index) const;
  std::optional<Field> find(const std::string& key) const;

  std::string text() const;
  double number() const;
  double positive() const;       ///< a number > 0
  int positiveInteger() const;   ///< a whole number >= 1
  bool boolean() const;
  /// A bandwidth with its unit ("900 GB/s"), in bytes per second.
  double bandwidth_Bps() const;
};

/// Loads a file; a missing file or a YAML syntax error is an InputError naming the file (and line).
YAML::Node loadFile(const std::string& path);

}  // namespace mosim::yaml
