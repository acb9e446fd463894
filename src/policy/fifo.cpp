// fifo: strict first-in first-out with head-of-line blocking, the artifact's queue
// (mosim-reference.md §5.1). Only the head is tried; a head that does not fit blocks every job
// behind it. One job per pass: the engine runs the next pass as a new event at the same instant,
// exactly as the artifact chains one Arrive event per job.
#include "mosim/queue.hpp"

namespace mosim {
namespace {

class Fifo final : public QueuePolicy {
 public:
  std::vector<JobIndex> pass(const std::deque<JobIndex>& waiting,
                             const TryStart& try_start) const override {
    if (!waiting.empty() && try_start(waiting.front())) return {waiting.front()};
    return {};
  }
};

}  // namespace

MOSIM_REGISTER(QueueRegistry, "fifo",
               "first in, first out; the head blocks the queue until it fits (the artifact's)",
               [] { return std::make_unique<Fifo>(); })

}  // namespace mosim
