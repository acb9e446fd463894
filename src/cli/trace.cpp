// mosim trace: synthetic Philly-like traces, bootstrap resampling of a real trace, and conversion
// of any supported format to mosim's trace CSV.
#include <boost/program_options.hpp>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>

#include "commands.hpp"
#include "mosim/synthetic.hpp"
#include "mosim/trace.hpp"
#include "mosim/workload.hpp"

namespace po = boost::program_options;

namespace mosim::cli {
namespace {

constexpr const char* kUsage =
    "usage: mosim trace generate (--jobs N | --horizon SECONDS) [--rate R] [--seed S] [--out FILE]\n"
    "       mosim trace resample --trace FILE --jobs N [--seed S] [--arrivals poisson|keep] [--out FILE]\n"
    "       mosim trace convert --trace FILE [--out FILE]\n"
    "`mosim trace <action> --help` shows an action's options.\n";

struct TraceCommandOptions {
  std::string out = "-";
  std::string pool;
  std::uint64_t seed = 0;
  bool quiet = false;
};

void addCommonOptions(po::options_description& d, TraceCommandOptions& o, const char* default_pool) {
  o.pool = default_pool;
  d.add_options()
      ("help,h", "show this help")
      ("seed", po::value(&o.seed)->default_value(o.seed), "random seed: the same seed gives the same trace on every machine")
      ("pool", po::value(&o.pool)->default_value(o.pool), "workload pool YAML for jobs without a model, `default` (the paper's 12 models) or `none`")
      ("out", po::value(&o.out)->default_value(o.out), "output trace CSV (mosim's format); - is standard output")
      ("quiet,q", po::bool_switch(&o.quiet), "no report on standard error");
}

void addReadingOptions(po::options_description& d, TraceOptionTexts& t) {
  d.add_options()
      ("trace", po::value<std::string>()->required(), "input trace (any format mosim run reads)")
      ("trace-format", po::value(&t.format)->default_value(t.format), "auto, mosim, artifact, philly, helios, acme, tiresias, pollux")
      ("time-origin", po::value(&t.time_origin)->default_value(t.time_origin), "auto, first-job or file (see mosim run --help)")
      ("status", po::value(&t.statuses), "job states to keep, comma-separated (Philly status, Helios/Acme state), or all")
      ("philly-attempts", po::value(&t.philly_attempts)->default_value(t.philly_attempts), "all or last")
      ("time-unit", po::value(&t.time_unit)->default_value(t.time_unit), "Tiresias traces: auto, s or ms")
      ("pollux-duration", po::value(&t.pollux_duration), "Pollux traces: SECONDS or philly");
}

/// Parses the arguments; false when --help was asked for (and printed).
bool parse(const std::vector<std::string>& args, const po::options_description& d,
           po::variables_map& vm) {
  po::store(po::command_line_parser(args).options(d).run(), vm);
  if (vm.count("help")) {
    std::cout << d << '\n';
    return false;
  }
  po::notify(vm);
  return true;
}

void report(const TraceCommandOptions& o, const TraceReport& r) {
  if (o.quiet) return;
  std::fprintf(stderr, "mosim trace: %s\n", r.summary().c_str());
  for (const std::string& example : r.examples)
    std::fprintf(stderr, "mosim trace: warning: skipped %s\n", example.c_str());
}

/// Attaches workloads from --pool (unless `none`) and writes the trace.
void finish(const TraceCommandOptions& o, Trace& trace) {
  if (o.pool != "none") {
    const WorkloadPool pool = o.pool == "default" ? defaultWorkloadPool() : readWorkloadPool(o.pool);
    AugmentOptions options;
    options.seed = o.seed;
    report(o, augmentTrace(trace, pool, options));
  }
  writeMosimTrace(o.out, trace);
  if (!o.quiet)
    std::fprintf(stderr, "mosim trace: %zu jobs written to %s\n", trace.jobs.size(),
                 o.out == "-" ? "standard output" : o.out.c_str());
}

int generate(const std::vector<std::string>& args) {
  TraceCommandOptions o;
  SyntheticSpec spec;
  std::size_t jobs = 0;
  double horizon_s = 0;
  po::options_description d("mosim trace generate options");
  d.add_options()
      ("jobs", po::value(&jobs), "number of jobs")
      ("horizon", po::value(&horizon_s), "or: every arrival before this many seconds")
      ("rate", po::value(&spec.rate_per_s)->default_value(spec.rate_per_s, "0.005"), "Poisson arrival rate per second (the paper's 0.005)")
      ("max-gpus", po::value(&spec.max_gpus)->default_value(0, "none"), "largest GPU count to draw, e.g. the cluster's GPUs");
  addCommonOptions(d, o, "default");
  po::variables_map vm;
  if (!parse(args, d, vm)) return 0;
  if (vm.count("jobs") == vm.count("horizon"))
    throw std::invalid_argument("give either --jobs N or --horizon SECONDS");
  spec.jobs = jobs;
  spec.horizon_s = horizon_s;
  if (vm.count("jobs") && jobs == 0) throw std::invalid_argument("--jobs must be at least 1");
  spec.seed = o.seed;
  Trace trace = generateSyntheticTrace(spec);
  report(o, trace.report);
  finish(o, trace);
  return 0;
}

int resample(const std::vector<std::string>& args) {
  TraceCommandOptions o;
  TraceOptionTexts texts;
  ResampleSpec spec;
  std::string arrivals = "poisson";
  po::options_description d("mosim trace resample options");
  d.add_options()
      ("jobs", po::value(&spec.jobs)->required(), "number of jobs to draw (with replacement)")
      ("arrivals", po::value(&arrivals)->default_value(arrivals), "poisson: new Poisson arrivals; keep: each drawn job keeps its submit time")
      ("rate", po::value(&spec.rate_per_s)->default_value(0, "the source's"), "Poisson arrival rate per second; default: the source's mean rate");
  addReadingOptions(d, texts);
  addCommonOptions(d, o, "none");
  po::variables_map vm;
  if (!parse(args, d, vm)) return 0;
  if (arrivals == "poisson")
    spec.arrivals = ResampleArrivals::Poisson;
  else if (arrivals == "keep")
    spec.arrivals = ResampleArrivals::Keep;
  else
    throw std::invalid_argument(fmt::format("--arrivals: unknown '{}' (known: poisson, keep)", arrivals));
  texts.seed = o.seed;
  const Trace source = readTraceFile(vm["trace"].as<std::string>(), parseTraceOptions(texts));
  report(o, source.report);
  spec.seed = o.seed;
  Trace trace = resampleTrace(source, spec);
  finish(o, trace);
  return 0;
}

int convert(const std::vector<std::string>& args) {
  TraceCommandOptions o;
  TraceOptionTexts texts;
  po::options_description d("mosim trace convert options");
  addReadingOptions(d, texts);
  addCommonOptions(d, o, "none");
  po::variables_map vm;
  if (!parse(args, d, vm)) return 0;
  texts.seed = o.seed;
  Trace trace = readTraceFile(vm["trace"].as<std::string>(), parseTraceOptions(texts));
  report(o, trace.report);
  finish(o, trace);
  return 0;
}

}  // namespace

int traceCommand(const std::vector<std::string>& args) {
  if (args.empty())
    throw std::invalid_argument("give an action: generate, resample or convert (see mosim trace --help)");
  if (args.front() == "--help" || args.front() == "-h" || args.front() == "help") {
    std::printf("%s", kUsage);
    return 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args.front() == "generate") return generate(rest);
  if (args.front() == "resample") return resample(rest);
  if (args.front() == "convert") return convert(rest);
  throw std::invalid_argument(fmt::format(
      "unknown action '{}' (known: generate, resample, convert)", args.front()));
}

}  // namespace mosim::cli
