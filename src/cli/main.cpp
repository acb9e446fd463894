// mosim: simulate GPU clusters running distributed training jobs that share NICs.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"

namespace {

void printUsage() {
  std::puts(
      "mosim " MOSIM_VERSION " - GPU-cluster simulator with network contention\n"
      "\n"
      "usage: mosim <command> [options]\n"
      "\n"
      "commands:\n"
      "  run       replay a job trace on a cluster (no options: the built-in example)\n"
      "  compare   compare a simulation's jobs.csv with ground truth (APE, KS, Wasserstein)\n"
      "\n"
      "`mosim <command> --help` shows a command's options. With no command at all, mosim runs\n"
      "the built-in example.");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return mosim::cli::guarded("run", mosim::cli::runCommand, {});
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "run") return mosim::cli::guarded("run", mosim::cli::runCommand, args);
  if (command == "compare") return mosim::cli::guarded("compare", mosim::cli::compareCommand, args);
  if (command == "--help" || command == "-h" || command == "help") {
    printUsage();
    return 0;
  }
  if (command == "--version") {
    std::puts("mosim " MOSIM_VERSION);
    return 0;
  }
  std::fprintf(stderr, "mosim: unknown command '%s' (try mosim --help)\n", command.c_str());
  return 2;
}
