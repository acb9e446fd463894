// mosim: simulate GPU clusters running distributed training jobs that share NICs.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*body)(const std::vector<std::string>&);
};

// One line per subcommand.
constexpr Command kCommands[] = {
    {"run", "replay a job trace on a cluster (no options: the built-in example)",
     mosim::cli::runCommand},
    {"compare", "compare a simulation's jobs.csv with ground truth (APE, KS, Wasserstein)",
     mosim::cli::compareCommand},
    {"trace", "generate, resample or convert job traces (mosim trace --help)", mosim::cli::traceCommand},
    {"characterize", "GPU-free profiles (T_comp, T_net, C_j) for a model, GPU and placement", mosim::cli::characterizeCommand},
    {"sweep", "a grid of scenarios over MPI ranks and OpenMP threads, into HDF5 (mosim sweep --help)", mosim::cli::sweepCommand},
    {"merge", "join sweep result files of one spec (shards) into one", mosim::cli::mergeCommand},
};

void printUsage() {
  std::printf("mosim %s - GPU-cluster simulator with network contention\n\n", MOSIM_VERSION);
  std::printf("usage: mosim <command> [options]\n\ncommands:\n");
  for (const auto& command : kCommands) std::printf("  %-13s %s\n", command.name, command.summary);
  std::printf(
      "\n`mosim <command> --help` shows a command's options. With no command at all, mosim runs\n"
      "the built-in example.\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return mosim::cli::guarded("run", mosim::cli::runCommand, {});
  const std::string name = args.front();
  args.erase(args.begin());
  for (const auto& command : kCommands)
    if (name == command.name) return mosim::cli::guarded(command.name, command.body, args);
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage();
    return 0;
  }
  if (name == "--version") {
    std::printf("mosim %s\n", MOSIM_VERSION);
    return 0;
  }
  std::fprintf(stderr, "mosim: unknown command '%s' (try mosim --help)\n", name.c_str());
  return 2;
}
