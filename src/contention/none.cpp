// none: jobs never slow each other (Tiresias-like; the artifact's "none").
#include "mosim/contention.hpp"

namespace mosim {
namespace {

class NoContention final : public ContentionModel {
 public:
  ContentionGranularity granularity() const override { return ContentionGranularity::Job; }
  double slowdown(const NetworkState&, JobIndex) const override { return 1; }
};

}  // namespace

MOSIM_REGISTER(ContentionRegistry, "none", "no contention: every job runs at its solo pace",
               [](const ContentionParams&) { return std::make_unique<NoContention>(); })

}  // namespace mosim
