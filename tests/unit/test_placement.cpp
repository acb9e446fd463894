#define BOOST_TEST_MODULE placement
#include <boost/test/unit_test.hpp>

#include "mosim/placement.hpp"

using namespace mosim;

namespace {

/// A cluster of 8-GPU servers with the given GPUs free on each (the rest taken by dummy workers).
struct PartlyUsedCluster {
  explicit PartlyUsedCluster(std::vector<int> free_gpus)
      : spec(ClusterSpec::homogeneous(static_cast<int>(free_gpus.size()), 8, 256, 1, 1)),
        state(spec) {
    for (ServerIndex s = 0; s < free_gpus.size(); ++s)
      state.allocate(Allocation(static_cast<std::size_t>(8 - free_gpus[s]), s), 0);
  }
  ClusterSpec spec;
  ClusterState state;
};

Allocation place(const std::string& policy, const std::vector<int>& free_gpus, int workers) {
  PartlyUsedCluster cluster(free_gpus);
  const auto allocation = makePlacementPolicy(policy)->place(cluster.state, {workers, 5});
  BOOST_REQUIRE(allocation.has_value());
  return *allocation;
}

bool fits(const std::string& policy, const std::vector<int>& free_gpus, int workers) {
  PartlyUsedCluster cluster(free_gpus);
  return makePlacementPolicy(policy)->place(cluster.state, {workers, 5}).has_value();
}

}  // namespace

// mosim-reference.md §5.2, the repo's unit test: servers sorted by free GPUs, most first and stably
// (1:3, 0:2, 3:2, 2:1); round-robin over that fixed order: 1,0,3,2 | 1,0,3 (2 is full) | 1.
BOOST_AUTO_TEST_CASE(load_balancing_round_robin_over_a_fixed_order) {
  const Allocation expected{1, 0, 3, 2, 1, 0, 3, 1};
  const Allocation got = place("k8s-load-balancing", {2, 3, 1, 2}, 8);
  BOOST_TEST(got == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(load_balancing_spreads_over_an_empty_cluster) {
  const Allocation four{0, 1, 2, 3}, eight{0, 1, 2, 3, 0, 1, 2, 3};
  BOOST_TEST(place("k8s-load-balancing", {8, 8, 8, 8}, 4) == four, boost::test_tools::per_element());
  BOOST_TEST(place("k8s-load-balancing", {8, 8, 8, 8}, 8) == eight, boost::test_tools::per_element());
}

// §5.2: ascending by free GPUs, server 0 (1 free) first takes 1, server 1 takes the other 3; the
// job is split although servers 1..3 could each hold it.
BOOST_AUTO_TEST_CASE(bin_packing_fills_the_fullest_server_first) {
  const Allocation expected{0, 1, 1, 1};
  BOOST_TEST(place("k8s-bin-packing", {1, 8, 8, 8}, 4) == expected, boost::test_tools::per_element());
}

// Servers with no free GPU sort first and take nothing: free [0,3,5] -> 3 on server 1, 2 on server 2.
BOOST_AUTO_TEST_CASE(bin_packing_skips_full_servers) {
  const Allocation expected{1, 1, 1, 2, 2};
  BOOST_TEST(place("k8s-bin-packing", {0, 3, 5}, 5) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(colocate_takes_the_server_with_most_free_gpus) {
  const Allocation expected{2, 2, 2};
  BOOST_TEST(place("colocate", {4, 3, 6, 6}, 3) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(colocate_waits_when_no_single_server_holds_the_job) {
  BOOST_TEST(!fits("colocate", {4, 4, 4, 4}, 5));  // 16 free in total, but at most 4 together
  BOOST_TEST(fits("k8s-bin-packing", {4, 4, 4, 4}, 5));
}

BOOST_AUTO_TEST_CASE(every_policy_refuses_when_the_cluster_lacks_gpus) {
  for (const char* policy : {"k8s-load-balancing", "k8s-bin-packing", "colocate"})
    BOOST_TEST(!fits(policy, {1, 2, 0, 1}, 5), policy);
}

// With the artifact's 256 CPUs and 5 per worker CPUs never bind; but a server out of CPUs takes no
// worker even with free GPUs. 20 CPUs per server: after one 18-CPU worker, server 0 has 7 GPUs and
// 2 CPUs, server 1 has 8 GPUs and 20 CPUs (room for 4 workers of 5); 22 CPUs in all >= 3 * 5.
BOOST_AUTO_TEST_CASE(cpus_limit_a_server) {
  ClusterSpec spec = ClusterSpec::homogeneous(2, 8, 20, 1, 1);
  ClusterState state(spec);
  state.allocate({0}, 18);
  const auto allocation = makePlacementPolicy("k8s-load-balancing")->place(state, {3, 5});
  BOOST_REQUIRE(allocation.has_value());
  const Allocation expected{1, 1, 1};  // round-robin, but server 0 has no room for a worker
  BOOST_TEST(*allocation == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(jobs_larger_than_the_cluster_never_fit) {
  const ClusterSpec spec = ClusterSpec::homogeneous(2, 8, 256, 1, 1);
  BOOST_TEST(!fitsEmptyCluster(*makePlacementPolicy("k8s-bin-packing"), spec, {17, 0}));
  BOOST_TEST(fitsEmptyCluster(*makePlacementPolicy("k8s-bin-packing"), spec, {16, 0}));
  BOOST_TEST(!fitsEmptyCluster(*makePlacementPolicy("colocate"), spec, {9, 0}));
}

BOOST_AUTO_TEST_CASE(unknown_policy_names_the_known_ones) {
  try {
    makePlacementPolicy("spread");
    BOOST_FAIL("expected an error");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("k8s-bin-packing") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(release_returns_resources) {
  const ClusterSpec spec = ClusterSpec::homogeneous(2, 8, 256, 1, 1);
  ClusterState state(spec);
  state.allocate({0, 0, 1}, 5);
  BOOST_TEST(state.freeGpus(0) == 6);
  BOOST_TEST(state.freeCpus(0) == 246);
  BOOST_TEST(state.totalFreeGpus() == 13);
  state.release({0, 0, 1}, 5);
  BOOST_TEST(state.totalFreeGpus() == 16);
  BOOST_TEST(state.totalFreeCpus() == 512);
  BOOST_CHECK_THROW(state.allocate(Allocation(9, 0), 0), std::logic_error);
}
