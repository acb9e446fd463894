#define BOOST_TEST_MODULE characterize_io
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <string>

#include "mosim/characterize.hpp"
#include "mosim/profile.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kData = kTestData + "/characterize/";

bool close(double a, double b, double tolerance = 1e-9) {
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

}  // namespace

BOOST_AUTO_TEST_CASE(astra_workload_by_hand) {
  const AstraWorkload w = readAstraWorkload(kData + "astra_toy.txt");
  BOOST_TEST_REQUIRE(w.layers.size() == 2u);
  BOOST_TEST(w.layers[1].name == "layer2");  // tab-separated line
  BOOST_TEST(w.layers[1].weight_grad_comm_bytes == 3e6);

  GpuSpec gpu;
  gpu.intra_link_Bps = 1e10;
  NetworkSpec network;
  network.nic_Bps = 1e8;
  network.net_step_latency_s = 0;
  JobSpec job;
  job.num_gpus = 2;
  job.servers = 2;
  const Characterization c = characterizeAstra(w, gpu, job, network, 1e-9);
  // Compute (ns): forward 1000 + 4000; backward (5000 + 6000) + (2000 + 3000); updates 100 + 200.
  BOOST_TEST(close(c.t_forward_s, 5e-6));
  BOOST_TEST(close(c.t_backward_s, 16e-6));
  BOOST_TEST(close(c.t_comp_s, 21.3e-6));
  // Backward from layer2: its 3 MB all-reduce is ready at 11 us and takes 3e6 / 1e8 = 30 ms (two
  // workers: 2 x 1/2 x bytes); layer1's 1 MB is ready at 16 us and waits until 30.011 ms, then
  // 10 ms. Exposed: 40.011 ms - 16 us.
  BOOST_TEST(close(c.t_net_s, 0.040011 - 16e-6));
  BOOST_TEST(close(c.t_comm_s, 0.04));
  BOOST_TEST(c.grad_bytes == 4e6);
  BOOST_TEST(c.v_net_bytes == 4e6);
  BOOST_TEST(c.collectives == 2);
  // In microseconds every compute time is 1000x longer.
  const Characterization us = characterizeAstra(w, gpu, job, network, 1e-6);
  BOOST_TEST(close(us.t_comp_s, 21.3e-3));
}

BOOST_AUTO_TEST_CASE(astra_errors_name_file_line_and_column) {
  BOOST_TEST(throwsInputError([] { readAstraWorkload(kData + "astra_bad_columns.txt"); },
                              {kData + "astra_bad_columns.txt", 3, "", "12 columns"}));
  BOOST_TEST(throwsInputError([] { readAstraWorkload(kData + "astra_bad_comm.txt"); },
                              {kData + "astra_bad_comm.txt", 3, "wg_comm_type", "BROADCAST"}));
  BOOST_TEST(throwsInputError([] { readAstraWorkload(kData + "astra_bad_count.txt"); },
                              {kData + "astra_bad_count.txt", 2, "layers", "declares 3 layers"}));
  BOOST_TEST(throwsInputError([] { readAstraWorkload(kData + "astra_model_parallel.txt"); },
                              {kData + "astra_model_parallel.txt", 1, "parallelism", "only DATA"}));
  BOOST_TEST(throwsInputError([] { readAstraWorkload(kData + "no_such_file.txt"); },
                              {kData + "no_such_file.txt", 0, "", "cannot open"}));
}

BOOST_AUTO_TEST_CASE(astra_export_and_import_round_trip) {
  const TemporaryFolder tmp;
  const ModelPool pool = ModelPool::builtin();
  const GpuSpec gpu = GpuCatalog::builtin().find("V100-SXM2-16GB");
  const ModelGraph& model = pool.find("resnet50");
  JobSpec job;
  job.batch_per_gpu = 128;
  const AstraWorkload exported = astraWorkload(model, gpu, job, 1e-9);
  // One ASTRA-sim layer per layer with parameters: 53 convolutions, 53 batch norms, 1 linear.
  BOOST_TEST(exported.layers.size() == 107u);
  const std::string path = (tmp.path / "resnet50.txt").string();
  writeAstraWorkload(path, exported);
  const AstraWorkload imported = readAstraWorkload(path);
  BOOST_TEST(imported.layers.size() == exported.layers.size());

  job.num_gpus = 4;
  job.servers = 2;
  const NetworkSpec network;
  const Characterization direct = characterize(model, gpu, job, network);
  const Characterization via_astra = characterizeAstra(imported, gpu, job, network, 1e-9);
  // Compute survives the trip up to rounding to whole nanoseconds; gradient bytes exactly.
  BOOST_TEST(close(via_astra.t_comp_s, direct.t_comp_s, 1e-5));
  BOOST_TEST(via_astra.grad_bytes == direct.grad_bytes);
  BOOST_TEST(via_astra.v_net_bytes == direct.v_net_bytes);
}

BOOST_AUTO_TEST_CASE(gpus_from_yaml) {
  GpuCatalog catalog = GpuCatalog::builtin();
  BOOST_TEST(catalog.gpus().size() == 6u);
  catalog.addYaml(kData + "gpus.yaml");
  const GpuSpec& l40s = catalog.find("l40s");  // names are case-insensitive
  BOOST_TEST(l40s.fp32_flops == 91.6e12);
  BOOST_TEST(l40s.memory_Bps == 864e9);
  BOOST_TEST(l40s.memory_bytes == 48.0 * (1 << 30));
  BOOST_TEST(l40s.intra_link_Bps == 32e9);
  BOOST_TEST(l40s.intra_step_latency_s == 5.7e-6);  // PCIe default
  BOOST_TEST(l40s.efficiency.gemm == 0.5);          // overridden
  BOOST_TEST(l40s.efficiency.memory == GpuCatalog::builtin().find("V100-SXM2-16GB").efficiency.memory);
  BOOST_TEST(throwsInputError([&] { catalog.addYaml(kData + "bad_gpus.yaml"); },
                              {kData + "bad_gpus.yaml", 5, "gpus[0].memory_bandwidth", "unit"}));
  BOOST_CHECK_THROW(catalog.find("TPUv4"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(pool_tables_read_back_in_both_formats) {
  const TemporaryFolder tmp;
  CharacterizedProfiles::Config config;
  const CharacterizedProfiles source(config);
  const auto files = writePoolProfiles(tmp.path.string(), source, {"resnet50", "bert"}, {1, 2, 4},
                                       {"V100-SXM2-16GB"});
  BOOST_TEST_REQUIRE(files.size() == 3u);
  const ProfileTable mosim_format = readMosimProfiles(files[0]);
  const ProfileTable artifact_format = readArtifactProfiles(files[1], files[2], 1e6);  // decimal MB/s
  BOOST_TEST(mosim_format.size() == 6u);
  for (const char* model : {"resnet50", "bert"}) {
    for (const int n : {1, 2, 4}) {
      const Characterization c = source.characterization({model, n});
      const Profile a = mosim_format.profile({model, n}).value();
      const Profile b = artifact_format.profile({model, n}).value();
      BOOST_TEST(a.t_comp_s == c.t_comp_s);  // shortest round-trip text
      BOOST_TEST(a.net_rate_Bps == c.net_rate_Bps);
      BOOST_TEST(b.t_net_s == c.t_net_s);
      BOOST_TEST(close(b.net_rate_Bps, c.net_rate_Bps, 1e-6));  // 4 decimals of MB/s
      BOOST_TEST(b.loading_s == c.loading_s);
    }
  }
}
