// backfill: every waiting job that fits starts, in queue order (the paper's prose: "revisits the
// waiting queue to assign any job that fits"; semantics.md §2). No reservations: a large job at
// the head can be overtaken indefinitely by smaller ones.
#include "mosim/queue.hpp"

namespace mosim {
namespace {

class Backfill final : public QueuePolicy {
 public:
  std::vector<JobIndex> pass(const std::deque<JobIndex>& waiting,
                             const TryStart& try_start) const override {
    std::vector<JobIndex> started;
    for (JobIndex job : waiting)
      if (try_start(job)) started.push_back(job);
    return started;
  }
};

}  // namespace

MOSIM_REGISTER(QueueRegistry, "backfill",
               "start every waiting job that fits, in queue order (no head-of-line blocking)",
               [] { return std::make_unique<Backfill>(); })

}  // namespace mosim
