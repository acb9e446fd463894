// mosim merge: joins sweep files of one spec (the shards of a Slurm array, or parts run as
// separate jobs) into one, refusing files of another spec and overlapping points.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "mosim/error.hpp"
#include <fmt/format.h>

#include "mosim/sweep_file.hpp"

namespace po = boost::program_options;

namespace mosim::cli {

int mergeCommand(const std::vector<std::string>& args) {
  std::vector<std::string> inputs;
  std::string out;
  bool force = false, quiet = false;
  po::options_description description("mosim merge A.h5 B.h5 ... -o OUT.h5 [options]");
  description.add_options()
      ("help,h", "show this help")
      ("inputs", po::value(&inputs)->multitoken(), "sweep files to join (positional)")
      ("out,o", po::value(&out), "the merged file")
      ("force", po::bool_switch(&force), "overwrite OUT if it exists")
      ("quiet,q", po::bool_switch(&quiet), "no summary");
  po::positional_options_description positional;
  positional.add("inputs", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(description).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << description << '\n';
    return 0;
  }
  po::notify(vm);
  if (inputs.empty()) throw std::invalid_argument("no sweep files to merge (mosim merge A.h5 B.h5 -o OUT.h5)");
  if (out.empty()) throw std::invalid_argument("where to? give -o OUT.h5");
  if (std::filesystem::exists(out) && !force)
    throw InputError(out, 0, "", "exists: give --force to overwrite it");

  std::vector<sweep::SweepData> parts;
  for (const std::string& input : inputs) parts.push_back(sweep::readSweepFile(input));
  const sweep::SweepData merged = sweep::mergeSweepData(inputs, parts);
  const sweep::SweepSpec spec = sweep::parseSweepSpec(merged.info.spec_text, inputs.front() + " (spec)");
  sweep::writeSweepFileAtomically(out, spec, merged);
  if (!quiet) {
    const std::uint64_t total = merged.info.points_total;
    const std::uint64_t held = merged.points.size();
    std::printf("mosim merge: %zu files, %llu of %llu points%s; written to %s\n", inputs.size(),
                static_cast<unsigned long long>(held), static_cast<unsigned long long>(total),
                held == total ? " (complete)" : fmt::format(" ({} missing)", total - held).c_str(),
                out.c_str());
  }
  return 0;
}

}  // namespace mosim::cli
