// mosim characterize: GPU-free profiles (T_comp, T_net, C_j, V_net) for a model, GPU and placement;
// the model and GPU lists; profile tables for a whole pool; ASTRA-sim workloads in and out.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "mosim/characterize.hpp"
#include "mosim/units.hpp"

namespace po = boost::program_options;

namespace mosim::cli {
namespace {

struct CharacterizeOptions {
  std::string model, gpu = "V100-SXM2-16GB", nic_bandwidth = "463 MB/s", precision = "fp32";
  std::string stack = "testbed";
  int gpus = 1, batch = 0, servers = 0, gpus_per_server = 8, seq_len = 0;
  bool json = false, list = false, pool = false, layers = false;
  std::vector<std::string> model_files, gpu_files;
  std::string out = "characterized-profiles", pool_models, pool_gpus, pool_workers = "1,2,4,8";
  std::string pool_placement = "spread";
  std::string export_astra, import_astra, astra_unit;
};

po::options_description describeOptions(CharacterizeOptions& o) {
  po::options_description d("mosim characterize options");
  d.add_options()
      ("help,h", "show this help")
      ("model", po::value(&o.model), "model name (--list shows the pool)")
      ("gpu", po::value(&o.gpu)->default_value(o.gpu), "GPU type (--list shows the catalog)")
      ("gpus", po::value(&o.gpus)->default_value(o.gpus), "data-parallel workers, one GPU each")
      ("batch", po::value(&o.batch), "batch per GPU (default: the model's, the artifact's batch)")
      ("servers", po::value(&o.servers), "servers the workers spread over evenly (default: as few as hold them)")
      ("gpus-per-server", po::value(&o.gpus_per_server)->default_value(o.gpus_per_server), "GPUs per server")
      ("nic-bandwidth", po::value(&o.nic_bandwidth)->default_value(o.nic_bandwidth), "NIC bandwidth per server and direction, with unit")
      ("seq-len", po::value(&o.seq_len), "sequence length: tokens (bert, gpt2), decoder tokens (whisper), audio samples (wav2vec2)")
      ("precision", po::value(&o.precision)->default_value(o.precision), "fp32 or amp")
      ("stack", po::value(&o.stack)->default_value(o.stack), "communication stack: testbed (the artifact's, fitted) or nccl (bare NCCL)")
      ("json", po::bool_switch(&o.json), "one JSON object instead of text")
      ("list", po::bool_switch(&o.list), "list the models and GPU types")
      ("layers", po::bool_switch(&o.layers), "print the model's operators with their work and times (CSV)")
      ("models", po::value(&o.model_files)->composing(), "YAML file of more models (repeatable)")
      ("gpus-file", po::value(&o.gpu_files)->composing(), "YAML file of more GPU types (repeatable)")
      ("pool", po::bool_switch(&o.pool), "write profile tables for the pool into --out")
      ("out", po::value(&o.out)->default_value(o.out), "output folder of --pool")
      ("pool-models", po::value(&o.pool_models), "comma-separated models for --pool (default: all)")
      ("pool-gpus", po::value(&o.pool_gpus), "comma-separated GPU types for --pool (default: --gpu)")
      ("pool-workers", po::value(&o.pool_workers)->default_value(o.pool_workers), "comma-separated worker counts for --pool")
      ("pool-placement", po::value(&o.pool_placement)->default_value(o.pool_placement), "spread (min(N, 2) servers, as the artifact measured) or pack")
      ("export-astra", po::value(&o.export_astra), "write the model as an ASTRA-sim workload file (compute in --astra-compute-unit, default ns)")
      ("import-astra", po::value(&o.import_astra), "characterize an ASTRA-sim workload file instead of a model")
      ("astra-compute-unit", po::value(&o.astra_unit), "unit of ASTRA-sim compute columns: ns (ASTRA-sim 1.0) or us (Chakra)");
  return d;
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

double astraUnit_s(const std::string& unit) {
  if (unit == "ns") return 1e-9;
  if (unit == "us") return 1e-6;
  throw std::invalid_argument(fmt::format("--astra-compute-unit must be ns or us, not '{}'", unit));
}

NetworkSpec networkFor(const CharacterizeOptions& o, double nic_Bps) {
  try {
    return networkStack(o.stack, nic_Bps);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("--stack: {}", e.what()));
  }
}

void printList(const ModelPool& pool, const GpuCatalog& gpus) {
  std::printf("models (batch = per-GPU default):\n");
  std::printf("  %-16s %12s %10s %7s %6s  %-10s %s\n", "name", "parameters", "fwd GMACs", "tensors", "batch",
              "framework", "description");
  for (const auto& m : pool.models())
    std::printf("  %-16s %12.0f %10.3f %7d %6d  %-10s %s\n", m.name.c_str(), m.totalParameters(),
                m.forwardMacs() / 1e9, m.gradientTensors(), m.default_batch, frameworkName(m.framework),
                m.description.c_str());
  std::printf("\nGPU types (dense TFLOPS):\n");
  std::printf("  %-16s %6s %6s %6s %10s %8s  %s\n", "name", "FP32", "TF32", "FP16", "HBM GB/s", "memory", "intra-server link");
  for (const auto& g : gpus.gpus())
    std::printf("  %-16s %6.1f %6.0f %6.0f %10.0f %5.0f GiB  %s %.0f GB/s per direction, %.1f us per step\n",
                g.name.c_str(), g.fp32_flops / 1e12, g.tf32_flops / 1e12, g.fp16_flops / 1e12, g.memory_Bps / 1e9,
                g.memory_bytes / (1 << 30), g.intra_link.c_str(), g.intra_link_Bps / 1e9, g.intra_step_latency_s * 1e6);
}

void printLayers(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job) {
  const auto times = operatorTimes(model, gpu, job);
  std::printf("index,name,type,class,params,frozen_params,param_tensors,fwd_macs,fwd_flops,fwd_elems_moved,"
              "saved_elems,forward_s,backward_s\n");
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& l = model.layers[i];
    std::printf("%s\n", fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}", i, l.name, l.type, opClassName(l.op_class),
                                    l.params, l.frozen_params, l.param_tensors, l.fwd_macs, l.fwd_flops,
                                    l.fwd_elems_moved, l.saved_elems, times[i].forward_s, times[i].backward_s)
                            .c_str());
  }
}

void printResult(const std::string& title, const Characterization& c, int num_gpus, bool json,
                 const nlohmann::json& extra) {
  if (json) {
    nlohmann::json j = extra;
    j["t_comp_s"] = c.t_comp_s;
    j["t_net_s"] = c.t_net_s;
    j["net_rate_Bps"] = c.net_rate_Bps;
    j["v_net_bytes"] = c.v_net_bytes;
    j["grad_bytes"] = c.grad_bytes;
    j["loading_s"] = c.loading_s;
    j["t_comm_s"] = c.t_comm_s;
    j["iteration_s"] = c.iteration_s();
    j["memory_bytes"] = c.memory_bytes;
    j["collectives"] = c.collectives;
    std::cout << j.dump(2) << '\n';
    return;
  }
  const double demand = num_gpus < 2 ? 0 : num_gpus == 2 ? c.net_rate_Bps / 2 : 2 * c.net_rate_Bps / num_gpus;
  std::printf("%s\n", title.c_str());
  const double moved_s = c.t_comp_s - (c.t_forward_s + c.t_backward_s + c.t_optimizer_s);
  std::printf("  T_comp     %10.4f s   (forward %.4f, backward %.4f, optimizer %.4f", c.t_comp_s, c.t_forward_s,
              c.t_backward_s, c.t_optimizer_s);
  if (moved_s > 1e-12) std::printf(", + %.4f of exchange the testbed reports as compute", moved_s);
  std::printf(")\n");
  std::printf("  T_net      %10.4f s   (%d all-reduces, %.4f s back to back%s)\n", c.t_net_s, c.collectives,
              c.t_comm_s, c.uses_nic ? ", through the NIC" : ", inside one server");
  std::printf("  iteration  %10.4f s\n", c.iteration_s());
  std::printf("  C_j        %10.1f MB/s (per-server demand D = %.1f MB/s)\n", c.net_rate_Bps / 1e6, demand / 1e6);
  std::printf("  V_net      %10.2f MB per worker and iteration (ring all-reduce)\n", c.v_net_bytes / 1e6);
  std::printf("  gradient   %10.2f MB\n", c.grad_bytes / 1e6);
  std::printf("  loading    %10.1f s\n", c.loading_s);
  if (c.memory_bytes > 0) std::printf("  memory     %10.2f GiB per GPU\n", c.memory_bytes / (1 << 30));
}

int runPool(const CharacterizeOptions& o, const ModelPool& pool, const GpuCatalog& gpus, double nic_Bps,
            Precision precision) {
  CharacterizedProfiles::Config config;
  config.gpu = o.gpu;
  config.nic_Bps = nic_Bps;
  config.gpus_per_server = o.gpus_per_server;
  config.precision = precision;
  config.network = networkFor(o, nic_Bps);
  config.default_placement = o.pool_placement;
  const CharacterizedProfiles source(config, pool, gpus);
  std::vector<std::string> models = o.pool_models.empty() ? std::vector<std::string>{} : splitList(o.pool_models);
  if (models.empty())
    for (const auto& m : pool.models()) models.push_back(m.name);
  std::vector<int> workers;
  for (const auto& text : splitList(o.pool_workers)) {
    const double value = parseNumber(text);
    if (value < 1 || value != static_cast<int>(value))
      throw std::invalid_argument(fmt::format("--pool-workers: '{}' is not a positive whole number", text));
    workers.push_back(static_cast<int>(value));
  }
  const auto gpu_names = o.pool_gpus.empty() ? std::vector<std::string>{o.gpu} : splitList(o.pool_gpus);
  for (const auto& name : gpu_names) gpus.find(name);
  for (const auto& name : models) pool.find(name);
  for (const auto& file : writePoolProfiles(o.out, source, models, workers, gpu_names))
    std::printf("wrote %s\n", file.c_str());
  return 0;
}

template <class Call>
auto naming(const char* option, Call call) {
  try {
    return call();
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    if (message.rfind("--", 0) == 0) throw;
    throw std::invalid_argument(fmt::format("--{}: {}", option, message));
  }
}

}  // namespace

int characterizeCommand(const std::vector<std::string>& args) {
  CharacterizeOptions o;
  const auto description = describeOptions(o);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(description).run(), vm);
  if (vm.count("help")) {
    std::cout << description << '\n';
    return 0;
  }
  po::notify(vm);

  ModelPool pool = ModelPool::builtin();
  for (const auto& file : o.model_files) pool.addYaml(file);
  GpuCatalog gpus = GpuCatalog::builtin();
  for (const auto& file : o.gpu_files) gpus.addYaml(file);
  if (o.list) {
    printList(pool, gpus);
    return 0;
  }

  const double nic_Bps = naming("nic-bandwidth", [&] {
    const double rate = parseBandwidth_Bps(o.nic_bandwidth);
    if (!(rate > 0)) throw std::invalid_argument("must be positive");
    return rate;
  });
  const Precision precision = naming("precision", [&] { return parsePrecision(o.precision); });
  if (o.gpus_per_server < 1) throw std::invalid_argument("--gpus-per-server must be at least 1");
  if (o.gpus < 1) throw std::invalid_argument(fmt::format("--gpus must be at least 1, not {}", o.gpus));
  const GpuSpec& gpu = naming("gpu", [&]() -> const GpuSpec& { return gpus.find(o.gpu); });
  const NetworkSpec network = networkFor(o, nic_Bps);
  if (o.pool) return runPool(o, pool, gpus, nic_Bps, precision);

  JobSpec job;
  job.num_gpus = o.gpus;
  job.servers = vm.count("servers") ? o.servers : (o.gpus + o.gpus_per_server - 1) / o.gpus_per_server;
  job.precision = precision;
  if (vm.count("batch") && o.batch < 1)
    throw std::invalid_argument(fmt::format("--batch must be at least 1 sample per GPU, not {}", o.batch));

  const std::string placement = fmt::format("{} GPU{} on {} server{}", o.gpus, o.gpus > 1 ? "s" : "", job.servers,
                                            job.servers > 1 ? "s" : "");
  if (!o.import_astra.empty()) {
    if (o.astra_unit.empty())
      throw std::invalid_argument("--import-astra needs --astra-compute-unit: ns (ASTRA-sim 1.0) or us (Chakra)");
    const double unit_s = astraUnit_s(o.astra_unit);
    const AstraWorkload workload = readAstraWorkload(o.import_astra);
    job.batch_per_gpu = 1;  // the workload's compute times already hold the batch
    const Characterization c = characterizeAstra(workload, gpu, job, network, unit_s);
    printResult(fmt::format("ASTRA-sim workload {} ({} layers), {}, {} stack, NIC {}", o.import_astra,
                            workload.layers.size(), placement, o.stack, formatBandwidth(nic_Bps)),
                c, o.gpus, o.json, {{"workload", o.import_astra}, {"num_gpus", o.gpus}, {"servers", job.servers}});
    return 0;
  }

  if (o.model.empty()) throw std::invalid_argument("--model is required (or --list, --pool, --import-astra)");
  const ModelGraph model = naming("model", [&] {
    const std::string name = canonicalModelName(o.model);
    if (o.seq_len > 0 || vm.count("seq-len")) return builtinModel(name, o.seq_len);
    return pool.find(name);
  });
  job.batch_per_gpu = vm.count("batch") ? o.batch : model.default_batch;
  if (o.layers) {
    printLayers(model, gpu, job);
    return 0;
  }
  const Characterization c = characterize(model, gpu, job, network);
  if (!o.export_astra.empty()) {
    writeAstraWorkload(o.export_astra, astraWorkload(model, gpu, job, o.astra_unit.empty() ? 1e-9 : astraUnit_s(o.astra_unit)));
    if (!o.json) std::printf("wrote %s\n", o.export_astra.c_str());
  }
  printResult(fmt::format("{} on {} x {} ({}, batch {} per GPU, {}, {} stack, NIC {})", model.name, o.gpus,
                          gpu.name, placement, job.batch_per_gpu, precisionName(precision), o.stack,
                          formatBandwidth(nic_Bps)),
              c, o.gpus, o.json,
              {{"model", model.name},
               {"gpu", gpu.name},
               {"num_gpus", o.gpus},
               {"servers", job.servers},
               {"batch_per_gpu", job.batch_per_gpu},
               {"precision", precisionName(precision)}});
  return 0;
}

}  // namespace mosim::cli
