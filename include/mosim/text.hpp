// Small text helpers shared by the readers (CSV, traces, units, YAML and ASTRA-sim files).
#pragma once

#include <string>
#include <string_view>

namespace mosim {

/// The text without leading and trailing spaces, tabs, carriage returns and newlines.
std::string_view trim(std::string_view text);

/// True when the two texts are equal but for ASCII letter case ("MiB/s" and "mib/s").
bool equalsIgnoringCase(std::string_view a, std::string_view b);

/// The whole file as bytes. InputError naming the file when it is a directory ("is a directory,
/// not a KIND"), cannot be opened or cannot be read.
std::string readTextFile(const std::string& path, std::string_view kind = "file");

}  // namespace mosim
