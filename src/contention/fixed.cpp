// fixed: a fixed penalty r on network time while the job shares any of its servers with any other
// placed job, loading or single-GPU ones included (Pollux-like; the artifact's "fixed",
// mosim-reference.md §7.5, §10.6). Re-evaluated only when a job starts or completes.
#include "mosim/contention.hpp"

namespace mosim {
namespace {

class FixedContention final : public ContentionModel {
 public:
  explicit FixedContention(double ratio) : ratio_(ratio) {}

  ContentionGranularity granularity() const override { return ContentionGranularity::Job; }

  double slowdown(const NetworkState& network, JobIndex job) const override {
    for (const auto& share : network.shares(job))
      if (network.jobsOn(share.server).size() >= 2) return 1 + ratio_;
    return 1;
  }

 private:
  double ratio_;
};

}  // namespace

MOSIM_REGISTER(ContentionRegistry, "fixed",
               "network time x (1 + --fixed-ratio) while sharing a server (Pollux-like)",
               [](const ContentionParams& p) { return std::make_unique<FixedContention>(p.fixed_ratio); })

}  // namespace mosim
