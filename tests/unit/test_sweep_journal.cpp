#define BOOST_TEST_MODULE sweep_journal
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "mosim/sweep_journal.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::sweep;
namespace fs = std::filesystem;

namespace {

const JournalHeader kHeader{"0123456789abcdef", {}, true};

PointResult sample(std::uint64_t point) {
  PointResult r;
  r.point = point;
  r.aggregates.avg_training_s = 100.5 + static_cast<double>(point);
  r.aggregates.avg_jct_s = 0.1;  // not exact in binary: must come back bit for bit
  r.aggregates.median_jct_s = 1e-300;
  r.aggregates.p99_jct_s = 1e300;
  r.aggregates.makespan_s = -0.0;
  r.aggregates.avg_wait_s = NAN;
  r.jobs = 3;
  r.skipped = 1;
  r.events = 1234567890123ULL;
  r.wall_seconds = 0.25;
  r.error = point == 2 ? "no jobs left: ünïcode too" : "";
  r.per_job = {{7, 8, 0, 0, 1, 2, 1, 1, 2}, {-1, 64, 1, 5, NAN, NAN, NAN, NAN, NAN}};
  return r;
}

std::string readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// A journal with three points (0, 1, 2); returns its path.
fs::path threePointJournal(const fs::path& folder) {
  const fs::path path = folder / journalFileName(1, 0);
  JournalWriter writer(path.string(), kHeader);
  for (std::uint64_t point = 0; point < 3; ++point) writer.append(sample(point));
  writer.sync();
  return path;
}

}  // namespace

// The standard check value of CRC-32 (IEEE): crc32("123456789") = 0xCBF43926.
BOOST_AUTO_TEST_CASE(crc32_check_value) {
  BOOST_TEST(crc32("123456789", 9) == 0xCBF43926u);
  BOOST_TEST(crc32("", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(names) {
  BOOST_TEST(journalFolder("out/results.h5") == "out/results.h5.journal");
  BOOST_TEST(journalFileName(3, 12) == "attempt-0003.rank-0012.journal");
}

BOOST_AUTO_TEST_CASE(records_come_back_bit_for_bit) {
  const test::TemporaryFolder folder;
  const JournalScan scan = readJournalFile(threePointJournal(folder.path).string(), kHeader);
  BOOST_TEST(scan.notes.empty());
  BOOST_TEST(scan.last_attempt == 1u);
  BOOST_REQUIRE(scan.points.size() == 3u);
  for (std::uint64_t point = 0; point < 3; ++point) {
    BOOST_TEST(sameResult(scan.points[point], sample(point)));
    BOOST_TEST(scan.points[point].wall_seconds == 0.25);
  }
  BOOST_TEST(std::signbit(scan.points[0].aggregates.makespan_s));  // -0.0 stays negative
  BOOST_TEST(scan.points[2].error == "no jobs left: ünïcode too");
}

// A kill during a write leaves the last record cut anywhere: every cut of the last record must
// leave exactly the first two points, and say that bytes were ignored.
BOOST_AUTO_TEST_CASE(a_torn_last_record_is_ignored) {
  const test::TemporaryFolder folder;
  const fs::path path = threePointJournal(folder.path);
  const std::string whole = readBytes(path);
  const std::size_t last_record = encodePointRecord(sample(2)).size();
  for (std::size_t cut = 1; cut < last_record; ++cut) {
    writeBytes(path, whole.substr(0, whole.size() - cut));
    const JournalScan scan = readJournalFile(path.string(), kHeader);
    BOOST_TEST(scan.points.size() == 2u, "cut " << cut);
    BOOST_REQUIRE(scan.notes.size() == 1u);
    BOOST_TEST(scan.notes[0].find("ignored " + std::to_string(last_record - cut) + " bytes") !=
                   std::string::npos,
               scan.notes[0]);
  }
}

BOOST_AUTO_TEST_CASE(a_corrupt_record_ends_the_valid_part) {
  const test::TemporaryFolder folder;
  const fs::path path = threePointJournal(folder.path);
  std::string bytes = readBytes(path);
  // Flip one bit inside the last record's payload: its CRC no longer matches.
  bytes[bytes.size() - 10] = static_cast<char>(bytes[bytes.size() - 10] ^ 0x01);
  writeBytes(path, bytes);
  const JournalScan scan = readJournalFile(path.string(), kHeader);
  BOOST_TEST(scan.points.size() == 2u);
  BOOST_TEST(scan.notes.size() == 1u);

  // Garbage where the header should be: nothing valid at all.
  writeBytes(path, "not a journal");
  BOOST_TEST(readJournalFile(path.string(), kHeader).points.empty());
  // A file created but killed before its header was written.
  writeBytes(path, "");
  const JournalScan empty = readJournalFile(path.string(), kHeader);
  BOOST_TEST(empty.points.empty());
  BOOST_TEST(empty.notes.empty());
}

BOOST_AUTO_TEST_CASE(a_journal_of_another_sweep_is_refused) {
  const test::TemporaryFolder folder;
  const fs::path path = threePointJournal(folder.path);
  for (const JournalHeader& other :
       {JournalHeader{"fedcba9876543210", {}, true}, JournalHeader{kHeader.spec_hash, {1, 2}, true},
        JournalHeader{kHeader.spec_hash, {}, false}}) {
    BOOST_TEST(test::throwsInputError([&] { readJournalFile(path.string(), other); },
                                      test::Expected{path.string(), 0, "", "belongs to another sweep"}));
  }
}

// Each attempt writes its own files; a folder's journals are read together.
BOOST_AUTO_TEST_CASE(every_attempt_and_rank_is_read) {
  const test::TemporaryFolder folder;
  threePointJournal(folder.path);
  {
    JournalWriter rank_1((folder.path / journalFileName(1, 1)).string(), kHeader);
    rank_1.append(sample(5));
    JournalWriter retry((folder.path / journalFileName(2, 0)).string(), kHeader);
    retry.append(sample(4));
  }
  writeBytes(folder.path / "notes.txt", "not a journal, not read");
  const JournalScan scan = readJournals(folder.path.string(), kHeader);
  BOOST_TEST(scan.last_attempt == 2u);
  std::vector<std::uint64_t> points;
  for (const PointResult& p : scan.points) points.push_back(p.point);
  // Files in name order: attempt 1 rank 0 (0, 1, 2), attempt 1 rank 1 (5), attempt 2 rank 0 (4).
  BOOST_TEST(points == (std::vector<std::uint64_t>{0, 1, 2, 5, 4}));
  BOOST_TEST(readJournals((folder.path / "absent").string(), kHeader).points.empty());
}

BOOST_AUTO_TEST_CASE(a_journal_is_never_overwritten) {
  const test::TemporaryFolder folder;
  const fs::path path = threePointJournal(folder.path);
  BOOST_CHECK_THROW(JournalWriter(path.string(), kHeader), std::runtime_error);
  BOOST_TEST(readJournalFile(path.string(), kHeader).points.size() == 3u);
}
