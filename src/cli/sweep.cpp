// mosim sweep: a cartesian grid of scenarios over MPI ranks and OpenMP threads, journaled point by
// point and gathered into one HDF5 file (README "Sweeps").
//
//   rank 0: check the output and journals, decide what to compute  --broadcast-->  every rank
//   every rank: compute points (sweep_dispatch.cpp), append each result to its own journal
//   rank 0, once all ranks are done: journals -> OUT.tmp -> rename to OUT; remove the journals
#include <fcntl.h>
#include <signal.h>
#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "commands.hpp"
#include "mosim/error.hpp"
#include "mosim/progress.hpp"
#include "mosim/sweep.hpp"
#include "mosim/sweep_file.hpp"
#include "mosim/sweep_journal.hpp"
#include "sweep_dispatch.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace mosim::cli {
namespace {

using Clock = std::chrono::steady_clock;
using sweep::PointResult;
using sweep::Shard;
using sweep::SweepSpec;

/// fdatasync costs about 3.5 ms on this VM, as much as a cheap point: journals are synced at most
/// this often (and at the end), while every record is written to the kernel at once.
constexpr std::chrono::milliseconds kSyncInterval{1000};

struct Options {
  std::string spec;
  std::string out = "sweep.h5";
  std::string shard = "0/1";
  bool resume = false, force = false, per_job = false, dry_run = false, quiet = false;
  int samples = 3;
};

po::options_description describeOptions(Options& o) {
  po::options_description d("mosim sweep SPEC [options]");
  d.add_options()
      ("help,h", "show this help")
      ("spec", po::value(&o.spec), "the sweep spec (YAML); also the first positional argument")
      ("out,o", po::value(&o.out)->default_value(o.out), "the HDF5 result file")
      ("resume", po::bool_switch(&o.resume), "continue an interrupted sweep from its journals (OUT.journal/)")
      ("force", po::bool_switch(&o.force), "overwrite an existing result file and discard its journals")
      ("per-job", po::bool_switch(&o.per_job), "also store every job of every point (/jobs)")
      ("shard", po::value(&o.shard)->default_value("0/1"), "K/N: compute only the points whose index % N == K (a Slurm array task); merge the shards with mosim merge")
      ("dry-run", po::bool_switch(&o.dry_run), "print the axes, the number of points and a cost estimate; compute nothing")
      ("samples", po::value(&o.samples)->default_value(o.samples), "with --dry-run: points to simulate for the cost estimate (0: none)")
      ("quiet,q", po::bool_switch(&o.quiet), "no progress or summary");
  return d;
}

/// The rank the launcher gave this process, read before MPI_Init so that only rank 0 reports
/// input errors (every rank finds the same ones). 0 when not launched by mpirun or srun.
int launcherRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}

/// "a, b, c, ..., y, z" for long lists.
std::string listValues(const std::vector<std::string>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values.size() > 8 && i == 5) {
      text += ", ...";
      i = values.size() - 3;
      continue;
    }
    text += (i == 0 ? "" : ", ") + values[i];
  }
  return text;
}

std::uint64_t pointsOfShard(const SweepSpec& spec, const Shard& shard) {
  const std::uint64_t total = spec.pointCount();
  return total / shard.count + (shard.index < total % shard.count ? 1 : 0);
}

// ---- --dry-run ----------------------------------------------------------------------------------

int dryRun(const SweepSpec& spec, const Shard& shard, const Options& o) {
  const std::uint64_t total = spec.pointCount();
  const std::uint64_t mine = pointsOfShard(spec, shard);
  std::printf("sweep %s: %llu points, spec hash %s\n", spec.path.c_str(),
              static_cast<unsigned long long>(total), spec.hash().c_str());
  if (!shard.all())
    std::printf("shard %s: %llu points (index %% %llu == %llu)\n", shard.text().c_str(),
                static_cast<unsigned long long>(mine), static_cast<unsigned long long>(shard.count),
                static_cast<unsigned long long>(shard.index));
  for (const sweep::Setting& setting : spec.base)
    std::printf("  base  %-16s %s\n", setting.name.c_str(), setting.value.c_str());
  for (const sweep::Axis& axis : spec.axes)
    std::printf("  axis  %-16s %zu values: %s\n", axis.name.c_str(), axis.values.size(),
                listValues(axis.values).c_str());

  if (o.samples <= 0) return 0;
  // One point drawn at random from each of `samples` equal slices of the grid, simulated here one
  // after the other. Random within the slice: evenly spaced points would alias with the grid
  // (with 8 points per seed, every 8th point has the same policy and model).
  const std::uint64_t samples = std::min<std::uint64_t>(static_cast<std::uint64_t>(o.samples), total);
  std::mt19937_64 random(spec.seed);
  double sum_s = 0, min_s = 1e300, max_s = 0;
  std::string failures;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const std::uint64_t slice_begin = i * total / samples, slice_end = (i + 1) * total / samples;
    const std::uint64_t point = slice_begin + random() % (slice_end - slice_begin);
    const PointResult result = sweep::runPoint(spec, point, false);
    sum_s += result.wall_seconds;
    min_s = std::min(min_s, result.wall_seconds);
    max_s = std::max(max_s, result.wall_seconds);
    if (result.status == sweep::PointStatus::Failed)
      failures += fmt::format("\n  point {} ({}) fails: {}", point, spec.describePoint(point), result.error);
  }
  const double mean_s = sum_s / static_cast<double>(samples);
  const double cpu_s = mean_s * static_cast<double>(mine);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf("cost estimate: %llu sampled points took %.3g to %.3g s each (mean %.3g s): about "
              "%.3g CPU-seconds for %llu points, %.3g s of wall time on %u workers (ranks x threads, "
              "e.g. this machine's cores). Point costs can differ by orders of magnitude: a rough "
              "guide, better with more --samples.%s\n",
              static_cast<unsigned long long>(samples), min_s, max_s, mean_s, cpu_s,
              static_cast<unsigned long long>(mine), cpu_s / cores, cores, failures.c_str());
  return 0;
}

// ---- MPI ----------------------------------------------------------------------------------------

class MpiSession {
 public:
  MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (provided < MPI_THREAD_SERIALIZED)
      abortAllRanks("this MPI library does not support MPI_THREAD_SERIALIZED");
  }
  ~MpiSession() { MPI_Finalize(); }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
};

void barrierPolitely() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  waitPolitely(request);
}

// ---- What to compute (rank 0) --------------------------------------------------------------------

enum class PlanStatus : int { Compute = 0, AlreadyComplete = 1, InputProblem = 2, Failure = 3 };

struct Plan {
  PlanStatus status = PlanStatus::Compute;
  unsigned attempt = 1;
  std::vector<std::uint64_t> todo;  ///< in hand-out order
  std::uint64_t journaled = 0;      ///< points found in journals
};

/// Makes a new entry in `folder` durable (best effort: some file systems refuse to sync folders).
void syncFolder(const fs::path& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

/// Checks the output and the journals and lists the points still to compute.
Plan planRun(const SweepSpec& spec, const Shard& shard, const Options& o,
             const sweep::JournalHeader& header) {
  const std::string folder = sweep::journalFolder(o.out);
  std::error_code error;
  if (o.force) {
    fs::remove(o.out, error);
    fs::remove_all(folder, error);
  } else if (fs::exists(o.out)) {
    if (!o.resume)
      throw InputError(o.out, 0, "", "exists: give --resume to complete the sweep or --force to overwrite it");
    const sweep::SweepData existing = sweep::readSweepFile(o.out);
    if (existing.info.spec_hash != header.spec_hash || existing.info.shard != shard.text() ||
        existing.info.per_job != header.per_job)
      throw InputError(o.out, 0, "",
                       fmt::format("holds another sweep (spec {}, shard {}), not this one (spec {}, "
                                   "shard {}): use --force to overwrite it",
                                   existing.info.spec_hash, existing.info.shard, header.spec_hash,
                                   shard.text()));
    fs::remove_all(folder, error);  // left if a run was killed between the rename and the cleanup
    Plan plan;
    plan.status = PlanStatus::AlreadyComplete;
    return plan;
  } else if (fs::exists(folder) && !o.resume) {
    throw InputError(folder, 0, "",
                     "holds the journals of an interrupted sweep: give --resume to continue it or "
                     "--force to start over");
  }

  const sweep::JournalScan scan = sweep::readJournals(folder, header);
  for (const std::string& note : scan.notes) std::fprintf(stderr, "mosim sweep: note: %s\n", note.c_str());
  std::vector<bool> done(spec.pointCount(), false);
  Plan plan;
  for (const PointResult& result : scan.points) {
    if (result.point >= spec.pointCount() || !shard.holds(result.point))
      throw InputError(folder, 0, "", fmt::format("a journal holds point {}, which is not in this sweep", result.point));
    if (!done[result.point]) ++plan.journaled;
    done[result.point] = true;
  }
  for (std::uint64_t point = shard.index; point < spec.pointCount(); point += shard.count)
    if (!done[point]) plan.todo.push_back(point);
  // Hand points out in a fixed pseudo-random order, so that every chunk mixes cheap and expensive
  // points (costs follow the axes); the file is in point order whatever the order of computation.
  std::mt19937_64 shuffle(0x5eed);
  std::shuffle(plan.todo.begin(), plan.todo.end(), shuffle);
  plan.attempt = scan.last_attempt + 1;

  fs::create_directories(folder, error);
  if (error) throw InputError(folder, 0, "", "cannot create the journal folder: " + error.message());
  syncFolder(fs::path(folder).parent_path().empty() ? fs::path(".") : fs::path(folder).parent_path());
  return plan;
}

/// Rank 0's plan, on every rank.
void broadcast(Plan& plan) {
  std::uint64_t head[3] = {static_cast<std::uint64_t>(plan.status), plan.attempt, plan.todo.size()};
  MPI_Bcast(head, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  plan.status = static_cast<PlanStatus>(head[0]);
  plan.attempt = static_cast<unsigned>(head[1]);
  plan.todo.resize(head[2]);
  if (!plan.todo.empty())
    MPI_Bcast(plan.todo.data(), static_cast<int>(plan.todo.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

/// Journals -> the result file, atomically; then the journals go. Returns the sum of the points'
/// own times.
double buildResultFile(const SweepSpec& spec, const Shard& shard, const Options& o,
                     const sweep::JournalHeader& header, int ranks, int threads) {
  const std::string folder = sweep::journalFolder(o.out);
  sweep::JournalScan scan = sweep::readJournals(folder, header);
  for (const std::string& note : scan.notes) std::fprintf(stderr, "mosim sweep: note: %s\n", note.c_str());
  std::map<std::uint64_t, PointResult> by_point;
  for (PointResult& result : scan.points) by_point.try_emplace(result.point, std::move(result));
  sweep::SweepData data;
  data.info = sweep::describeRun(spec, shard, o.per_job, ranks, threads);
  double points_s = 0;
  for (std::uint64_t point = shard.index; point < spec.pointCount(); point += shard.count) {
    const auto it = by_point.find(point);
    if (it == by_point.end())
      throw std::runtime_error(fmt::format("point {} is missing from the journals in {}", point, folder));
    points_s += it->second.wall_seconds;
    data.points.push_back(std::move(it->second));
  }
  sweep::writeSweepFileAtomically(o.out, spec, data);
  fs::remove_all(folder);
  return points_s;
}

/// Warns when this process may run fewer cores than threads: mpirun binds each rank to one core
/// by default, and all of its OpenMP threads would then share it.
void warnAboutBinding(int threads) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) return;
  const int available = CPU_COUNT(&cpus);
  if (available < threads)
    std::fprintf(stderr,
                 "mosim sweep: warning: %d OpenMP threads but this rank may run on %d core(s); with "
                 "mpirun, add --bind-to none or --map-by slot:PE=%d\n",
                 threads, available, threads);
}

int runSweep(const SweepSpec& spec, const Shard& shard, const Options& o) {
  const auto start = Clock::now();
  MpiSession mpi;
  const bool root = mpi.rank() == 0;
  const int threads = omp_get_max_threads();
  const sweep::JournalHeader header{spec.hash(), shard, o.per_job};

  // Rank 0 decides; an error there is reported by rank 0 and ends every rank with its status.
  Plan plan;
  std::exception_ptr problem;
  if (root) {
    try {
      plan = planRun(spec, shard, o, header);
    } catch (const InputError&) {
      plan.status = PlanStatus::InputProblem;
      problem = std::current_exception();
    } catch (const std::exception&) {
      plan.status = PlanStatus::Failure;
      problem = std::current_exception();
    }
  }
  broadcast(plan);
  if (problem) std::rethrow_exception(problem);
  if (plan.status == PlanStatus::InputProblem) return 2;
  if (plan.status == PlanStatus::Failure) return 1;
  if (plan.status == PlanStatus::AlreadyComplete) {
    if (root && !o.quiet) std::printf("mosim sweep: %s is already complete\n", o.out.c_str());
    return 0;
  }
  if (root && !o.quiet) {
    warnAboutBinding(threads);
    if (plan.journaled > 0)
      std::fprintf(stderr, "mosim sweep: resuming: %llu points journaled, %zu to compute\n",
                   static_cast<unsigned long long>(plan.journaled), plan.todo.size());
  }

  // From here until every rank is done, an error on one rank must stop all of them.
  const auto compute_start = Clock::now();
  try {
    const std::string path = (fs::path(sweep::journalFolder(o.out)) /
                              sweep::journalFileName(plan.attempt, mpi.rank())).string();
    sweep::JournalWriter journal(path, header);
    ProgressMeter meter("mosim sweep: points", plan.todo.size(), root && !o.quiet);
    dispatchPoints(
        plan.todo, threads,
        [&](std::uint64_t point) {
          journal.append(sweep::runPoint(spec, point, o.per_job));
          journal.syncIfDue(kSyncInterval);
        },
        [&](std::uint64_t done) { meter.update(done); });
    journal.sync();
    barrierPolitely();
    meter.finish();
  } catch (const std::exception& e) {
    abortAllRanks(e.what());
  }
  if (!root) return 0;

  const auto write_start = Clock::now();
  const double points_s = buildResultFile(spec, shard, o, header, mpi.size(), threads);
  const auto end = Clock::now();
  if (!o.quiet) {
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    const double total_s = seconds(end - start), write_s = seconds(end - write_start),
                 compute_s = seconds(write_start - compute_start);
    // How much of the workers' time went into points (the rest: waiting, journaling, imbalance
    // at the end); only meaningful when this run computed every point.
    const std::string busy =
        plan.journaled == 0
            ? fmt::format(" (workers busy {:.1f}%)", 100 * points_s / (compute_s * mpi.size() * threads))
            : "";
    std::printf("mosim sweep: %llu points (%zu computed, %llu from journals) on %d rank(s) x %d "
                "thread(s) in %.3f s: computing %.3f s%s, writing %s %.3f s (%.2f%%)\n",
                static_cast<unsigned long long>(pointsOfShard(spec, shard)), plan.todo.size(),
                static_cast<unsigned long long>(plan.journaled), mpi.size(), threads, total_s,
                compute_s, busy.c_str(), o.out.c_str(), write_s, 100 * write_s / total_s);
  }
  return 0;
}

int statusOf(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const InputError&) {
    return 2;
  } catch (const po::error&) {
    return 2;
  } catch (const std::invalid_argument&) {
    return 2;
  } catch (...) {
    return 1;
  }
}

}  // namespace

int sweepCommand(const std::vector<std::string>& args) {
  const bool speaker = launcherRank() == 0;
  // Slurm's time-limit warnings (sbatch --signal=[B:]USR1@T) are for the batch script, which may
  // requeue the job; without B: they reach every rank, and the default action of USR1 and USR2
  // would end the sweep there. A sweep is stopped by TERM, INT or KILL.
  signal(SIGUSR1, SIG_IGN);
  signal(SIGUSR2, SIG_IGN);
  try {
    Options o;
    const auto description = describeOptions(o);
    po::positional_options_description positional;
    positional.add("spec", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(description).positional(positional).run(), vm);
    if (vm.count("help")) {
      if (speaker) std::cout << description << '\n';
      return 0;
    }
    po::notify(vm);
    if (o.spec.empty()) throw std::invalid_argument("which sweep spec? (mosim sweep SPEC --out FILE)");
    if (o.resume && o.force) throw std::invalid_argument("give --resume or --force, not both");
    if (o.samples < 0) throw std::invalid_argument("--samples must not be negative");
    // Everything about the spec is checked here, on every rank, before MPI starts.
    const SweepSpec spec = sweep::readSweepSpec(o.spec);
    const Shard shard = sweep::parseShard(o.shard);
    if (o.dry_run) return speaker ? dryRun(spec, shard, o) : 0;
    return runSweep(spec, shard, o);
  } catch (...) {
    if (!speaker) return statusOf(std::current_exception());
    throw;
  }
}

}  // namespace mosim::cli
