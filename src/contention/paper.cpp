// paper: the paper's Eq. 2–10 literally (the artifact's "comms", mosim-reference.md §7.3). Job
// level: every training job demands its NIC bandwidth all the time, and factors are recomputed only
// when a job starts or completes.
#include "mosim/contention.hpp"

namespace mosim {
namespace {

class PaperContention final : public ContentionModel {
 public:
  explicit PaperContention(double min_bandwidth_Bps) : min_bandwidth_Bps_(min_bandwidth_Bps) {}

  ContentionGranularity granularity() const override { return ContentionGranularity::Job; }

  double slowdown(const NetworkState& network, JobIndex job) const override {
    return nicSlowdown(network, job, network.toRateUnits(min_bandwidth_Bps_));
  }

 private:
  double min_bandwidth_Bps_;
};

}  // namespace

MOSIM_REGISTER(ContentionRegistry, "paper",
               "the paper's Eq. 2-10: proportional NIC sharing, job level (the artifact's comms)",
               [](const ContentionParams& p) {
                 return std::make_unique<PaperContention>(p.min_bandwidth_Bps);
               })

}  // namespace mosim
