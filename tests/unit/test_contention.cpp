#define BOOST_TEST_MODULE contention
#include <boost/test/unit_test.hpp>

#include <random>

#include "mosim/contention.hpp"

using namespace mosim;

namespace {

// Rates in these tests are in units of 1 B/s, so the numbers read as written.
constexpr double kUnit = 1;

struct Fixture {
  explicit Fixture(int servers = 2, double nic = 100, double intra = 1000)
      : spec(ClusterSpec::homogeneous(servers, 8, 256, nic, intra)), network(spec, 8, kUnit) {}
  double factor(const std::string& model, JobIndex job, ContentionParams params = {}) {
    params.min_bandwidth_Bps = min_bandwidth;
    return makeContentionModel(model, params)->slowdown(network, job);
  }
  ClusterSpec spec;
  NetworkState network;
  double min_bandwidth = 10;
};

}  // namespace

// Eq. 7: N = 4 split 2+2 with C_j = 200 -> D = 2 * 200 / 4 = 100 on each server; N = 2 split 1+1
// with C_j = 300 -> D = C_j / 2 = 150; all four on one server -> D = 0, I = C_j.
BOOST_AUTO_TEST_CASE(demand_per_server_follows_the_ring) {
  Fixture f;
  f.network.addJob(0, {0, 0, 1, 1}, 200);
  f.network.addJob(1, {0, 1}, 300);
  f.network.addJob(2, {1, 1, 1, 1}, 400);
  BOOST_TEST(f.network.shares(0).at(0).nic_demand_ru == 100);
  BOOST_TEST(f.network.shares(0).at(1).intra_demand_ru == 100);  // 200 * 2 / 4
  BOOST_TEST(f.network.shares(1).at(0).nic_demand_ru == 150);
  BOOST_TEST(f.network.shares(2).at(0).nic_demand_ru == 0);
  BOOST_TEST(f.network.shares(2).at(0).intra_demand_ru == 400);
  BOOST_TEST(f.network.nicDemand_ru(0) == 0);  // nobody demands until told so
  f.network.setDemanding(0, true);
  f.network.setDemanding(1, true);
  BOOST_TEST(f.network.nicDemand_ru(0) == 250);
  BOOST_TEST(f.network.jobsOn(1).size() == 3);
}

// Two jobs share both NICs (C = 100): D = 100 and D = 50, total 150 > 100, so each gets 2/3 of its
// demand (Eq. 8) and S = D / A = 1.5 for both (Eq. 9–10).
BOOST_AUTO_TEST_CASE(two_jobs_sharing_a_nic_share_it_in_proportion) {
  Fixture f;
  f.network.addJob(0, {0, 0, 1, 1}, 200);  // D = 100
  f.network.addJob(1, {0, 0, 1, 1}, 100);  // D = 50
  f.network.setDemanding(0, true);
  f.network.setDemanding(1, true);
  BOOST_TEST(f.network.allocated_ru(f.network.shares(0)[0]) == 100 * (100.0 / 150),
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.factor("paper", 0) == 1.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.factor("paper", 1) == 1.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.factor("mosim", 0) == 1.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(f.factor("none", 0) == 1);
  // Once job 1 stops communicating, job 0 has the NIC to itself: D = 100 = C, S = 1.
  f.network.setDemanding(1, false);
  BOOST_TEST(f.factor("mosim", 0) == 1);
}

// §10.2: not normalised to the solo case. A 2-worker job with C_j = 300 demands D = 150 on a
// 100 NIC and is slowed by 1.5 while alone.
BOOST_AUTO_TEST_CASE(a_split_job_alone_is_slowed_when_it_demands_more_than_the_nic) {
  Fixture f;
  f.network.addJob(0, {0, 1}, 300);
  f.network.setDemanding(0, true);
  BOOST_TEST(f.factor("paper", 0) == 1.5);
  BOOST_TEST(f.factor("mosim", 0) == 1.5);
}

BOOST_AUTO_TEST_CASE(a_job_inside_one_server_is_not_slowed_by_the_nic) {
  Fixture f;
  f.network.addJob(0, {0, 0, 0, 0}, 5000);
  f.network.addJob(1, {0, 1}, 300);
  f.network.setDemanding(0, true);
  f.network.setDemanding(1, true);
  BOOST_TEST(f.factor("paper", 0) == 1);
  BOOST_TEST(f.factor("paper", 1) == 1.5);  // alone on the NIC: job 0 uses none of it
}

// MIN_BW: D = 20 next to D = 9980 on a 100 NIC gets A = 20 * (100 / 10000) = 0.2; the floor of 10
// turns S = 20 / 0.2 = 100 into S = 20 / 10 = 2.
BOOST_AUTO_TEST_CASE(min_bandwidth_floors_the_allocation) {
  Fixture f;
  f.network.addJob(0, {0, 1}, 40);     // D = 20
  f.network.addJob(1, {0, 1}, 19960);  // D = 9980
  f.network.setDemanding(0, true);
  f.network.setDemanding(1, true);
  BOOST_TEST(f.factor("paper", 0) == 2, boost::test_tools::tolerance(1e-12));
  f.min_bandwidth = 0.1;
  BOOST_TEST(f.factor("paper", 0) == 100, boost::test_tools::tolerance(1e-9));
}

// The intra term of `mosim`: IC = 100; a job with all 4 workers on server 0 and C_j = 150 puts
// I = 150 on it, so S = 150 / 100 = 1.5, while the job-level `paper` model has no intra term.
// A split job on the same server in its comm phase sees the same intra load: 150 + 60*2/4 = 180.
BOOST_AUTO_TEST_CASE(intra_server_term_binds_when_links_are_oversubscribed) {
  Fixture f(2, 1000, 100);
  f.network.addJob(0, {0, 0, 0, 0}, 150);
  f.network.addJob(1, {0, 0, 1, 1}, 60);
  f.network.setDemanding(0, true);
  BOOST_TEST(f.factor("mosim", 0) == 1.5);
  BOOST_TEST(f.factor("paper", 0) == 1);
  f.network.setDemanding(1, true);
  BOOST_TEST(f.factor("mosim", 1) == 1.8, boost::test_tools::tolerance(1e-12));
}

// `fixed`: 1 + r while any other placed job (loading or one-GPU included) is on one of its
// servers, whatever the network does.
BOOST_AUTO_TEST_CASE(fixed_penalty_while_sharing_any_server) {
  Fixture f;
  f.network.addJob(0, {0, 0}, 0);
  ContentionParams params;
  params.fixed_ratio = 0.25;
  BOOST_TEST(f.factor("fixed", 0, params) == 1);
  f.network.addJob(1, {0}, 0);  // a one-GPU job, just placed
  BOOST_TEST(f.factor("fixed", 0, params) == 1.25);
  f.network.removeJob(1);
  BOOST_TEST(f.factor("fixed", 0, params) == 1);
}

BOOST_AUTO_TEST_CASE(removing_a_job_keeps_placement_order_and_totals) {
  Fixture f;
  f.network.addJob(0, {0, 1}, 100);
  f.network.addJob(1, {0, 1}, 100);
  f.network.addJob(2, {0, 1}, 100);
  for (JobIndex j = 0; j < 3; ++j) f.network.setDemanding(j, true);
  BOOST_TEST(f.network.nicDemand_ru(1) == 150);
  f.network.removeJob(1);
  const std::vector<JobIndex> expected{0, 2};
  BOOST_TEST(f.network.jobsOn(0) == expected, boost::test_tools::per_element());
  BOOST_TEST(f.network.nicDemand_ru(0) == 100);
}

// Rates given in bytes per second enter in the state's rate unit: 463 MiB/s in MiB/s is 463.
BOOST_AUTO_TEST_CASE(rates_are_kept_in_the_rate_unit) {
  const ClusterSpec spec = ClusterSpec::homogeneous(2, 8, 256, 463.0 * 1048576, 1);
  NetworkState network(spec, 1, 1048576);
  BOOST_TEST(network.nicCapacity_ru(0) == 463);
  network.addJob(0, {0, 1}, 1300.867041 * 1048576);
  BOOST_TEST(network.shares(0)[0].nic_demand_ru == 1300.867041 / 2);
}

BOOST_AUTO_TEST_CASE(models_are_registered_by_name) {
  for (const char* name : {"none", "fixed", "paper", "mosim"})
    BOOST_TEST(ContentionRegistry::instance().contains(name), name);
  BOOST_TEST((makeContentionModel("mosim", {})->granularity() == ContentionGranularity::Phase));
  BOOST_TEST((makeContentionModel("paper", {})->granularity() == ContentionGranularity::Job));
  BOOST_CHECK_THROW(makeContentionModel("nope", {}), std::invalid_argument);
}

// Servers whose placed jobs could not exceed the NIC even if all communicated at once skip their
// sums: the share stays 1. On a 100 NIC, D = 40 + 50 cannot bind; a third job (D = 30) can:
// 40 + 50 + 30 = 120 > 100 gives the share 100 / 120 to each, while the first two alone (90) fit.
BOOST_AUTO_TEST_CASE(a_nic_that_cannot_be_oversubscribed_keeps_its_share) {
  Fixture f(2, 100, 1000);
  f.network.addJob(0, {0, 1}, 80);  // D = 40
  f.network.addJob(1, {0, 1}, 100);  // D = 50
  f.network.setDemanding(0, true);
  f.network.setDemanding(1, true);
  BOOST_TEST(f.network.nicShare(0) == 1);
  BOOST_TEST(f.network.nicDemand_ru(0) == 90);
  f.network.addJob(2, {0, 1}, 60);  // D = 30
  f.network.setDemanding(2, true);
  BOOST_TEST(f.network.nicShare(0) == 100.0 / 120);
  BOOST_TEST(f.network.oversubscribed(1));
  f.network.setDemanding(1, false);  // 40 + 30 = 70 fits
  BOOST_TEST(f.network.nicShare(0) == 1);
  f.network.removeJob(0);  // 30 alone
  BOOST_TEST(f.network.nicDemand_ru(1) == 30);
  BOOST_TEST(!f.network.oversubscribed(1));
}

// A ring over several servers demands the same D on each (Eq. 7); a job inside one server demands
// nothing of it, which is uniform too.
BOOST_AUTO_TEST_CASE(ring_demand_is_uniform_across_a_jobs_servers) {
  Fixture f(3);
  f.network.addJob(0, {0, 0, 1, 2}, 200);
  f.network.addJob(1, {2, 2}, 300);
  BOOST_TEST(f.network.uniformNicDemand(0));
  BOOST_TEST(f.network.shares(0)[0].nic_demand_ru == 100);
  BOOST_TEST(f.network.shares(0)[2].nic_demand_ru == 100);
  BOOST_TEST(f.network.uniformNicDemand(1));
}

// The largest NIC factor of a job with the same D on each server is the one at its smallest
// share: D / max(D * share, MIN_BW) only falls as the share grows, and rounding keeps that order.
// Random states, floors included, against Eq. 9-10 evaluated at every server, bit for bit.
BOOST_AUTO_TEST_CASE(the_factor_at_the_smallest_share_is_the_largest_bit_for_bit) {
  std::mt19937_64 random(3);
  const auto uniform = [&](double low, double high) {
    return low + (high - low) * static_cast<double>(random() >> 11) * 0x1p-53;
  };
  for (int round = 0; round < 500; ++round) {
    const ClusterSpec spec = ClusterSpec::homogeneous(4, 8, 256, uniform(50, 500), 1e9);
    NetworkState network(spec, 6, 1);
    for (JobIndex j = 0; j < 6; ++j) {
      Allocation servers;
      for (ServerIndex s = 0; s < 4; ++s)
        if (random() % 2 || servers.empty()) servers.push_back(s);
      if (servers.size() == 1) servers.push_back((servers[0] + 1) % 4);
      network.addJob(j, servers, uniform(1, 2000));
      network.setDemanding(j, random() % 3 != 0);
    }
    const double min_bandwidth = uniform(0, 40);
    for (JobIndex j = 0; j < 6; ++j) {
      BOOST_REQUIRE(network.uniformNicDemand(j));
      // Eq. 9-10 as written: max(1, max_s D_s / max(A_s, MIN_BW)).
      double expected = 1;
      for (const auto& share : network.shares(j))
        expected = std::max(expected, share.nic_demand_ru / std::max(network.allocated_ru(share),
                                                                     min_bandwidth));
      BOOST_TEST(nicSlowdown(network, j, min_bandwidth) == expected);
    }
  }
}

// Updates reach the jobs demanding their full rates through a bit mask kept in placement order,
// also when a job placed before them leaves: jobs 0..3 on one server, 1 steady at a fraction.
BOOST_AUTO_TEST_CASE(fully_demanding_jobs_are_visited_in_placement_order) {
  Fixture f(1, 100, 1000);
  for (JobIndex j = 0; j < 4; ++j) f.network.addJob(j, {0}, 10);
  f.network.setDemanding(0, true);
  f.network.setDemandWeight(1, 0.5);
  f.network.setDemanding(2, true);
  f.network.setDemanding(3, true);
  const auto visited = [&] {
    std::vector<JobIndex> jobs;
    f.network.forEachFullyDemanding(0, [&](JobIndex j) { jobs.push_back(j); });
    return jobs;
  };
  BOOST_TEST(visited() == (std::vector<JobIndex>{0, 2, 3}), boost::test_tools::per_element());
  f.network.removeJob(0);
  BOOST_TEST(visited() == (std::vector<JobIndex>{2, 3}), boost::test_tools::per_element());
  f.network.setDemanding(2, false);
  f.network.setDemanding(1, true);
  BOOST_TEST(visited() == (std::vector<JobIndex>{1, 3}), boost::test_tools::per_element());
}

// Each server that changed is listed once until taken, then no more.
BOOST_AUTO_TEST_CASE(changed_servers_are_taken_once) {
  Fixture f(3);
  f.network.addJob(0, {0, 1}, 100);
  f.network.addJob(1, {1}, 0);
  const auto taken = f.network.takeChangedServers();
  BOOST_TEST(std::vector<ServerIndex>(taken.begin(), taken.end()) == (std::vector<ServerIndex>{0, 1}),
             boost::test_tools::per_element());
  BOOST_TEST(f.network.takeChangedServers().empty());
}
