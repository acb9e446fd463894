#include "sweep_dispatch.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace mosim::cli {
namespace {

constexpr int kRequestTag = 1;  // worker rank -> 0: one uint64, the points that rank has done
constexpr int kGrantTag = 2;    // 0 -> worker rank: two uint64, [begin, end) in todo; empty: no more
constexpr std::uint64_t kMaxChunk = 64;
constexpr std::chrono::microseconds kPollInterval{100};
/// With one rank the coordinator only reports progress, which is printed at most once a second.
constexpr std::chrono::microseconds kProgressInterval{50'000};

/// Rank 0's share of the work: positions in `todo` not handed out yet.
class Pool {
 public:
  Pool(std::uint64_t size, std::uint64_t all_threads) : size_(size), all_threads_(all_threads) {}

  /// The next position for one of rank 0's own threads.
  std::optional<std::uint64_t> one() {
    const std::lock_guard lock(mutex_);
    if (next_ == size_) return std::nullopt;
    return next_++;
  }

  /// A chunk for another rank: guided, so that chunks shrink towards the end and the last points
  /// are spread over every thread. Empty when everything is handed out.
  std::pair<std::uint64_t, std::uint64_t> chunk() {
    const std::lock_guard lock(mutex_);
    const std::uint64_t remaining = size_ - next_;
    const std::uint64_t n = std::min({remaining, kMaxChunk, std::max<std::uint64_t>(1, remaining / (2 * all_threads_))});
    const std::uint64_t begin = next_;
    next_ += n;
    return {begin, next_};
  }

 private:
  std::mutex mutex_;
  std::uint64_t next_ = 0;
  const std::uint64_t size_;
  const std::uint64_t all_threads_;
};

/// A worker rank's supply of positions, refilled from rank 0 ahead of need.
class RemoteSupply {
 public:
  RemoteSupply(std::size_t prefetch_below, const std::atomic<std::uint64_t>& done)
      : prefetch_below_(prefetch_below), done_(done) {}

  std::optional<std::uint64_t> next() {
    const std::lock_guard lock(mutex_);
    for (;;) {
      if (outstanding_) {
        int arrived = 0;
        MPI_Test(&grant_request_, &arrived, MPI_STATUS_IGNORE);
        if (arrived) accept();
      }
      if (!queue_.empty()) {
        const std::uint64_t position = queue_.front();
        queue_.pop_front();
        if (queue_.size() < prefetch_below_ && !outstanding_ && !exhausted_) ask();
        return position;
      }
      if (exhausted_) return std::nullopt;
      if (!outstanding_) ask();
      waitPolitely(grant_request_);
      accept();
    }
  }

 private:
  void ask() {
    request_ = done_.load();
    MPI_Send(&request_, 1, MPI_UINT64_T, 0, kRequestTag, MPI_COMM_WORLD);
    MPI_Irecv(grant_, 2, MPI_UINT64_T, 0, kGrantTag, MPI_COMM_WORLD, &grant_request_);
    outstanding_ = true;
  }
  void accept() {
    outstanding_ = false;
    if (grant_[0] == grant_[1]) exhausted_ = true;
    for (std::uint64_t position = grant_[0]; position < grant_[1]; ++position)
      queue_.push_back(position);
  }

  std::mutex mutex_;
  std::deque<std::uint64_t> queue_;
  const std::size_t prefetch_below_;
  const std::atomic<std::uint64_t>& done_;
  bool outstanding_ = false;
  bool exhausted_ = false;
  std::uint64_t request_ = 0;
  std::uint64_t grant_[2] = {0, 0};
  MPI_Request grant_request_ = MPI_REQUEST_NULL;
};

/// Rank 0's coordinator: serves the other ranks until each has been told there is no more work,
/// and reports progress until rank 0's own threads are done too.
void coordinate(Pool& pool, int ranks, const std::atomic<bool>& local_done,
                const std::atomic<std::uint64_t>& local_count,
                const std::function<void(std::uint64_t)>& progress) {
  std::vector<std::uint64_t> reported(static_cast<std::size_t>(ranks), 0);
  int open_ranks = ranks - 1;
  std::uint64_t message = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  if (open_ranks > 0)
    MPI_Irecv(&message, 1, MPI_UINT64_T, MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &request);
  while (open_ranks > 0 || !local_done.load()) {
    bool served = false;
    if (open_ranks > 0) {
      int arrived = 0;
      MPI_Status status;
      MPI_Test(&request, &arrived, &status);
      if (arrived) {
        reported[static_cast<std::size_t>(status.MPI_SOURCE)] = message;
        const auto [begin, end] = pool.chunk();
        std::uint64_t grant[2] = {begin, end};
        MPI_Send(grant, 2, MPI_UINT64_T, status.MPI_SOURCE, kGrantTag, MPI_COMM_WORLD);
        if (begin == end) --open_ranks;
        if (open_ranks > 0)
          MPI_Irecv(&message, 1, MPI_UINT64_T, MPI_ANY_SOURCE, kRequestTag, MPI_COMM_WORLD, &request);
        served = true;
      }
    }
    std::uint64_t done = local_count.load();
    for (const std::uint64_t count : reported) done += count;
    progress(done);
    // Drain queued requests at once; otherwise sleep briefly rather than spin.
    if (!served) std::this_thread::sleep_for(ranks > 1 ? kPollInterval : kProgressInterval);
  }
}

}  // namespace

void waitPolitely(MPI_Request& request) {
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(kPollInterval);
  }
}

void abortAllRanks(const char* message) {
  std::fprintf(stderr, "mosim sweep: error: %s\n", message);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);  // MPI_Abort does not return; this is for the compiler
}

void dispatchPoints(const std::vector<std::uint64_t>& todo, int threads,
                    const std::function<void(std::uint64_t point)>& work,
                    const std::function<void(std::uint64_t done)>& progress) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::atomic<std::uint64_t> done{0};

  // Every rank has the same thread count (OMP_NUM_THREADS is the job's), so rank 0 can size the
  // guided chunks for all of them.
  Pool pool(todo.size(), static_cast<std::uint64_t>(ranks) * static_cast<std::uint64_t>(threads));
  RemoteSupply supply(static_cast<std::size_t>(threads), done);
  std::atomic<bool> local_done{false};
  std::thread coordinator;
  if (rank == 0)
    coordinator = std::thread([&] { coordinate(pool, ranks, local_done, done, progress); });

#pragma omp parallel num_threads(threads)
  {
    try {
      for (;;) {
        const std::optional<std::uint64_t> position = rank == 0 ? pool.one() : supply.next();
        if (!position) break;
        work(todo[*position]);
        done.fetch_add(1);
      }
    } catch (const std::exception& e) {
      abortAllRanks(e.what());
    }
  }
  local_done = true;
  if (coordinator.joinable()) coordinator.join();
}

}  // namespace mosim::cli
