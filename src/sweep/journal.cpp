#include "mosim/sweep_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "mosim/error.hpp"
#include "mosim/text.hpp"
#include "workload/yaml_input.hpp"

namespace mosim::sweep {
namespace {

constexpr std::uint32_t kMagic = 0x524A534D;  // "MSJR" in the file's byte order
constexpr std::uint16_t kFormatVersion = 1;
constexpr std::uint8_t kHeaderType = 'H';
constexpr std::uint8_t kPointType = 'P';
/// Far above any real record; a larger length field is corruption, not a record to allocate for.
constexpr std::uint32_t kMaxPayloadBytes = 1u << 30;

// ---- Little-endian encoding ---------------------------------------------------------------------

class Encoder {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(static_cast<char>(v)); }
  void u16(std::uint16_t v) { little(v, 2); }
  void u32(std::uint32_t v) { little(v, 4); }
  void u64(std::uint64_t v) { little(v, 8); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
  void text(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes_ += s;
  }
  std::string& bytes() { return bytes_; }

 private:
  void little(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  std::string bytes_;
};

/// Reads what Encoder wrote; `ok()` turns false (and stays false) on reading past the end.
class Decoder {
 public:
  Decoder(const char* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t u8() { return static_cast<std::uint8_t>(little(1)); }
  std::uint16_t u16() { return static_cast<std::uint16_t>(little(2)); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(little(4)); }
  std::uint64_t u64() { return little(8); }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64() { return std::bit_cast<double>(u64()); }
  std::string text() {
    const std::uint32_t n = u32();
    if (!take(n)) return {};
    return std::string(data_ + at_ - n, n);
  }
  bool ok() const { return ok_; }
  bool atEnd() const { return at_ == size_; }

 private:
  bool take(std::size_t n) {
    if (!ok_ || size_ - at_ < n) return ok_ = false;
    at_ += n;
    return true;
  }
  std::uint64_t little(int n) {
    if (!take(static_cast<std::size_t>(n))) return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(data_[at_ - static_cast<std::size_t>(n) + static_cast<std::size_t>(i)])) << (8 * i);
    return v;
  }
  const char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

std::string frame(const std::string& payload) {
  Encoder record;
  record.u32(kMagic);
  record.u32(static_cast<std::uint32_t>(payload.size()));
  record.bytes() += payload;
  record.u32(crc32(payload.data(), payload.size()));
  return std::move(record.bytes());
}

bool decodeHeader(Decoder& in, JournalHeader& header) {
  if (in.u8() != kHeaderType || in.u16() != kFormatVersion) return false;
  header.spec_hash = in.text();
  header.shard.index = in.u64();
  header.shard.count = in.u64();
  header.per_job = in.u8() != 0;
  return in.ok() && in.atEnd();
}

bool decodePoint(Decoder& in, PointResult& r) {
  if (in.u8() != kPointType) return false;
  r.point = in.u64();
  r.status = static_cast<PointStatus>(in.u8());
  Aggregates& a = r.aggregates;
  a.avg_training_s = in.f64();
  a.avg_jct_s = in.f64();
  a.median_jct_s = in.f64();
  a.p99_jct_s = in.f64();
  a.makespan_s = in.f64();
  a.avg_wait_s = in.f64();
  r.jobs = in.u64();
  a.jobs = r.jobs;
  r.skipped = in.u64();
  r.events = in.u64();
  r.wall_seconds = in.f64();
  r.error = in.text();
  const std::uint32_t rows = in.u32();
  for (std::uint32_t i = 0; i < rows && in.ok(); ++i) {
    JobRow row;
    row.job_id = in.i64();
    row.num_gpus = static_cast<std::int32_t>(in.u32());
    row.status = in.u8();
    row.submit_s = in.f64();
    row.start_s = in.f64();
    row.end_s = in.f64();
    row.wait_s = in.f64();
    row.training_s = in.f64();
    row.jct_s = in.f64();
    r.per_job.push_back(row);
  }
  return in.ok() && in.atEnd();
}

std::string systemError(const std::string& what, const std::string& path) {
  return fmt::format("{} '{}': {}", what, path, std::strerror(errno));
}

void syncFolderOf(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(systemError("cannot open folder", folder));
  const int status = ::fsync(fd);
  ::close(fd);
  if (status != 0) throw std::runtime_error(systemError("cannot sync folder", folder));
}

/// "attempt-0003.rank-0001.journal" -> 3; 0 for other names.
unsigned attemptOf(const std::string& name) {
  unsigned attempt = 0;
  int rank = 0;
  char tail[16] = {};
  if (std::sscanf(name.c_str(), "attempt-%u.rank-%d.%15s", &attempt, &rank, tail) == 3 &&
      std::string(tail) == "journal")
    return attempt;
  return 0;
}

}  // namespace

std::uint32_t crc32(const void* data, std::size_t size) {
  static const std::array<std::uint32_t, 256> kTable = [] {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[n] = c;
    }
    return table;
  }();
  std::uint32_t crc = 0xFFFFFFFFu;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) crc = kTable[(crc ^ bytes[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string journalFolder(const std::string& output_path) { return output_path + ".journal"; }

std::string journalFileName(unsigned attempt, int rank) {
  return fmt::format("attempt-{:04}.rank-{:04}.journal", attempt, rank);
}

std::string encodeHeaderRecord(const JournalHeader& header) {
  Encoder out;
  out.u8(kHeaderType);
  out.u16(kFormatVersion);
  out.text(header.spec_hash);
  out.u64(header.shard.index);
  out.u64(header.shard.count);
  out.u8(header.per_job ? 1 : 0);
  return frame(out.bytes());
}

std::string encodePointRecord(const PointResult& r) {
  Encoder out;
  out.u8(kPointType);
  out.u64(r.point);
  out.u8(static_cast<std::uint8_t>(r.status));
  const Aggregates& a = r.aggregates;
  for (double v : {a.avg_training_s, a.avg_jct_s, a.median_jct_s, a.p99_jct_s, a.makespan_s, a.avg_wait_s})
    out.f64(v);
  out.u64(r.jobs);
  out.u64(r.skipped);
  out.u64(r.events);
  out.f64(r.wall_seconds);
  out.text(r.error);
  out.u32(static_cast<std::uint32_t>(r.per_job.size()));
  for (const JobRow& row : r.per_job) {
    out.i64(row.job_id);
    out.u32(static_cast<std::uint32_t>(row.num_gpus));
    out.u8(row.status);
    for (double v : {row.submit_s, row.start_s, row.end_s, row.wait_s, row.training_s, row.jct_s})
      out.f64(v);
  }
  return frame(out.bytes());
}

// ---- Writing ------------------------------------------------------------------------------------

JournalWriter::JournalWriter(const std::string& path, const JournalHeader& header) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(systemError("cannot create journal", path));
  const std::string record = encodeHeaderRecord(header);
  if (::write(fd_, record.data(), record.size()) != static_cast<ssize_t>(record.size()) ||
      ::fdatasync(fd_) != 0) {
    const std::string message = systemError("cannot write journal", path);
    ::close(fd_);
    throw std::runtime_error(message);
  }
  syncFolderOf(path);  // the new file's name must survive a crash too
  last_sync_ = Clock::now();
}

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void JournalWriter::append(const PointResult& result) {
  const std::string record = encodePointRecord(result);
  const std::lock_guard lock(mutex_);
  // O_APPEND and one write per record: records of different threads never interleave. A short
  // write (disk full) would leave a torn record, which readers skip; report it rather than retry.
  const ssize_t written = ::write(fd_, record.data(), record.size());
  if (written != static_cast<ssize_t>(record.size()))
    throw std::runtime_error(written < 0 ? systemError("cannot write journal", path_)
                                         : fmt::format("short write to journal '{}'", path_));
}

void JournalWriter::syncIfDue(std::chrono::milliseconds interval) {
  const auto now = Clock::now();
  {
    const std::lock_guard lock(mutex_);
    if (syncing_ || now - last_sync_ < interval) return;
    syncing_ = true;
  }
  // Outside the lock: other threads keep appending while this one waits for the disk.
  const int status = ::fdatasync(fd_);
  const std::lock_guard lock(mutex_);
  syncing_ = false;
  last_sync_ = now;
  if (status != 0) throw std::runtime_error(systemError("cannot sync journal", path_));
}

void JournalWriter::sync() {
  if (::fdatasync(fd_) != 0) throw std::runtime_error(systemError("cannot sync journal", path_));
}

// ---- Reading ------------------------------------------------------------------------------------

JournalScan readJournalFile(const std::string& path, const JournalHeader& expected) {
  const std::string bytes = readTextFile(path);
  const std::string name = std::filesystem::path(path).filename().string();
  JournalScan scan;
  scan.last_attempt = attemptOf(name);
  std::size_t at = 0;
  bool have_header = false;
  while (at < bytes.size()) {
    // Frame: magic, length, payload, CRC. Anything that does not add up ends the valid part.
    Decoder frame_in(bytes.data() + at, bytes.size() - at);
    const std::uint32_t magic = frame_in.u32(), length = frame_in.u32();
    const bool framed = frame_in.ok() && magic == kMagic && length <= kMaxPayloadBytes &&
                        bytes.size() - at >= 12 + static_cast<std::size_t>(length);
    const char* payload = bytes.data() + at + 8;
    bool valid = false;
    if (framed) {
      Decoder crc_in(payload + length, 4);
      valid = crc_in.u32() == crc32(payload, length);
    }
    if (valid) {
      Decoder in(payload, length);
      if (!have_header) {
        JournalHeader header;
        valid = decodeHeader(in, header);
        if (valid && (header.spec_hash != expected.spec_hash ||
                      header.shard.index != expected.shard.index ||
                      header.shard.count != expected.shard.count ||
                      header.per_job != expected.per_job))
          throw InputError(path, 0, "",
                           fmt::format("this journal belongs to another sweep (spec {}, shard {}, {}), "
                                       "not this one (spec {}, shard {}, {}): use --force to start over",
                                       header.spec_hash, header.shard.text(),
                                       header.per_job ? "per-job" : "no per-job",
                                       expected.spec_hash, expected.shard.text(),
                                       expected.per_job ? "per-job" : "no per-job"));
        have_header = valid;
      } else {
        PointResult point;
        valid = decodePoint(in, point);
        if (valid) scan.points.push_back(std::move(point));
      }
    }
    if (!valid) {
      scan.notes.push_back(fmt::format("{}: ignored {} bytes after {} valid records (a record torn "
                                       "by a kill, or corrupt)",
                                       name, bytes.size() - at, scan.points.size() + (have_header ? 1 : 0)));
      break;
    }
    at += 12 + length;
  }
  return scan;
}

JournalScan readJournals(const std::string& folder, const JournalHeader& expected) {
  JournalScan all;
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return all;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.is_regular_file() && attemptOf(entry.path().filename().string()) > 0)
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& file : files) {
    JournalScan scan = readJournalFile(file, expected);
    all.last_attempt = std::max(all.last_attempt, scan.last_attempt);
    for (PointResult& point : scan.points) all.points.push_back(std::move(point));
    for (std::string& note : scan.notes) all.notes.push_back(std::move(note));
  }
  return all;
}

}  // namespace mosim::sweep
