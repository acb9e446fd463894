// Queue disciplines: which waiting jobs a scheduling pass tries to start, in queue order.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mosim/job.hpp"
#include "mosim/registry.hpp"

namespace mosim {

class QueuePolicy {
 public:
  /// Tries to start a job now; true when it was placed.
  using TryStart = std::function<bool(JobIndex)>;

  virtual ~QueuePolicy() = default;
  /// Offers waiting jobs (queue order: submit time, then job id) to `try_start` and returns the
  /// jobs that started. The engine follows a pass that started a job with another pass at the
  /// same instant, as a separate event, so each start is seen by the events that follow it.
  virtual std::vector<JobIndex> pass(const std::deque<JobIndex>& waiting,
                                     const TryStart& try_start) const = 0;
};

using QueueRegistry = Registry<QueuePolicy>;

/// Builds a registered queue discipline ("fifo", "backfill").
std::unique_ptr<QueuePolicy> makeQueuePolicy(const std::string& name);

}  // namespace mosim
