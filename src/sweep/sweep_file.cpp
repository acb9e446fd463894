// Sweep result files in HDF5 (layout in sweep_file.hpp and the README's "Sweeps").
#include "mosim/sweep_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/hdf5.hpp"
#include "mosim/units.hpp"

#ifndef MOSIM_GIT_REVISION
#define MOSIM_GIT_REVISION "unknown"
#endif

namespace mosim::sweep {
namespace {

constexpr const char* kFormat = "mosim-sweep 1";

/// An axis' values as numbers when every one is a number, or every one a bandwidth (then in B/s).
bool numericValues(const Axis& axis, std::vector<double>& numbers, std::string& unit) {
  auto all = [&](auto parse) {
    numbers.clear();
    try {
      for (const std::string& value : axis.values) numbers.push_back(parse(value));
      return true;
    } catch (const std::invalid_argument&) {
      return false;
    }
  };
  if (all([](const std::string& v) { return parseNumber(v); })) {
    unit = "";
    return true;
  }
  if (all([](const std::string& v) { return parseBandwidth_Bps(v); })) {
    unit = "B/s";
    return true;
  }
  return false;
}

/// Reads a dataset expected to have `rows` entries; InputError naming the file otherwise.
template <class T>
std::vector<T> column(hid_t group, const std::string& name, std::size_t rows, const std::string& path) {
  std::vector<T> values = h5::readVector<T>(group, name);
  if (values.size() != rows)
    throw InputError(path, 0, name, fmt::format("{} rows where {} were expected", values.size(), rows));
  return values;
}

void writePoints(hid_t file, const SweepSpec& spec, const std::vector<PointResult>& points) {
  std::vector<std::uint64_t> index, seed;
  std::vector<std::uint32_t> coords;
  std::vector<std::uint8_t> status;
  std::vector<std::string> error;
  for (const PointResult& p : points) {
    index.push_back(p.point);
    seed.push_back(spec.scenarioSeed(p.point));
    for (std::uint32_t c : spec.coordinates(p.point)) coords.push_back(c);
    status.push_back(static_cast<std::uint8_t>(p.status));
    error.push_back(p.error);
  }
  h5::Handle group = h5::createGroup(file, "points");
  h5::writeVector(group.get(), "index", index);
  h5::writeMatrix(group.get(), "coords", coords, points.size(), spec.axes.size());
  h5::writeVector(group.get(), "seed", seed);
  h5::writeVector(group.get(), "status", status);
  h5::writeStrings(group.get(), "error", error);
}

void writeMetrics(hid_t file, const std::vector<PointResult>& points) {
  h5::Handle group = h5::createGroup(file, "metrics");
  auto seconds = [&](const char* name, double Aggregates::*field) {
    std::vector<double> values;
    for (const PointResult& p : points) values.push_back(p.aggregates.*field);
    h5::writeVector(group.get(), name, values);
  };
  seconds("avg_training", &Aggregates::avg_training_s);
  seconds("avg_jct", &Aggregates::avg_jct_s);
  seconds("median_jct", &Aggregates::median_jct_s);
  seconds("p99_jct", &Aggregates::p99_jct_s);
  seconds("makespan", &Aggregates::makespan_s);
  seconds("avg_wait", &Aggregates::avg_wait_s);
  auto count = [&](const char* name, std::uint64_t PointResult::*field) {
    std::vector<std::uint64_t> values;
    for (const PointResult& p : points) values.push_back(p.*field);
    h5::writeVector(group.get(), name, values);
  };
  count("jobs", &PointResult::jobs);
  count("skipped", &PointResult::skipped);
  count("events", &PointResult::events);
  std::vector<double> wall;
  for (const PointResult& p : points) wall.push_back(p.wall_seconds);
  h5::writeVector(group.get(), "wall_seconds", wall);
}

void writeJobs(hid_t file, const std::vector<PointResult>& points) {
  std::vector<std::uint64_t> point;
  std::vector<std::int64_t> job_id;
  std::vector<std::int32_t> num_gpus;
  std::vector<std::uint8_t> status;
  std::vector<double> submit, start, end, wait, training, jct;
  for (const PointResult& p : points)
    for (const JobRow& row : p.per_job) {
      point.push_back(p.point);
      job_id.push_back(row.job_id);
      num_gpus.push_back(row.num_gpus);
      status.push_back(row.status);
      submit.push_back(row.submit_s);
      start.push_back(row.start_s);
      end.push_back(row.end_s);
      wait.push_back(row.wait_s);
      training.push_back(row.training_s);
      jct.push_back(row.jct_s);
    }
  h5::Handle group = h5::createGroup(file, "jobs");
  h5::writeVector(group.get(), "point", point);
  h5::writeVector(group.get(), "job_id", job_id);
  h5::writeVector(group.get(), "num_gpus", num_gpus);
  h5::writeVector(group.get(), "status", status);
  h5::writeVector(group.get(), "submit", submit);
  h5::writeVector(group.get(), "start", start);
  h5::writeVector(group.get(), "end", end);
  h5::writeVector(group.get(), "wait", wait);
  h5::writeVector(group.get(), "training", training);
  h5::writeVector(group.get(), "jct", jct);
}

SweepData readContents(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError(path, 0, "", "no such file");
  h5::Handle file;
  try {
    file = h5::openFile(path);
  } catch (const h5::Error& e) {
    throw InputError(path, 0, "", fmt::format("not an HDF5 file ({})", e.what()));
  }
  const hid_t root = file.get();
  if (!h5::hasAttribute(root, "format") || h5::readStringAttribute(root, "format") != kFormat)
    throw InputError(path, 0, "", fmt::format("not a mosim sweep file (no format attribute '{}')", kFormat));

  SweepData data;
  SweepFileInfo& info = data.info;
  info.spec_text = h5::readStringAttribute(root, "spec");
  info.spec_hash = h5::readStringAttribute(root, "spec_hash");
  info.mosim_version = h5::readStringAttribute(root, "mosim_version");
  info.git_revision = h5::readStringAttribute(root, "git_revision");
  info.created = h5::readStringAttribute(root, "created");
  info.host = h5::readStringAttribute(root, "host");
  info.ranks = h5::readIntAttribute(root, "ranks");
  info.threads = h5::readIntAttribute(root, "threads");
  info.points_total = static_cast<std::uint64_t>(h5::readIntAttribute(root, "points_total"));
  info.shard = h5::readStringAttribute(root, "shard");
  info.per_job = h5::readIntAttribute(root, "per_job") != 0;

  const h5::Handle points = h5::openGroup(root, "points");
  const std::vector<std::uint64_t> index = h5::readVector<std::uint64_t>(points.get(), "index");
  const std::size_t rows = index.size();
  const auto status = column<std::uint8_t>(points.get(), "status", rows, path);
  const std::vector<std::string> error = h5::readStrings(points.get(), "error");
  const h5::Handle metrics = h5::openGroup(root, "metrics");
  auto seconds = [&](const char* name) { return column<double>(metrics.get(), name, rows, path); };
  auto counts = [&](const char* name) { return column<std::uint64_t>(metrics.get(), name, rows, path); };
  const auto avg_training = seconds("avg_training"), avg_jct = seconds("avg_jct"),
             median_jct = seconds("median_jct"), p99_jct = seconds("p99_jct"),
             makespan = seconds("makespan"), avg_wait = seconds("avg_wait"),
             wall = seconds("wall_seconds");
  const auto jobs = counts("jobs"), skipped = counts("skipped"), events = counts("events");
  if (error.size() != rows) throw InputError(path, 0, "error", "row count differs from /points/index");
  for (std::size_t i = 0; i < rows; ++i) {
    PointResult p;
    p.point = index[i];
    p.status = static_cast<PointStatus>(status[i]);
    p.aggregates.avg_training_s = avg_training[i];
    p.aggregates.avg_jct_s = avg_jct[i];
    p.aggregates.median_jct_s = median_jct[i];
    p.aggregates.p99_jct_s = p99_jct[i];
    p.aggregates.makespan_s = makespan[i];
    p.aggregates.avg_wait_s = avg_wait[i];
    p.aggregates.jobs = jobs[i];
    p.jobs = jobs[i];
    p.skipped = skipped[i];
    p.events = events[i];
    p.wall_seconds = wall[i];
    p.error = error[i];
    data.points.push_back(std::move(p));
  }

  if (info.per_job) {
    const h5::Handle group = h5::openGroup(root, "jobs");
    const auto point = h5::readVector<std::uint64_t>(group.get(), "point");
    const std::size_t n = point.size();
    const auto job_id = column<std::int64_t>(group.get(), "job_id", n, path);
    const auto num_gpus = column<std::int32_t>(group.get(), "num_gpus", n, path);
    const auto job_status = column<std::uint8_t>(group.get(), "status", n, path);
    auto times = [&](const char* name) { return column<double>(group.get(), name, n, path); };
    const auto submit = times("submit"), start = times("start"), end = times("end"),
               wait = times("wait"), training = times("training"), jct = times("jct");
    // Rows are grouped by point in point order, as written.
    std::size_t at = 0;
    for (std::size_t i = 0; i < n; ++i) {
      while (at < data.points.size() && data.points[at].point < point[i]) ++at;
      if (at == data.points.size() || data.points[at].point != point[i])
        throw InputError(path, 0, "jobs/point", fmt::format("row {} names point {}, which the file does not hold", i, point[i]));
      data.points[at].per_job.push_back({job_id[i], num_gpus[i], job_status[i], submit[i], start[i],
                                         end[i], wait[i], training[i], jct[i]});
    }
  }
  return data;
}

void syncFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::fsync(fd) == 0;
  if (fd >= 0) ::close(fd);
  if (!ok) throw std::runtime_error(fmt::format("cannot sync '{}': {}", path, std::strerror(errno)));
}

std::string utcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

}  // namespace

const std::vector<std::string>& metricNames() {
  static const std::vector<std::string> names{"avg_training", "avg_jct", "median_jct", "p99_jct",
                                              "makespan", "avg_wait", "jobs", "skipped", "events",
                                              "wall_seconds"};
  return names;
}

std::string gitRevision() { return MOSIM_GIT_REVISION; }

SweepFileInfo describeRun(const SweepSpec& spec, const Shard& shard, bool per_job,
                          std::int64_t ranks, std::int64_t threads) {
  SweepFileInfo info;
  info.spec_text = spec.text;
  info.spec_hash = spec.hash();
  info.git_revision = gitRevision();
  info.created = utcNow();
  info.host = hostName();
  info.ranks = ranks;
  info.threads = threads;
  info.points_total = spec.pointCount();
  info.shard = shard.text();
  info.per_job = per_job;
  return info;
}

void writeSweepFile(const std::string& path, const SweepSpec& spec, const SweepData& data) {
  const SweepFileInfo& info = data.info;
  h5::Handle file = h5::createFile(path);
  const hid_t root = file.get();
  h5::writeAttribute(root, "format", std::string(kFormat));
  h5::writeAttribute(root, "spec", info.spec_text);
  h5::writeAttribute(root, "spec_hash", info.spec_hash);
  h5::writeAttribute(root, "mosim_version", info.mosim_version);
  h5::writeAttribute(root, "git_revision", info.git_revision);
  h5::writeAttribute(root, "created", info.created);
  h5::writeAttribute(root, "host", info.host);
  h5::writeAttribute(root, "ranks", info.ranks);
  h5::writeAttribute(root, "threads", info.threads);
  h5::writeAttribute(root, "points_total", static_cast<std::int64_t>(info.points_total));
  h5::writeAttribute(root, "shard", info.shard);
  h5::writeAttribute(root, "per_job", std::int64_t{info.per_job ? 1 : 0});
  std::vector<std::string> axis_names;
  for (const Axis& axis : spec.axes) axis_names.push_back(axis.name);
  h5::writeAttribute(root, "axes", axis_names);

  {
    h5::Handle axes = h5::createGroup(root, "axes");
    for (const Axis& axis : spec.axes) {
      h5::Handle group = h5::createGroup(axes.get(), axis.name);
      h5::writeStrings(group.get(), "values", axis.values);
      std::vector<double> numbers;
      std::string unit;
      if (numericValues(axis, numbers, unit)) {
        h5::writeVector(group.get(), "numeric", numbers);
        h5::Handle dataset(H5Dopen2(group.get(), "numeric", H5P_DEFAULT), H5Dclose, "H5Dopen2");
        h5::writeAttribute(dataset.get(), "unit", unit);
      }
    }
  }
  writePoints(root, spec, data.points);
  writeMetrics(root, data.points);
  if (info.per_job) writeJobs(root, data.points);
  file.close();
}

void writeSweepFileAtomically(const std::string& path, const SweepSpec& spec, const SweepData& data) {
  const std::string temporary = path + ".tmp";
  std::filesystem::remove(temporary);  // left by a writer killed mid-file
  writeSweepFile(temporary, spec, data);
  syncFile(temporary);
  std::filesystem::rename(temporary, path);
  const std::string folder = std::filesystem::path(path).parent_path().string();
  syncFile(folder.empty() ? "." : folder);
}

SweepData readSweepFile(const std::string& path) {
  try {
    return readContents(path);
  } catch (const h5::Error& e) {
    throw InputError(path, 0, "", fmt::format("not a complete mosim sweep file: {}", e.what()));
  }
}

SweepData mergeSweepData(const std::vector<std::string>& paths, const std::vector<SweepData>& parts) {
  if (parts.empty()) throw std::invalid_argument("nothing to merge");
  SweepData merged;
  merged.info = parts.front().info;
  std::vector<std::pair<std::uint64_t, std::size_t>> owner;  // point, part
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const SweepFileInfo& info = parts[i].info;
    if (info.spec_hash != merged.info.spec_hash || info.spec_text != merged.info.spec_text)
      throw InputError(paths[i], 0, "spec",
                       fmt::format("comes from another sweep spec (hash {}) than {} (hash {})",
                                   info.spec_hash, paths.front(), merged.info.spec_hash));
    if (info.per_job != merged.info.per_job)
      throw InputError(paths[i], 0, "per_job",
                       fmt::format("{} per-job tables and {} {}", info.per_job ? "has" : "has no",
                                   paths.front(), merged.info.per_job ? "has" : "has not"));
    for (const PointResult& point : parts[i].points) owner.emplace_back(point.point, i);
  }
  std::sort(owner.begin(), owner.end());
  for (std::size_t k = 1; k < owner.size(); ++k)
    if (owner[k].first == owner[k - 1].first)
      throw InputError(paths[owner[k].second], 0, "points",
                       fmt::format("point {} is also in {}: the parts overlap", owner[k].first,
                                   paths[owner[k - 1].second]));
  for (const SweepData& part : parts)
    merged.points.insert(merged.points.end(), part.points.begin(), part.points.end());
  std::sort(merged.points.begin(), merged.points.end(),
            [](const PointResult& a, const PointResult& b) { return a.point < b.point; });
  merged.info.created = utcNow();
  merged.info.host = hostName();
  merged.info.mosim_version = MOSIM_VERSION;
  merged.info.git_revision = gitRevision();
  merged.info.shard = "merged";
  merged.info.ranks = 0;  // a merge has no single run: see the parts
  merged.info.threads = 0;
  return merged;
}

}  // namespace mosim::sweep
