// Sweep result files (HDF5): what a sweep, a shard of one or a merge of shards produced, one row
// per point in point-index order. The layout (README "Sweeps"):
//   /                  attributes: format, spec, spec_hash, mosim_version, git_revision, created,
//                      host, ranks, threads, points_total, shard, per_job, axes (names in order)
//   /axes/NAME/values  the axis' values as text; /axes/NAME/numeric the same as numbers, when every
//                      value is a number (attribute unit: "" or "B/s" for bandwidths)
//   /points/index      uint64 point index of each row; /points/coords uint32 [row][axis];
//                      /points/seed the scenario seed used; /points/status; /points/error
//   /metrics/NAME      one dataset per metric, indexed like /points/index
//   /jobs/COLUMN       with --per-job: point, job_id, num_gpus, status, submit, start, end, wait,
//                      training, jct (one row per job of every point)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mosim/sweep.hpp"

namespace mosim::sweep {

/// The metrics datasets, in file order.
const std::vector<std::string>& metricNames();

/// Provenance and identity of a file (its root attributes).
struct SweepFileInfo {
  std::string spec_text;
  std::string spec_hash;
  std::string mosim_version = MOSIM_VERSION;
  std::string git_revision;  ///< of the build; "unknown" outside a git checkout
  std::string created;       ///< UTC, ISO 8601
  std::string host;
  std::int64_t ranks = 1;
  std::int64_t threads = 1;
  std::uint64_t points_total = 0;  ///< of the grid; a shard's file holds fewer
  std::string shard = "all";       ///< "all", "K/N" or "merged"
  bool per_job = false;
};

struct SweepData {
  SweepFileInfo info;
  std::vector<PointResult> points;  ///< ascending point index, no duplicates
};

/// This build's git revision (configure time), or "unknown".
std::string gitRevision();
/// The info of a file about to be written from `spec`: hash, version, revision, now, this host.
SweepFileInfo describeRun(const SweepSpec& spec, const Shard& shard, bool per_job,
                          std::int64_t ranks, std::int64_t threads);

/// Writes the file in place (the caller makes it atomic: see writeSweepFileAtomically).
void writeSweepFile(const std::string& path, const SweepSpec& spec, const SweepData& data);
/// Writes PATH.tmp, makes it durable, renames it to PATH and syncs the folder: PATH is either the
/// old file or the complete new one, never a partial file.
void writeSweepFileAtomically(const std::string& path, const SweepSpec& spec, const SweepData& data);
/// Reads a file written by writeSweepFile; InputError when it is not one.
SweepData readSweepFile(const std::string& path);

/// Joins files of one spec (shards, or separately run parts). InputError, naming the files, when
/// their spec or per-job setting differs or when two hold the same point.
SweepData mergeSweepData(const std::vector<std::string>& paths, const std::vector<SweepData>& parts);

}  // namespace mosim::sweep
