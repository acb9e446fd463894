#define BOOST_TEST_MODULE characterize_network
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "characterize/models.hpp"
#include "mosim/characterize.hpp"

using namespace mosim;
using namespace mosim::detail;

namespace {

GpuSpec toyGpu() {
  GpuSpec g;
  g.name = "toy";
  g.intra_link_Bps = 1e10;
  g.intra_step_latency_s = 1e-6;
  return g;
}

NetworkSpec toyNetwork() {
  NetworkSpec n;
  n.nic_Bps = 1e8;  // 100 MB/s
  n.net_step_latency_s = 1e-5;
  return n;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); }

constexpr double kMiB = 1 << 20;

Layer paramLayer(double grad_bytes) {
  Layer l;
  l.params = grad_bytes / 4;
  l.param_tensors = 1;
  return l;
}

}  // namespace

BOOST_AUTO_TEST_CASE(ring_allreduce_by_hand) {
  // N = 4 over 2 servers, 100 MB: every link, the NIC included, carries 2 x 3/4 x 100 MB = 150 MB
  // per direction: 1.5 s at 100 MB/s. Of the 2 x 3 = 6 steps, 2(S - 1) = 2 cross the network
  // (2 x 10 us) and 4 stay inside a server (4 x 1 us).
  BOOST_TEST(close(allReduceTime_s(1e8, 4, 2, toyGpu(), toyNetwork()), 1.5 + 2e-5 + 4e-6));
  // The same job inside one server: no NIC, 150 MB over the 10 GB/s link, 6 intra-server steps.
  BOOST_TEST(close(allReduceTime_s(1e8, 4, 1, toyGpu(), toyNetwork()), 0.015 + 6e-6));
  // N = 8 over 4 servers: 2 x 7/8 x 100 MB = 175 MB through each NIC; 14 steps, 6 of them across.
  BOOST_TEST(close(allReduceTime_s(1e8, 8, 4, toyGpu(), toyNetwork()), 1.75 + 6e-5 + 8e-6));
  // A stack with software costs: + 1 ms per call + 0.1 ms per step (6 steps).
  NetworkSpec slow = toyNetwork();
  slow.software_collective_s = 1e-3;
  slow.software_step_s = 1e-4;
  BOOST_TEST(close(allReduceTime_s(1e8, 4, 2, toyGpu(), slow), 1.5 + 2e-5 + 4e-6 + 1e-3 + 6e-4));
  // The slower of NIC and intra-server link bounds the ring.
  NetworkSpec fast = toyNetwork();
  fast.nic_Bps = 1e11;
  BOOST_TEST(close(allReduceTime_s(1e8, 4, 2, toyGpu(), fast), 0.015 + 2e-5 + 4e-6));
  BOOST_TEST(allReduceTime_s(1e8, 1, 1, toyGpu(), toyNetwork()) == 0.0);
}

BOOST_AUTO_TEST_CASE(tensorflow_exchanges_each_tensor_after_the_backward_pass) {
  ModelGraph m;
  m.framework = Framework::TensorFlow;
  Layer a = paramLayer(1200);
  a.param_tensors = 2;  // e.g. weight and bias: 600 B each (the model gives no finer split)
  Layer relu;           // no parameters, no collective
  m.layers = {a, relu, paramLayer(400)};
  const std::vector<LayerTime> times = {{1, 2}, {1, 2}, {1, 2}};
  const auto c = gradientCollectives(m, times, NetworkSpec{});
  BOOST_TEST_REQUIRE(c.size() == 3u);
  BOOST_TEST(c[0].bytes == 400);  // the last layer's gradient comes first
  BOOST_TEST(c[1].bytes == 600);
  BOOST_TEST(c[2].bytes == 600);
  for (const auto& collective : c) BOOST_TEST(collective.ready_s == 6.0);  // backward 3 x 2 s
}

BOOST_AUTO_TEST_CASE(pytorch_fills_ddp_buckets_in_reverse_order) {
  // Gradients in forward order: A 10 MiB, B 20 MiB, C 0.5 MiB, D 0.75 MiB; backward times 4, 3, 2, 1.
  // Reverse: D 0.75 < 1 MiB (first bucket), + C = 1.25 -> bucket 1, ready when C is (1 + 2 = 3 s);
  // B 20 < 25 MiB, + A = 30 -> bucket 2, ready when A is (3 + 3 + 4 = 10 s).
  ModelGraph m;
  m.framework = Framework::PyTorch;
  m.layers = {paramLayer(10 * kMiB), paramLayer(20 * kMiB), paramLayer(0.5 * kMiB), paramLayer(0.75 * kMiB)};
  const std::vector<LayerTime> times = {{0, 4}, {0, 3}, {0, 2}, {0, 1}};
  const auto c = gradientCollectives(m, times, NetworkSpec{});
  BOOST_TEST_REQUIRE(c.size() == 2u);
  BOOST_TEST(c[0].bytes == 1.25 * kMiB);
  BOOST_TEST(c[0].ready_s == 3.0);
  BOOST_TEST(c[1].bytes == 30 * kMiB);
  BOOST_TEST(c[1].ready_s == 10.0);
  NetworkSpec no_overlap;
  no_overlap.overlap_backward = false;
  const auto late = gradientCollectives(m, times, no_overlap);
  BOOST_TEST(late[0].ready_s == 10.0);
  BOOST_TEST(late[1].ready_s == 10.0);
}

BOOST_AUTO_TEST_CASE(collectives_overlap_the_backward_pass) {
  // Two workers on two servers, 150 MB each at 100 MB/s = 1.5 s, no latencies. Ready at 1 s and
  // 2 s: the first runs 1 - 2.5 s, the second 2.5 - 4 s; the backward pass ends at 3 s, so 1 s
  // is exposed out of 3 s of communication.
  NetworkSpec network = toyNetwork();
  network.net_step_latency_s = 0;
  const auto e = runCollectives({{1.5e8, 1.0}, {1.5e8, 2.0}}, 3.0, 2, 2, toyGpu(), network);
  BOOST_TEST(close(e.t_comm_s, 3.0));
  BOOST_TEST(close(e.exposed_s, 1.0));
  // Nothing to exchange for one worker.
  BOOST_TEST(runCollectives({{1.5e8, 1.0}}, 3.0, 1, 1, toyGpu(), network).exposed_s == 0.0);
}

BOOST_AUTO_TEST_CASE(the_testbed_reporting_ceiling) {
  NetworkSpec network;
  network.report_ceiling_s = 0.4;
  // N = 4: ceiling 0.4 x (4 + 2) / 4 = 0.6 s; 1 s exposed -> 0.6 s network, 0.4 s moves to compute.
  const auto [comp, net] = reportedSplit(2.0, 1.0, 4, network);
  BOOST_TEST(close(comp, 2.4));
  BOOST_TEST(close(net, 0.6));
  BOOST_TEST(reportedSplit(2.0, 0.5, 4, network).second == 0.5);  // under the ceiling: as is
  BOOST_TEST(reportedSplit(2.0, 1.0, 4, NetworkSpec{}).second == 1.0);  // off
}

BOOST_AUTO_TEST_CASE(network_rate_gives_the_contention_models_demand) {
  // D = per-worker ring bytes / T_net; C_j = 2 D for two workers, N/2 D beyond (reference §7.1
  // reads D = C_j / 2 and D = 2 C_j / N back).
  BOOST_TEST(networkRate_Bps(1e8, 1.0, 2) == 2e8);
  BOOST_TEST(networkRate_Bps(3e8, 1.5, 4) == 4e8);  // D = 2e8
  BOOST_TEST(networkRate_Bps(3e8, 1.5, 8) == 8e8);
  BOOST_TEST(2 * networkRate_Bps(3e8, 1.5, 8) / 8 == 3e8 / 1.5);
  BOOST_TEST(networkRate_Bps(1e8, 1.0, 1) == 0.0);
  BOOST_TEST(networkRate_Bps(1e8, 0.0, 4) == 0.0);  // nothing exposed: nothing to slow down
}

BOOST_AUTO_TEST_CASE(placement_decides_whether_the_nic_is_used) {
  const ModelPool pool = ModelPool::builtin();
  const GpuSpec gpu = GpuCatalog::builtin().find("V100-SXM2-16GB");
  const ModelGraph& resnet = pool.find("resnet50");
  JobSpec job;
  job.num_gpus = 8;
  job.batch_per_gpu = 128;
  NetworkSpec nccl;  // bare NCCL, 463 MB/s
  job.servers = 1;
  const Characterization one = characterize(resnet, gpu, job, nccl);
  job.servers = 2;
  const Characterization two = characterize(resnet, gpu, job, nccl);
  job.servers = 4;
  const Characterization four = characterize(resnet, gpu, job, nccl);
  BOOST_TEST(!one.uses_nic);
  BOOST_TEST(two.uses_nic);
  BOOST_TEST(one.t_net_s < 0.01);  // 179 MB over NVLink
  // Through the NIC: 2 x 7/8 x 102.2 MB = 178.9 MB at 463 MB/s = 0.386 s plus latencies.
  BOOST_TEST(two.t_net_s > 0.386);
  BOOST_TEST(two.t_net_s < 0.40);
  BOOST_TEST(four.t_net_s > two.t_net_s);  // same bytes, more network steps
  BOOST_TEST(two.v_net_bytes == 2 * 7.0 / 8 * two.grad_bytes);
  BOOST_TEST(one.t_comp_s == two.t_comp_s);
  // C_j reads back as D = 2 C_j / N = v_net / T_net.
  BOOST_TEST(close(2 * two.net_rate_Bps / 8, two.v_net_bytes / two.t_net_s));
}

BOOST_AUTO_TEST_CASE(characterized_profiles_answer_queries) {
  CharacterizedProfiles::Config config;
  const CharacterizedProfiles source(config);
  // Spread (the artifact's measurements): min(N, 2) servers, more when 8 per server do not suffice.
  BOOST_TEST(source.serversFor({"resnet50", 1}) == 1);
  BOOST_TEST(source.serversFor({"resnet50", 2}) == 2);
  BOOST_TEST(source.serversFor({"resnet50", 8}) == 2);
  BOOST_TEST(source.serversFor({"resnet50", 24}) == 3);
  BOOST_TEST(source.serversFor({"resnet50", 8, "", 4}) == 4);  // the query decides when it knows
  config.default_placement = "pack";
  const CharacterizedProfiles packed(config);
  BOOST_TEST(packed.serversFor({"resnet50", 8}) == 1);
  BOOST_TEST(packed.serversFor({"resnet50", 9}) == 2);

  const auto profile = source.profile({"workload_14", 4});  // artifact ids work too
  BOOST_TEST_REQUIRE(profile.has_value());
  const Characterization c = source.characterization({"resnet50", 4});
  BOOST_TEST(profile->t_comp_s == c.t_comp_s);
  BOOST_TEST(profile->t_net_s == c.t_net_s);
  BOOST_TEST(profile->net_rate_Bps == c.net_rate_Bps);
  BOOST_TEST(profile->loading_s == c.loading_s);
  BOOST_TEST(profile->t_net_s > 0);
  BOOST_TEST(!source.profile({"no_such_model", 4}).has_value());
  BOOST_TEST(source.batchFor("bert") == 4);
  BOOST_TEST(source.describe().find("V100-SXM2-16GB") != std::string::npos);

  // Another GPU type per query; a faster GPU computes faster.
  const auto a100 = source.profile({"resnet50", 4, "A100-SXM4-80GB"});
  BOOST_TEST(a100->t_comp_s < profile->t_comp_s);

  config.batch_per_gpu["resnet50"] = 64;
  const CharacterizedProfiles small(config);
  BOOST_TEST(small.profile({"resnet50", 1})->t_comp_s < source.profile({"resnet50", 1})->t_comp_s);
  config.gpu = "V100-SXM3-32GB";
  BOOST_CHECK_THROW(CharacterizedProfiles{config}, std::invalid_argument);
}
