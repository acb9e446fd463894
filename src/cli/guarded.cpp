#include <boost/program_options/errors.hpp>
#include <cstdio>
#include <exception>
#include <stdexcept>

#include "commands.hpp"
#include "mosim/error.hpp"

namespace mosim::cli {

int guarded(const char* command, int (*body)(const std::vector<std::string>&),
            const std::vector<std::string>& args) {
  try {
    return body(args);
  } catch (const InputError& e) {
    std::fprintf(stderr, "mosim %s: error: %s\n", command, e.what());
  } catch (const boost::program_options::error& e) {
    std::fprintf(stderr, "mosim %s: error: %s (see mosim %s --help)\n", command, e.what(), command);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "mosim %s: error: %s\n", command, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mosim %s: internal error: %s\n", command, e.what());
    return 1;
  }
  return 2;
}

}  // namespace mosim::cli
