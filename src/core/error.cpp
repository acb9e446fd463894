#include "mosim/error.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

namespace mosim {

namespace {

// "FILE:LINE: field 'FIELD': MESSAGE", without ":LINE" for line 0 and without the field part when
// there is no field. Kept to one line because the CLI prints it as is.
std::string oneLineMessage(const std::string& file, std::size_t line, const std::string& field,
                           const std::string& message) {
  std::string text = file;
  if (line != 0) text += fmt::format(":{}", line);
  text += ": ";
  if (!field.empty()) text += fmt::format("field '{}': ", field);
  text += message;
  std::replace_if(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return text;
}

}  // namespace

InputError::InputError(std::string file, std::size_t line, std::string field,
                       const std::string& message)
    : std::runtime_error(oneLineMessage(file, line, field, message)),
      file_(std::move(file)),
      line_(line),
      field_(std::move(field)) {}

}  // namespace mosim
