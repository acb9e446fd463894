#include "mosim/text.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "mosim/error.hpp"

namespace mosim {

std::string_view trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::string readTextFile(const std::string& path, std::string_view kind) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    throw InputError(path, 0, "", fmt::format("is a directory, not a {}", kind));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "", fmt::format("cannot open: {}", std::strerror(errno)));
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, "", "cannot read the file");
  return std::move(content).str();
}

}  // namespace mosim
