// The subcommands of the mosim binary. Each returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace mosim::cli {

int runCommand(const std::vector<std::string>& args);
int compareCommand(const std::vector<std::string>& args);
int traceCommand(const std::vector<std::string>& args);
int characterizeCommand(const std::vector<std::string>& args);
int sweepCommand(const std::vector<std::string>& args);
int mergeCommand(const std::vector<std::string>& args);

/// Runs a subcommand and turns errors into a one-line message and an exit status: 2 for bad input
/// or usage, 1 for anything unexpected.
int guarded(const char* command, int (*body)(const std::vector<std::string>&),
            const std::vector<std::string>& args);

}  // namespace mosim::cli
