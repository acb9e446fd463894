// Sweeps: a cartesian grid of scenarios, each point simulated independently.
//
// A sweep spec (YAML) gives the spec's seed, the base scenario (option name -> value text, exactly
// as `mosim run` takes them) and named axes, each a list of values of one scenario option. Point
// indices enumerate the grid in the axes' order, the last axis fastest. A point's scenario is the
// base with the point's axis values applied, in axis order, and a seed mixed from the spec's seed
// and the point's `seed` value only (scenarioSeed), so that points that differ only in policy see
// the same trace. This header is MPI-free: the distribution over ranks and threads lives in the
// command (src/cli/sweep*.cpp); journals and HDF5 files are in sweep_journal.hpp and sweep_file.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mosim/metrics.hpp"
#include "mosim/scenario.hpp"

namespace mosim::sweep {

/// One `base:` entry.
struct Setting {
  std::string name;   ///< a scenario option
  std::string value;  ///< its text, as `mosim run --NAME VALUE` takes it
  std::size_t line = 0;
};

struct Axis {
  std::string name;                 ///< a scenario option
  std::vector<std::string> values;  ///< texts, as written or as a range generates them
  std::size_t line = 0;             ///< where the axis is defined
  std::vector<std::size_t> value_lines;  ///< per value (the axis line for generated values)
};

/// The largest grid a spec may define; beyond it a typo (a step of 1e-9) is more likely than intent.
constexpr std::uint64_t kMaxPoints = 100'000'000;

struct SweepSpec {
  std::string path;  ///< for messages
  std::string text;  ///< the YAML as read: recorded in result files, hashed for identity
  std::uint64_t seed = 0;
  std::vector<Setting> base;
  std::vector<Axis> axes;

  std::uint64_t pointCount() const;
  /// The point's index on each axis (mixed radix, the last axis fastest).
  std::vector<std::uint32_t> coordinates(std::uint64_t point) const;
  /// "seed=3, placement=k8s-bin-packing", for messages.
  std::string describePoint(std::uint64_t point) const;
  /// The scenario `seed` of a point: splitmix64(splitmix64(spec seed) XOR s) >> 1, where s is the
  /// point's value on the `seed` axis, else the base's `seed`, else 0. The shift keeps it within
  /// what the seed option accepts (0 to 2^63 - 1).
  std::uint64_t scenarioSeed(std::uint64_t point) const;
  /// Base, then the point's axis values in axis order, then the scenario seed.
  Scenario scenario(std::uint64_t point) const;
  /// 16 hex digits of the FNV-1a hash of `text`: files and journals of one spec carry the same.
  std::string hash() const;
};

/// Parses a spec and checks it completely before any work: every base value and every value of
/// every axis goes through setOption. Errors are InputError naming `path`, the line and the key;
/// a rejected axis value also names a point that has it. Unknown keys, an axis with no values,
/// an option that is both in `base` and an axis, an unknown option and malformed YAML are errors.
SweepSpec parseSweepSpec(const std::string& text, const std::string& path);
/// Reads and parses a spec file.
SweepSpec readSweepSpec(const std::string& path);

/// Which points a run computes: index % count == index_in (a Slurm array's task K of N), so that
/// every shard gets a mix of the fast axes' values. {0, 1}: all points.
struct Shard {
  std::uint64_t index = 0;
  std::uint64_t count = 1;
  bool holds(std::uint64_t point) const { return point % count == index; }
  bool all() const { return count == 1; }
  std::string text() const;  ///< "K/N", or "all"
};
/// Parses "K/N" with 0 <= K < N; std::invalid_argument otherwise.
Shard parseShard(const std::string& text);

// ---- One point ----------------------------------------------------------------------------------

enum class PointStatus : std::uint8_t {
  Ok = 0,
  NoCompletedJob = 1,  ///< every job was unplaceable: the aggregates are NaN
  Failed = 2,          ///< the scenario was rejected (e.g. no jobs left); `error` says why
};

/// One job of one point (`--per-job`): a compact row, times in seconds (NaN for a skipped job).
struct JobRow {
  std::int64_t job_id = 0;
  std::int32_t num_gpus = 0;
  std::uint8_t status = 0;  ///< 0 completed, 1 unplaceable (JobStatus)
  double submit_s = 0, start_s = 0, end_s = 0, wait_s = 0, training_s = 0, jct_s = 0;
};

struct PointResult {
  std::uint64_t point = 0;
  PointStatus status = PointStatus::Ok;
  Aggregates aggregates;  ///< all NaN unless status is Ok (aggregates.jobs is `jobs` below)
  std::uint64_t jobs = 0;     ///< completed jobs
  std::uint64_t skipped = 0;  ///< jobs that could never be placed
  std::uint64_t events = 0;
  double wall_seconds = 0;  ///< the only field that differs between runs of the same point
  std::string error;        ///< why the point failed; empty otherwise
  std::vector<JobRow> per_job;  ///< with per-job output only, in job-id order
};

/// Simulates one point: prepareScenario, simulate, aggregate. A point whose scenario is rejected
/// becomes a Failed result (deterministic, so a resumed sweep records the same); running out of
/// memory is thrown. Thread-safe: points share nothing.
PointResult runPoint(const SweepSpec& spec, std::uint64_t point, bool per_job);

/// True when two results are the same bit for bit, wall_seconds aside.
bool sameResult(const PointResult& a, const PointResult& b);

}  // namespace mosim::sweep
