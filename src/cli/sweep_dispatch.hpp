// Internal to `mosim sweep`: handing points out to MPI ranks and their OpenMP threads.
//
// Point costs differ by orders of magnitude (a phase-level point can cost 1000 times a job-level
// one), so work is handed out dynamically. Rank 0 owns the list of points to compute. Its OpenMP
// threads take points from it one at a time; a coordinator thread on rank 0 answers the other
// ranks' requests with chunks of guided size (remaining / (2 x all threads), at most 64), and
// prints progress. On the other ranks, the OpenMP threads take points one at a time from the
// rank's chunks; when fewer than one point per thread is left, the rank asks for the next chunk
// ahead of time, so that its threads rarely wait. No thread waits at a barrier between chunks.
//
// Only one thread per rank calls MPI at any time (MPI_THREAD_SERIALIZED): the coordinator on rank
// 0, the thread holding the supply's lock elsewhere. Waits poll MPI_Test with short sleeps,
// because Open MPI's blocking calls spin and would take a core from the computing threads.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace mosim::cli {

/// Calls `work(point)` exactly once for every point of `todo` (the same list on every rank),
/// somewhere among the ranks of MPI_COMM_WORLD and `threads` OpenMP threads per rank. `progress`
/// is called on rank 0 with the number of points done so far (the other ranks' counts lag by up
/// to a chunk). An exception from `work` is fatal: it is printed and the whole job aborted (the
/// journal keeps what was finished). Returns on each rank when that rank has nothing left to do.
void dispatchPoints(const std::vector<std::uint64_t>& todo, int threads,
                    const std::function<void(std::uint64_t point)>& work,
                    const std::function<void(std::uint64_t done)>& progress);

/// Waits for a request, testing it every 100 µs instead of spinning like MPI_Wait.
void waitPolitely(MPI_Request& request);

/// Prints "mosim sweep: error: MESSAGE" and aborts every rank (MPI_Abort).
[[noreturn]] void abortAllRanks(const char* message);

}  // namespace mosim::cli
