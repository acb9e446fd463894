// Helpers shared by the unit tests: where the test data and the paper artifact's data live,
// a check that an InputError names the expected file, line, field and message, and the skip
// for tests that need the artifact data, and a temporary folder for the files a test writes.
#pragma once

#include <unistd.h>

#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <filesystem>
#include <string>

#include "mosim/error.hpp"

namespace mosim::test {

/// tests/data, set by tests/CMakeLists.txt.
inline const std::string kTestData = MOSIM_TEST_DATA_DIR;
/// The paper artifact's public data, set by tests/CMakeLists.txt; it may be absent.
inline const std::string kArtifact = MOSIM_ARTIFACT_DIR;

/// What an InputError should say.
struct Expected {
  std::string file;
  std::size_t line;
  std::string field;
  std::string fragment;  // part of the message
};

/// True when `call` throws an InputError with the expected location and message part.
template <typename Call>
bool throwsInputError(Call call, const Expected& expected) {
  try {
    call();
  } catch (const InputError& error) {
    BOOST_TEST_MESSAGE(error.what());
    BOOST_TEST(error.file() == expected.file);
    BOOST_TEST(error.line() == expected.line);
    BOOST_TEST(error.field() == expected.field);
    BOOST_TEST(std::string(error.what()).find(expected.fragment) != std::string::npos,
               "message '" << error.what() << "' lacks '" << expected.fragment << "'");
    return true;
  }
  return false;
}

/// True when the artifact folder exists or, if `file` is given, that file does; otherwise logs
/// that the calling test is skipped, which it then does by returning.
inline bool artifactPresent(const std::string& file = {}) {
  const bool present =
      file.empty() ? std::filesystem::is_directory(kArtifact) : std::filesystem::exists(file);
  if (present) return true;
  BOOST_TEST_MESSAGE("skipped: artifact data not found at " << (file.empty() ? kArtifact : file));
  return false;
}

/// A fresh folder under the system's temporary folder, removed with everything in it when the
/// test ends; unique per process and per instance, so that tests may run in parallel.
struct TemporaryFolder {
  std::filesystem::path path;
  TemporaryFolder() {
    path = std::filesystem::temp_directory_path() /
           ("mosim-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TemporaryFolder() { std::filesystem::remove_all(path); }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  /// The path of `name` in the folder.
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  static inline int counter = 0;
};

}  // namespace mosim::test
