// Errors in user input: every reader reports the file, line and field it saw, and the CLI prints
// the one-line message and exits with status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace mosim {

class InputError : public std::runtime_error {
 public:
  /// `line` is 1-based; 0 means the file as a whole. `field` may be empty.
  InputError(std::string file, std::size_t line, std::string field, const std::string& message);

  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& field() const { return field_; }

 private:
  std::string file_;
  std::size_t line_;
  std::string field_;
};

}  // namespace mosim
