#define BOOST_TEST_MODULE cluster_config
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "mosim/cluster_config.hpp"
#include "mosim/engine.hpp"
#include "mosim/error.hpp"
#include "mosim/placement.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kClusters = kTestData + "/clusters/";
constexpr const char* kV100 = "V100-SXM2-16GB";
constexpr const char* kA100 = "A100-SXM4-80GB";
const char* const kPolicies[] = {"k8s-load-balancing", "k8s-bin-packing", "colocate"};

bool rejects(const std::string& name, std::size_t line, const std::string& field,
             const std::string& fragment) {
  const std::string path = kClusters + name;
  return throwsInputError([&] { readClusterConfig(path); }, {path, line, field, fragment});
}

std::optional<Allocation> place(const std::string& policy, const ClusterState& state,
                                const PlacementRequest& request) {
  return makePlacementPolicy(policy)->place(state, request);
}

}  // namespace

// hetero.yaml: servers 0 and 1 are 8 x V100 at 5 Gbps = 625 MB/s with the default 256 CPUs and
// 16384 MB/s intra; server 2 is 4 x A100 (spelled in lower case) with 64 CPUs, 25 GB/s, 600 GB/s.
BOOST_AUTO_TEST_CASE(heterogeneous_cluster_file) {
  const ClusterConfig config = readClusterConfig(kClusters + "hetero.yaml");
  const auto& servers = config.spec.servers;
  BOOST_TEST_REQUIRE(servers.size() == 3u);
  for (std::size_t s : {0u, 1u}) {
    BOOST_TEST(servers[s].gpus == 8);
    BOOST_TEST(servers[s].cpus == 256);
    BOOST_TEST(servers[s].gpu_type == kV100);
    BOOST_TEST(servers[s].nic_Bps == 625e6);
    BOOST_TEST(servers[s].intra_Bps == 16384e6);
  }
  BOOST_TEST(servers[2].gpus == 4);
  BOOST_TEST(servers[2].cpus == 64);
  BOOST_TEST(servers[2].gpu_type == kA100);
  BOOST_TEST(servers[2].nic_Bps == 25e9);
  BOOST_TEST(servers[2].intra_Bps == 600e9);
  BOOST_TEST(config.spec.totalGpus() == 20);
  BOOST_TEST(*config.placement == "k8s-bin-packing");
  BOOST_TEST(*config.queue == "backfill");
  BOOST_TEST(*config.contention == "paper");
  BOOST_TEST(describeCluster(config.spec) ==
             "2 x 8 V100-SXM2-16GB + 1 x 4 A100-SXM4-80GB (20 GPUs)");
  BOOST_TEST(config.spec.hasGpuType(kA100));
  BOOST_TEST(!config.spec.hasGpuType("H100-SXM"));
  BOOST_TEST(config.spec.hasGpuType(""));
}

// The defaults are mosim run's: 8 GPUs, 256 CPUs, 463 MB/s, 16384 MB/s, no type, no policies.
BOOST_AUTO_TEST_CASE(defaults_are_mosim_runs) {
  const ClusterConfig config = readClusterConfig(kClusters + "homogeneous.yaml");
  const ClusterSpec expected = ClusterSpec::homogeneous(4, 8, 256, 463e6, 16384e6);
  BOOST_TEST_REQUIRE(config.spec.servers.size() == 4u);
  for (const ServerSpec& server : config.spec.servers) {
    BOOST_TEST(server.gpus == expected.servers[0].gpus);
    BOOST_TEST(server.cpus == expected.servers[0].cpus);
    BOOST_TEST(server.nic_Bps == expected.servers[0].nic_Bps);
    BOOST_TEST(server.intra_Bps == expected.servers[0].intra_Bps);
    BOOST_TEST(server.gpu_type == "");
  }
  BOOST_TEST(!config.placement.has_value());
  BOOST_TEST(describeCluster(config.spec) == "4 x 8 GPUs");  // as mosim run has always printed
}

BOOST_AUTO_TEST_CASE(bad_cluster_files) {
  BOOST_TEST(rejects("malformed.yaml", 4, "", "malformed YAML"));
  BOOST_TEST(rejects("unknown_key.yaml", 3, "gpu", "unknown key"));
  BOOST_TEST(rejects("bandwidth_without_unit.yaml", 4, "nic_bandwidth", "has no unit"));
  BOOST_TEST(rejects("unknown_gpu_type.yaml", 3, "gpu_type", "unknown GPU type 'TPUv4' (known: "));
  BOOST_TEST(rejects("zero_count.yaml", 2, "count", "0 is out of range"));
  BOOST_TEST(rejects("fractional_gpus.yaml", 3, "gpus", "not a whole number"));
  BOOST_TEST(rejects("unknown_placement.yaml", 3, "placement", "unknown name 'spread'"));
  BOOST_TEST(rejects("no_servers.yaml", 1, "servers", "no `servers` list"));
  BOOST_TEST(rejects("missing_count.yaml", 2, "count", "needs a count"));
  BOOST_TEST(rejects("absent.yaml", 0, "", "cannot open"));
}

BOOST_AUTO_TEST_CASE(gpu_type_names) {
  BOOST_TEST(canonicalGpuType("v100-sxm2-16gb") == kV100);
  BOOST_TEST(canonicalGpuType("H100-SXM") == "H100-SXM");
  BOOST_CHECK_THROW(canonicalGpuType("V100"), std::invalid_argument);  // ambiguous: SXM2 or PCIe
  BOOST_TEST(knownGpuTypes().size() == 6u);
}

// ---- Placement by GPU type ----------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(every_policy_uses_only_servers_of_the_requested_type) {
  const ClusterSpec spec = readClusterConfig(kClusters + "hetero.yaml").spec;
  const ClusterState state(spec);
  for (const char* policy : kPolicies) {
    const auto a100 = place(policy, state, {3, 5, kA100});
    BOOST_TEST_REQUIRE(a100.has_value(), policy);
    BOOST_TEST((*a100 == Allocation{2, 2, 2}), policy);
    const auto v100 = place(policy, state, {4, 5, kV100});
    BOOST_TEST_REQUIRE(v100.has_value(), policy);
    for (ServerIndex s : *v100) BOOST_TEST(s < 2u, policy);
    // Five A100 workers never fit: the A100 server has four GPUs, whatever the V100s have free.
    BOOST_TEST(!place(policy, state, {5, 5, kA100}).has_value(), policy);
    BOOST_TEST(!fitsEmptyCluster(*makePlacementPolicy(policy), spec, {5, 5, kA100}), policy);
    BOOST_TEST(!fitsEmptyCluster(*makePlacementPolicy(policy), spec, {1, 0, "H100-SXM"}), policy);
  }
  // Load balancing spreads a V100 job over the V100 servers only: 0, 1, 0, 1.
  BOOST_TEST((*place("k8s-load-balancing", state, {4, 5, kV100}) == Allocation{0, 1, 0, 1}));
  // Without a type the A100 server takes part: sorted by free GPUs 0 (8), 1 (8), 2 (4).
  BOOST_TEST((*place("k8s-load-balancing", state, {4, 5, {}}) == Allocation{0, 1, 2, 0}));
}

// The pre-check counts only matching servers: the A100 server full, 16 V100 GPUs free.
BOOST_AUTO_TEST_CASE(a_full_type_waits_even_when_others_are_free) {
  const ClusterSpec spec = readClusterConfig(kClusters + "hetero.yaml").spec;
  ClusterState state(spec);
  state.allocate({2, 2, 2, 2}, 5);
  for (const char* policy : kPolicies) {
    BOOST_TEST(!place(policy, state, {1, 5, kA100}).has_value(), policy);
    BOOST_TEST(place(policy, state, {1, 5, kV100}).has_value(), policy);
  }
}

// Typed requests on an all-V100 cluster place exactly as untyped requests on an untyped one.
BOOST_AUTO_TEST_CASE(typed_placement_matches_untyped_when_every_server_matches) {
  const ClusterSpec untyped = ClusterSpec::homogeneous(4, 8, 256, 1, 1);
  ClusterSpec typed = untyped;
  for (ServerSpec& server : typed.servers) server.gpu_type = kV100;
  const std::vector<std::vector<int>> used = {{0, 0, 0, 0}, {6, 5, 7, 6}, {8, 1, 3, 0}, {2, 8, 8, 4}};
  for (const char* policy : kPolicies) {
    for (const auto& taken : used) {
      ClusterState a(untyped), b(typed);
      for (ServerIndex s = 0; s < 4; ++s) {
        a.allocate(Allocation(static_cast<std::size_t>(taken[s]), s), 0);
        b.allocate(Allocation(static_cast<std::size_t>(taken[s]), s), 0);
      }
      for (int workers : {1, 2, 3, 5, 8, 12}) {
        const auto plain = place(policy, a, {workers, 5, {}});
        const auto with_type = place(policy, b, {workers, 5, kV100});
        BOOST_TEST(plain.has_value() == with_type.has_value(), policy << " " << workers);
        if (plain && with_type) BOOST_TEST((*plain == *with_type), policy << " " << workers);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(allocation_gpu_types_for_characterization) {
  const ClusterSpec spec = readClusterConfig(kClusters + "hetero.yaml").spec;
  const std::vector<std::string> expected{kV100, kA100, kA100};
  BOOST_TEST((allocationGpuTypes(spec, {0, 2, 2}) == expected));
}

// ---- Jobs and the cluster -----------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(jobs_of_a_type_no_server_has_are_skipped) {
  const ClusterSpec spec = readClusterConfig(kClusters + "hetero.yaml").spec;
  Trace trace;
  trace.path = "typed.csv";
  for (const char* type : {"", kA100, "H100-SXM", kV100, "H100-SXM"}) {
    Job job;
    job.id = static_cast<JobId>(trace.jobs.size());
    job.gpu_type = type;
    job.source_line = trace.jobs.size() + 2;
    trace.jobs.push_back(job);
  }
  const TraceReport report = dropJobsWithoutGpuType(trace, spec);
  BOOST_TEST(trace.jobs.size() == 3u);
  BOOST_TEST(report.kept == 3u);
  BOOST_TEST(report.skipped.at("no server has GPU type H100-SXM") == 2u);
  BOOST_TEST(report.examples.front() == "typed.csv:4: job 2: no server has GPU type H100-SXM");
}

// The engine passes each job's GPU type to placement: A100 jobs run on server 2, V100 jobs on
// servers 0 and 1, and an H100 job is unplaceable.
BOOST_AUTO_TEST_CASE(the_engine_places_jobs_by_gpu_type) {
  SimulationConfig config;
  config.cluster = readClusterConfig(kClusters + "hetero.yaml").spec;
  config.placement = "k8s-load-balancing";
  config.contention = "none";
  const std::pair<int, const char*> jobs[] = {
      {2, kA100}, {8, kV100}, {4, ""}, {4, kA100}, {1, "H100-SXM"}, {16, kV100}};
  std::vector<ProfiledJob> profiled;
  for (const auto& [gpus, type] : jobs) {
    ProfiledJob job;
    job.job.id = static_cast<JobId>(profiled.size());
    job.job.submit_s = static_cast<double>(profiled.size());
    job.job.num_gpus = gpus;
    job.job.duration_s = 100;
    job.job.gpu_type = type;
    job.profile.t_comp_s = 100;
    job.iterations = 1;
    profiled.push_back(job);
  }
  const SimulationResult result = simulate(profiled, config);
  BOOST_TEST_REQUIRE(result.jobs.size() == 6u);
  for (ServerIndex s : result.jobs[0].servers) BOOST_TEST(s == 2u);
  for (ServerIndex s : result.jobs[1].servers) BOOST_TEST(s < 2u);
  for (ServerIndex s : result.jobs[3].servers) BOOST_TEST(s == 2u);
  BOOST_TEST(result.jobs[3].start_s >= result.jobs[0].end_s);  // waited for the A100 server
  BOOST_TEST((result.jobs[4].status == JobStatus::Unplaceable));
  BOOST_TEST((result.jobs[5].status == JobStatus::Completed));
  for (ServerIndex s : result.jobs[5].servers) BOOST_TEST(s < 2u);
}
