// Sweep journals: how completed points survive a kill -9, a lost node or a time limit.
//
// An HDF5 file being written is not crash-safe, so results go first to append-only journal files
// next to the output, one per rank and attempt: OUT.journal/attempt-A.rank-R.journal. Each file is
// a sequence of records framed as
//     u32 magic "MSJR" | u32 payload length | payload | u32 CRC-32 of the payload
// (little-endian). The first record is a header (the spec's hash, the shard, per-job or not); each
// later one is a point's complete result, doubles as their IEEE bits. A record is appended with one
// write(2) as soon as its point is done, so a killed process loses only the points in flight; files
// are fdatasync'd at most once a second and at the end, bounding what a node crash can lose. A
// reader stops at the first record that is cut short or fails its CRC: files are only appended
// to, so that can only be the torn last record of a killed writer. Nothing is ever rewritten:
// each attempt (run or resume) writes new files.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "mosim/sweep.hpp"

namespace mosim::sweep {

/// What a journal's records belong to. Resuming with another spec, shard or per-job setting is
/// refused rather than mixing results.
struct JournalHeader {
  std::string spec_hash;
  Shard shard;
  bool per_job = false;
};

/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG).
std::uint32_t crc32(const void* data, std::size_t size);

/// OUT.journal: the folder of an output file's journals.
std::string journalFolder(const std::string& output_path);
/// "attempt-0003.rank-0001.journal".
std::string journalFileName(unsigned attempt, int rank);

/// One framed record (exposed for tests of torn and corrupt records).
std::string encodeHeaderRecord(const JournalHeader& header);
std::string encodePointRecord(const PointResult& result);

/// Appends point results to a new journal file. append and syncIfDue may be called from several
/// threads at once.
class JournalWriter {
 public:
  /// Creates the file (it must not exist), writes the header and makes both durable.
  JournalWriter(const std::string& path, const JournalHeader& header);
  ~JournalWriter();
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;

  /// One write(2) of one record: durable against the process being killed once this returns.
  void append(const PointResult& result);
  /// fdatasync, unless one was done less than `interval` ago (or is under way in another thread).
  void syncIfDue(std::chrono::milliseconds interval);
  /// fdatasync now.
  void sync();

 private:
  using Clock = std::chrono::steady_clock;
  std::string path_;
  int fd_ = -1;
  std::mutex mutex_;
  Clock::time_point last_sync_;
  bool syncing_ = false;
};

struct JournalScan {
  std::vector<PointResult> points;  ///< every valid point record, files in name order
  std::vector<std::string> notes;   ///< torn tails ignored, files without a header
  unsigned last_attempt = 0;        ///< the highest attempt number among the files (0: none)
};

/// Reads one journal file; a record that is cut short or fails its CRC ends it (noted). Throws
/// InputError when its header differs from `expected`.
JournalScan readJournalFile(const std::string& path, const JournalHeader& expected);
/// Reads every journal file of a folder (a missing folder holds none).
JournalScan readJournals(const std::string& folder, const JournalHeader& expected);

}  // namespace mosim::sweep
