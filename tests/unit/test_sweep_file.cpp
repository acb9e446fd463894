#define BOOST_TEST_MODULE sweep_file
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "mosim/hdf5.hpp"
#include "mosim/sweep_file.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::sweep;
namespace fs = std::filesystem;

namespace {

// 2 seeds x 3 bandwidths x 2 placements = 12 points.
const char* kSpec =
    "seed: 9\n"
    "axes:\n"
    "  seed: [10, 20]\n"
    "  nic-bandwidth: [5 Gbps, 10 Gbps, 463 MB/s]\n"
    "  placement: [colocate, k8s-bin-packing]\n";

/// Results for some points of kSpec, made up: the file layer must not care what they mean.
SweepData madeUp(const SweepSpec& spec, const std::vector<std::uint64_t>& points, bool per_job) {
  SweepData data;
  data.info = describeRun(spec, Shard{}, per_job, 2, 3);
  for (std::uint64_t point : points) {
    PointResult r;
    r.point = point;
    r.status = point == 5 ? PointStatus::Failed : PointStatus::Ok;
    r.aggregates.avg_training_s = 1.0 / static_cast<double>(point + 3);
    r.aggregates.avg_jct_s = 2.5 * static_cast<double>(point);
    r.aggregates.median_jct_s = 7;
    r.aggregates.p99_jct_s = point == 5 ? NAN : 99.25;
    r.aggregates.makespan_s = 1e6;
    r.aggregates.avg_wait_s = 0.1;
    r.jobs = point;
    r.skipped = 1;
    r.events = 1000 + point;
    r.wall_seconds = 0.001 * static_cast<double>(point);
    r.error = point == 5 ? "rejected" : "";
    if (per_job)
      for (std::int64_t job = 0; job < static_cast<std::int64_t>(point % 3); ++job)
        r.per_job.push_back({job, 4, 0, 1, 2, 3, 1, 1, 2});
    data.points.push_back(r);
  }
  return data;
}

void requireSame(const SweepData& a, const SweepData& b) {
  BOOST_REQUIRE(a.points.size() == b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    BOOST_TEST(sameResult(a.points[i], b.points[i]), "point " << a.points[i].point);
    BOOST_TEST(a.points[i].wall_seconds == b.points[i].wall_seconds);
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_file_round_trips) {
  const test::TemporaryFolder folder;
  const SweepSpec spec = parseSweepSpec(kSpec, "spec.yaml");
  std::vector<std::uint64_t> all;
  for (std::uint64_t p = 0; p < 12; ++p) all.push_back(p);
  const SweepData data = madeUp(spec, all, true);
  writeSweepFileAtomically(folder / "a.h5", spec, data);
  BOOST_TEST(!fs::exists(folder / "a.h5.tmp"));

  const SweepData back = readSweepFile(folder / "a.h5");
  requireSame(back, data);
  BOOST_TEST(back.info.spec_text == kSpec);
  BOOST_TEST(back.info.spec_hash == spec.hash());
  BOOST_TEST(back.info.points_total == 12u);
  BOOST_TEST(back.info.ranks == 2);
  BOOST_TEST(back.info.threads == 3);
  BOOST_TEST(back.info.shard == "all");
  BOOST_TEST(back.info.per_job);
  BOOST_TEST(back.info.mosim_version == MOSIM_VERSION);
  BOOST_TEST(back.info.created.size() == 20u);  // 2026-01-31T12:00:00Z
  BOOST_TEST(!back.info.git_revision.empty());
}

// What h5py or h5dump users see: axes as text and numbers, coordinates, seeds, metric columns.
BOOST_AUTO_TEST_CASE(the_layout_is_as_documented) {
  const test::TemporaryFolder folder;
  const SweepSpec spec = parseSweepSpec(kSpec, "spec.yaml");
  writeSweepFile(folder / "a.h5", spec, madeUp(spec, {0, 7, 11}, false));
  const h5::Handle file = h5::openFile(folder / "a.h5");
  const hid_t root = file.get();
  BOOST_TEST(h5::readStringListAttribute(root, "axes") ==
             (std::vector<std::string>{"seed", "nic-bandwidth", "placement"}));
  BOOST_TEST(h5::readStringAttribute(root, "format") == "mosim-sweep 1");

  const h5::Handle axes = h5::openGroup(root, "axes");
  const h5::Handle bandwidth = h5::openGroup(axes.get(), "nic-bandwidth");
  BOOST_TEST(h5::readStrings(bandwidth.get(), "values") ==
             (std::vector<std::string>{"5 Gbps", "10 Gbps", "463 MB/s"}));
  // 5 Gbps = 5e9 / 8 B/s = 625e6 B/s.
  BOOST_TEST(h5::readVector<double>(bandwidth.get(), "numeric") == (std::vector<double>{625e6, 1.25e9, 463e6}));
  const h5::Handle seed = h5::openGroup(axes.get(), "seed");
  BOOST_TEST(h5::readVector<double>(seed.get(), "numeric") == (std::vector<double>{10, 20}));
  const h5::Handle placement = h5::openGroup(axes.get(), "placement");
  BOOST_TEST(!h5::exists(placement.get(), "numeric"));  // names are not numbers

  const h5::Handle points = h5::openGroup(root, "points");
  BOOST_TEST(h5::readVector<std::uint64_t>(points.get(), "index") == (std::vector<std::uint64_t>{0, 7, 11}));
  std::size_t columns = 0;
  // Point 7 of 2 x 3 x 2: (7 / 6, (7 / 2) % 3, 7 % 2) = (1, 0, 1); point 11 = (1, 2, 1).
  BOOST_TEST(h5::readMatrix(points.get(), "coords", columns) ==
             (std::vector<std::uint32_t>{0, 0, 0, 1, 0, 1, 1, 2, 1}));
  BOOST_TEST(columns == 3u);
  BOOST_TEST(h5::readVector<std::uint64_t>(points.get(), "seed") ==
             (std::vector<std::uint64_t>{spec.scenarioSeed(0), spec.scenarioSeed(7), spec.scenarioSeed(11)}));

  const h5::Handle metrics = h5::openGroup(root, "metrics");
  for (const std::string& name : metricNames()) BOOST_TEST(h5::exists(metrics.get(), name), name);
  BOOST_TEST(h5::readVector<std::uint64_t>(metrics.get(), "events") == (std::vector<std::uint64_t>{1000, 1007, 1011}));
  BOOST_TEST(!h5::exists(root, "jobs"));  // per-job tables only on request
}

BOOST_AUTO_TEST_CASE(what_is_not_a_sweep_file_is_an_input_error) {
  const test::TemporaryFolder folder;
  std::ofstream(folder / "text.h5") << "hello";
  BOOST_TEST(test::throwsInputError([&] { readSweepFile(folder / "text.h5"); },
                                    test::Expected{folder / "text.h5", 0, "", "not an HDF5 file"}));
  BOOST_TEST(test::throwsInputError([&] { readSweepFile(folder / "absent.h5"); },
                                    test::Expected{folder / "absent.h5", 0, "", "no such file"}));
  {
    h5::Handle other = h5::createFile(folder / "other.h5");
    h5::writeAttribute(other.get(), "format", std::string("something else"));
  }
  BOOST_TEST(test::throwsInputError([&] { readSweepFile(folder / "other.h5"); },
                                    test::Expected{folder / "other.h5", 0, "", "not a mosim sweep file"}));
}

BOOST_AUTO_TEST_CASE(shards_merge_into_the_whole) {
  const SweepSpec spec = parseSweepSpec(kSpec, "spec.yaml");
  const SweepData even = madeUp(spec, {0, 2, 4, 6, 8, 10}, true);
  const SweepData odd = madeUp(spec, {1, 3, 5, 7, 9, 11}, true);
  const SweepData whole = madeUp(spec, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, true);
  const SweepData merged = mergeSweepData({"odd.h5", "even.h5"}, {odd, even});
  requireSame(merged, whole);
  BOOST_TEST(merged.info.shard == "merged");
}

BOOST_AUTO_TEST_CASE(merging_refuses_other_specs_and_overlaps) {
  const SweepSpec spec = parseSweepSpec(kSpec, "spec.yaml");
  const SweepData a = madeUp(spec, {0, 1, 2}, false);
  const SweepSpec other_spec = parseSweepSpec(std::string(kSpec) + "# changed\n", "other.yaml");
  const SweepData other = madeUp(other_spec, {3, 4}, false);
  BOOST_TEST(test::throwsInputError([&] { mergeSweepData({"a.h5", "b.h5"}, {a, other}); },
                                    test::Expected{"b.h5", 0, "spec", "another sweep spec"}));
  const SweepData overlapping = madeUp(spec, {2, 3}, false);
  BOOST_TEST(test::throwsInputError([&] { mergeSweepData({"a.h5", "c.h5"}, {a, overlapping}); },
                                    test::Expected{"c.h5", 0, "points", "point 2 is also in a.h5"}));
  const SweepData with_jobs = madeUp(spec, {4}, true);
  BOOST_TEST(test::throwsInputError([&] { mergeSweepData({"a.h5", "d.h5"}, {a, with_jobs}); },
                                    test::Expected{"d.h5", 0, "per_job", "per-job"}));
}

BOOST_AUTO_TEST_CASE(hdf5_errors_become_exceptions) {
  const test::TemporaryFolder folder;
  h5::Handle file = h5::createFile(folder / "a.h5");
  h5::writeVector(file.get(), "x", std::vector<double>{1, 2});
  BOOST_CHECK_THROW(h5::writeVector(file.get(), "x", std::vector<double>{3}), h5::Error);  // exists
  BOOST_CHECK_THROW(h5::readVector<double>(file.get(), "absent"), h5::Error);
  BOOST_TEST(h5::readVector<double>(file.get(), "x") == (std::vector<double>{1, 2}));
  h5::writeVector(file.get(), "empty", std::vector<std::uint64_t>{});
  BOOST_TEST(h5::readVector<std::uint64_t>(file.get(), "empty").empty());
}
