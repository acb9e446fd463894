// Opening and closing result files, shared by the writers so that every I/O failure becomes the
// same InputError (file, line 0) that the CLI prints.
#pragma once

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "mosim/error.hpp"

namespace mosim::detail {

/// The system's reason for the last failure, if it left one.
inline std::string ioFailureReason() {
  return errno != 0 ? std::strerror(errno) : "I/O error";
}

/// Opens `path` for writing, truncating it; throws InputError when it cannot.
inline std::ofstream openOutputFile(const std::string& path) {
  errno = 0;
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw InputError(path, 0, "", "cannot open for writing: " + ioFailureReason());
  return out;
}

/// Flushes and closes; throws InputError when any write failed (a full disk shows up here).
inline void closeOutputFile(std::ofstream& out, const std::string& path) {
  errno = 0;
  out.close();
  if (!out) throw InputError(path, 0, "", "cannot write: " + ioFailureReason());
}

}  // namespace mosim::detail
