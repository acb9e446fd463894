#define BOOST_TEST_MODULE engine
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>

#include "mosim/engine.hpp"

using namespace mosim;
namespace tt = boost::test_tools;

namespace {

ProfiledJob makeJob(JobId id, double submit_s, int gpus, double t_comp_s, double t_net_s,
                    double iterations, double loading_s = 0, double net_rate = 0) {
  ProfiledJob job;
  job.job.id = id;
  job.job.model = "m";
  job.job.submit_s = submit_s;
  job.job.num_gpus = gpus;
  job.job.duration_s = iterations * (t_comp_s + t_net_s);
  job.profile = Profile{t_comp_s, t_net_s, net_rate, loading_s};
  job.iterations = iterations;
  return job;
}

/// Rates are in units of 1 B/s here, so NIC and job rates read as written.
SimulationConfig makeConfig(int servers, int gpus, const std::string& contention,
                            const std::string& queue = "fifo", double nic = 100) {
  SimulationConfig config;
  config.cluster = ClusterSpec::homogeneous(servers, gpus, 256, nic, 1e9);
  config.placement = "k8s-load-balancing";
  config.queue = queue;
  config.contention = contention;
  config.contention_params.min_bandwidth_Bps = 10;
  config.rate_unit_Bps = 1;
  return config;
}

}  // namespace

// §6.1: job-level models book fractional iterations, so a solo job trains for exactly
// loading + N_iter * (T_comp + T_net) = 5 + 2.5 * 4 = 15, split 7.5 compute, 2.5 comm.
BOOST_AUTO_TEST_CASE(job_level_runs_fractional_iterations) {
  const auto result = simulate({makeJob(0, 0, 1, 3, 1, 2.5, 5)}, makeConfig(1, 8, "none"));
  const JobResult& job = result.jobs.at(0);
  BOOST_TEST(job.end_s == 15);
  BOOST_TEST(job.training_s == 15);
  BOOST_TEST(job.compute_s == 7.5);
  BOOST_TEST(job.comm_s == 2.5);
  BOOST_TEST(job.loading_s == 5);
  BOOST_TEST(job.iterations == 2.5);
}

// §6.2, §10.7: iteration-level models run max(1, floor(N_iter)) whole iterations:
// 5 + 2 * 4 = 13 for N = 2.5, and 5 + 1 * 4 = 9 for N = 0.4.
BOOST_AUTO_TEST_CASE(phase_level_runs_whole_iterations) {
  const auto result = simulate({makeJob(0, 0, 1, 3, 1, 2.5, 5), makeJob(1, 100, 1, 3, 1, 0.4, 5)},
                               makeConfig(1, 8, "mosim"));
  BOOST_TEST(result.jobs[0].end_s == 13);
  BOOST_TEST(result.jobs[0].iterations == 2);
  BOOST_TEST(result.jobs[0].compute_s == 6);
  BOOST_TEST(result.jobs[0].comm_s == 2);
  BOOST_TEST(result.jobs[1].end_s == 109);
  BOOST_TEST(result.jobs[1].iterations == 1);
}

// GPUs are held from placement, through loading: job 0 takes all 8 GPUs at 0, loads for 10 s and
// trains 4 s; job 1 (submitted at 1) starts at 14: wait 13, JCT = 13 + 4 = 17.
BOOST_AUTO_TEST_CASE(loading_holds_the_gpus) {
  const auto result = simulate({makeJob(0, 0, 8, 3, 1, 1, 10), makeJob(1, 1, 1, 3, 1, 1)},
                               makeConfig(1, 8, "none"));
  BOOST_TEST(result.jobs[0].start_s == 0);
  BOOST_TEST(result.jobs[0].end_s == 14);
  BOOST_TEST(result.jobs[1].start_s == 14);
  BOOST_TEST(result.jobs[1].wait_s == 13);
  BOOST_TEST(result.jobs[1].jct_s == 17);
}

// One 8-GPU server. Job 0 (6 GPUs) runs [0, 100]. Job 1 (4 GPUs, at 1) cannot fit until 100.
// FIFO: job 2 (2 GPUs, at 2) fits at once but waits behind job 1 and starts with it at 100.
// Backfill: job 2 starts at 2.
BOOST_AUTO_TEST_CASE(head_of_line_blocking_versus_backfill) {
  const std::vector<ProfiledJob> jobs{makeJob(0, 0, 6, 50, 0, 2), makeJob(1, 1, 4, 10, 0, 1),
                                      makeJob(2, 2, 2, 10, 0, 1)};
  const auto fifo = simulate(jobs, makeConfig(1, 8, "none", "fifo"));
  BOOST_TEST(fifo.jobs[1].start_s == 100);
  BOOST_TEST(fifo.jobs[2].start_s == 100);
  const auto backfill = simulate(jobs, makeConfig(1, 8, "none", "backfill"));
  BOOST_TEST(backfill.jobs[1].start_s == 100);
  BOOST_TEST(backfill.jobs[2].start_s == 2);
}

// Ties at one instant run Complete (0) before Start (3), and the queue is looked at last. `fixed`
// (r = 0.1) on one server: A (4 GPUs) runs [0, 100] alone (50 iterations of 1 + 1). B is placed at
// 50 and loads for 50 s, so it starts at 100, the instant A completes. Complete goes first: A ends
// at 100 with S = 1 and B starts alone: 100 + 50 * 2 = 200. (Start first would give B S = 1.1 and
// 100 + 50 * 2.1 = 205.) C (8 GPUs, at 60) needs A's and B's GPUs: it is placed at 200, after B's
// Complete at that instant.
BOOST_AUTO_TEST_CASE(simultaneous_events_complete_before_start_and_queue_last) {
  const std::vector<ProfiledJob> jobs{makeJob(0, 0, 4, 1, 1, 50), makeJob(1, 50, 4, 1, 1, 50, 50),
                                      makeJob(2, 60, 8, 1, 1, 1)};
  const auto result = simulate(jobs, makeConfig(1, 8, "fixed"));
  BOOST_TEST(result.jobs[0].end_s == 100);
  BOOST_TEST(result.jobs[1].start_s == 50);
  BOOST_TEST(result.jobs[1].end_s == 200);
  BOOST_TEST(result.jobs[2].start_s == 200);
}

// `fixed` counts a loading job as sharing: A (4 GPUs, 50 iterations of 1 + 1) starts at 0 alone
// (S = 1). B is placed at 10 and starts at 20 (loading 10): at B's Start both are updated. A has
// done 10 of its 100 s, i.e. 10 iterations; the other 40 take 40 * (1 + 1.1) = 84: A ends at 104.
BOOST_AUTO_TEST_CASE(fixed_penalty_applies_from_the_next_start) {
  const std::vector<ProfiledJob> jobs{makeJob(0, 0, 4, 1, 1, 50), makeJob(1, 10, 4, 1, 1, 50, 10)};
  const auto result = simulate(jobs, makeConfig(1, 8, "fixed"));
  BOOST_TEST(result.jobs[0].end_s == 20 + 40 * 2.1, tt::tolerance(1e-12));
  // A's booking: [0, 20] at 1:1, [20, 104] at 1:1.1 -> compute 10 + 40, comm 10 + 44.
  BOOST_TEST(result.jobs[0].compute_s == 50, tt::tolerance(1e-12));
  BOOST_TEST(result.jobs[0].comm_s == 54, tt::tolerance(1e-12));
}

// Two 2-worker jobs split over two servers (2 x 2 GPUs, NIC 100, C_j = 200 so D = 100 = C):
// T_comp = T_net = 1, N_iter = 2. A starts at 0, B at 1.
//  - paper (job level, Eq. 2–5): A alone runs at tau = 2. At 1, A has done 0.5 iterations and both
//    get S = 100 / (100 * 100/200) = 2, tau = 3: A ends at 1 + 1.5 * 3 = 5.5, B projected at 7.
//    At 5.5 B has done 4.5 / 3 = 1.5 and runs the last 0.5 alone at tau = 2: B ends at 6.5.
//  - mosim (phase level): their phases interleave (A comm [1,2] while B computes, B comm [2,3]
//    while A computes, ...), so nobody is slowed: A ends at 4, B at 5.
BOOST_AUTO_TEST_CASE(phase_level_sees_interleaved_phases_job_level_does_not) {
  const std::vector<ProfiledJob> jobs{makeJob(0, 0, 2, 1, 1, 2, 0, 200),
                                      makeJob(1, 1, 2, 1, 1, 2, 0, 200)};
  const auto paper = simulate(jobs, makeConfig(2, 2, "paper"));
  BOOST_TEST(paper.jobs[0].end_s == 5.5, tt::tolerance(1e-12));
  BOOST_TEST(paper.jobs[1].end_s == 6.5, tt::tolerance(1e-12));
  BOOST_TEST(paper.jobs[0].compute_s == 2, tt::tolerance(1e-12));  // 1 * 1/2 + 4.5 * 1/3
  BOOST_TEST(paper.jobs[0].comm_s == 3.5, tt::tolerance(1e-12));

  const auto mosim = simulate(jobs, makeConfig(2, 2, "mosim"));
  BOOST_TEST(mosim.jobs[0].end_s == 4);
  BOOST_TEST(mosim.jobs[1].end_s == 5);
  const Allocation split{0, 1};
  BOOST_TEST(mosim.jobs[1].servers == split, tt::per_element());
}

// The same two jobs started together communicate together: S = 2 in every comm phase, so each
// iteration takes 1 + 1 * 2 = 3 and both end at 6, with 2 s of compute and 4 s of comm.
BOOST_AUTO_TEST_CASE(phase_level_overlapping_communication_is_slowed) {
  const std::vector<ProfiledJob> jobs{makeJob(0, 0, 2, 1, 1, 2, 0, 200),
                                      makeJob(1, 0, 2, 1, 1, 2, 0, 200)};
  const auto result = simulate(jobs, makeConfig(2, 2, "mosim"));
  for (const auto& job : result.jobs) {
    BOOST_TEST(job.end_s == 6);
    BOOST_TEST(job.compute_s == 2);
    BOOST_TEST(job.comm_s == 4);
  }
}

BOOST_AUTO_TEST_CASE(a_job_that_can_never_fit_is_skipped_with_a_warning) {
  const auto result = simulate({makeJob(0, 0, 16, 1, 0, 1), makeJob(1, 0, 2, 1, 0, 1)},
                               makeConfig(1, 8, "none"));
  BOOST_TEST((result.jobs[0].status == JobStatus::Unplaceable));
  BOOST_TEST(std::isnan(result.jobs[0].end_s));
  BOOST_TEST((result.jobs[1].status == JobStatus::Completed));
  BOOST_TEST(result.jobs[1].end_s == 1);
  BOOST_REQUIRE(result.warnings.size() == 1);
  BOOST_TEST(result.warnings[0].find("job 0") != std::string::npos);
}

// Results do not depend on the order of the input: jobs are numbered by id and simultaneous
// events ordered by (time, priority, id).
BOOST_AUTO_TEST_CASE(input_order_does_not_matter) {
  std::vector<ProfiledJob> jobs;
  for (int i = 0; i < 30; ++i)
    jobs.push_back(makeJob(i, (i % 5) * 3.0, 1 << (i % 4), 0.5 + i % 3, 0.25 * (i % 4), 20 + i,
                           i % 2, 300));
  const auto reference = simulate(jobs, makeConfig(4, 8, "mosim"));
  std::shuffle(jobs.begin(), jobs.end(), std::mt19937_64(7));
  const auto shuffled = simulate(jobs, makeConfig(4, 8, "mosim"));
  BOOST_REQUIRE(reference.jobs.size() == shuffled.jobs.size());
  for (std::size_t i = 0; i < reference.jobs.size(); ++i) {
    BOOST_TEST(reference.jobs[i].id == shuffled.jobs[i].id);
    BOOST_TEST(reference.jobs[i].end_s == shuffled.jobs[i].end_s);
  }
  BOOST_TEST(reference.events == shuffled.events);
}

BOOST_AUTO_TEST_CASE(duplicate_ids_are_refused) {
  BOOST_CHECK_THROW(simulate({makeJob(3, 0, 1, 1, 0, 1), makeJob(3, 1, 1, 1, 0, 1)},
                             makeConfig(1, 8, "none")),
                    std::invalid_argument);
}

namespace {

/// Profiles by GPU type: an iteration takes 1 s of compute on "fast" GPUs and 3 s on "slow" ones.
class TwoSpeedProfiles final : public ProfileSource {
 public:
  std::optional<Profile> profile(const ProfileQuery& query) const override {
    return Profile{query.gpu_type == "slow" ? 3.0 : 1.0, 0, 0, 0};
  }
  std::string describe() const override { return "two speeds"; }
};

}  // namespace

// A job without a GPU type, profiled for fast GPUs, lands on a fast and a slow server (load
// balancing over two 1-GPU servers): it runs its 10 iterations at the slow GPU's pace, 10 x 3 s.
// Without a source for placement profiles it keeps its 1 s iterations.
BOOST_AUTO_TEST_CASE(a_job_on_mixed_gpus_runs_at_the_slowest_pace) {
  SimulationConfig config = makeConfig(2, 1, "none");
  config.cluster.servers[0].gpu_type = "fast";
  config.cluster.servers[1].gpu_type = "slow";
  const std::vector<ProfiledJob> jobs{makeJob(0, 0, 2, 1, 0, 10)};
  BOOST_TEST(simulate(jobs, config).jobs[0].end_s == 10);
  config.placement_profiles = std::make_shared<TwoSpeedProfiles>();
  const auto result = simulate(jobs, config);
  BOOST_TEST(result.jobs[0].end_s == 30);
  BOOST_TEST(result.jobs[0].compute_s == 30);
}
