// mosim: the artifact's phase-level model (comms-iter-intra, mosim-reference.md §7.2). Every
// iteration's compute and communication phases are simulated; only communicating jobs share NIC
// bandwidth. The factor is the worst over the job's servers of the NIC factor (Eq. 9) and the
// intra-server load Σ I_K,s / IC of the communicating jobs there. The NIC factor is at least 1, so
// NetworkState's intra factor, max(1, load), gives the same result.
#include <algorithm>

#include "mosim/contention.hpp"

namespace mosim {
namespace {

class MosimContention final : public ContentionModel {
 public:
  explicit MosimContention(double min_bandwidth_Bps) : min_bandwidth_Bps_(min_bandwidth_Bps) {}

  ContentionGranularity granularity() const override { return ContentionGranularity::Phase; }

  double slowdown(const NetworkState& network, JobIndex job) const override {
    return factor(network, job, network.toRateUnits(min_bandwidth_Bps_));
  }

  void slowdowns(const NetworkState& network, std::span<const JobIndex> jobs,
                 std::span<double> factors) const override {
    const double min_bandwidth_ru = network.toRateUnits(min_bandwidth_Bps_);
    for (std::size_t i = 0; i < jobs.size(); ++i) factors[i] = factor(network, jobs[i], min_bandwidth_ru);
  }

  // Below both capacities even if every placed job communicated at once, nobody slows anybody.
  bool canCongest(const NetworkState& network, ServerIndex s) const override {
    return network.nicPlacedDemand_ru(s) > network.nicCapacity_ru(s) ||
           network.intraPlacedDemand_ru(s) > network.intraCapacity_ru(s);
  }

 private:
  static double factor(const NetworkState& network, JobIndex job, double min_bandwidth_ru) {
    double slowdown = nicSlowdown(network, job, min_bandwidth_ru);
    if (network.anyIntraFactor())
      for (const auto& share : network.shares(job))
        slowdown = std::max(slowdown, network.intraFactor(share.server));
    return slowdown;
  }

  double min_bandwidth_Bps_;
};

}  // namespace

MOSIM_REGISTER(ContentionRegistry, "mosim",
               "phase level: only communicating jobs share NICs, plus the intra-server term (the "
               "artifact's comms-iter-intra, the paper's MoSim)",
               [](const ContentionParams& p) {
                 return std::make_unique<MosimContention>(p.min_bandwidth_Bps);
               })

}  // namespace mosim
