// ASTRA-sim's text workload format, both ways.
//
//   DATA                        <- parallelism (only data parallel is understood)
//   3                           <- layer count
//   conv1 -1 5180 NONE 0 5180 NONE 0 5180 ALLREDUCE 37632 10
//   ...
// Columns: name, reserved, forward compute, forward comm type, forward comm bytes, input-gradient
// compute, comm type, comm bytes, weight-gradient compute, comm type, comm bytes, update delay.
// Compute and delay columns are integers in ns (ASTRA-sim 1.0) or us (the Chakra converter).
//
// Import semantics (characterizeAstra): T_comp is the sum of all compute and update columns. As in
// ASTRA-sim's data-parallel workload, each weight-gradient collective is issued when its layer's
// backward pass is done (layers run backwards from the last) and overlaps the rest of the backward
// pass; forward and input-gradient collectives block. Collectives cost what the ring model of
// network_model.cpp says (all-gather, reduce-scatter and all-to-all half an all-reduce).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "characterize/calibration.hpp"
#include "characterize/models.hpp"
#include "mosim/error.hpp"
#include "mosim/units.hpp"
#include "mosim/text.hpp"

namespace mosim {

namespace {

constexpr const char* kColumns[12] = {"name",         "reserved",        "fwd_compute",  "fwd_comm_type",
                                      "fwd_comm_bytes", "ig_compute",    "ig_comm_type", "ig_comm_bytes",
                                      "wg_compute",   "wg_comm_type",    "wg_comm_bytes", "update_delay"};

bool knownCommType(const std::string& type) {
  return type == "NONE" || type == "ALLREDUCE" || type == "ALLGATHER" || type == "REDUCESCATTER" ||
         type == "ALLTOALL";
}

/// Cost of one collective in units of a ring all-reduce of the same bytes.
double allReduceShare(const std::string& type) {
  if (type == "NONE") return 0;
  return type == "ALLREDUCE" ? 1.0 : 0.5;
}

/// ASTRA-sim reads compute times and sizes as integers.
long long whole(double value) { return std::llround(value); }

}  // namespace

AstraWorkload readAstraWorkload(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "", "cannot open the file");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);

  AstraWorkload workload;
  std::size_t next = 0;
  const auto nextContent = [&]() -> std::optional<std::size_t> {
    while (next < lines.size() && trim(lines[next]).empty()) ++next;
    if (next == lines.size()) return std::nullopt;
    return next++;
  };
  const auto header = nextContent();
  if (!header) throw InputError(path, 0, "", "the file is empty");
  workload.parallelism = trim(lines[*header]);
  if (workload.parallelism != "DATA")
    throw InputError(path, *header + 1, "parallelism",
                     fmt::format("'{}' is not supported: only DATA (data parallel)", workload.parallelism));
  const auto count_line = nextContent();
  if (!count_line) throw InputError(path, *header + 1, "layers", "the layer count is missing");
  long long count = 0;
  try {
    const double value = parseNumber(trim(lines[*count_line]));
    if (value < 1 || value != std::floor(value)) throw std::invalid_argument("not a count");
    count = static_cast<long long>(value);
  } catch (const std::invalid_argument&) {
    throw InputError(path, *count_line + 1, "layers",
                     fmt::format("'{}' is not a positive layer count", trim(lines[*count_line])));
  }

  while (const auto index = nextContent()) {
    const std::size_t line_number = *index + 1;
    std::istringstream fields(lines[*index]);
    std::vector<std::string> f;
    for (std::string token; fields >> token;) f.push_back(token);
    if (f.size() != 12)
      throw InputError(path, line_number, "", fmt::format("expected 12 columns ({} ... {}), found {}", kColumns[0],
                                                          kColumns[11], f.size()));
    const auto number = [&](std::size_t column) {
      try {
        const double value = parseNumber(f[column]);
        if (value < 0) throw std::invalid_argument("negative");
        return value;
      } catch (const std::invalid_argument&) {
        throw InputError(path, line_number, kColumns[column],
                         fmt::format("'{}' must be a number >= 0", f[column]));
      }
    };
    const auto comm = [&](std::size_t column) {
      if (!knownCommType(f[column]))
        throw InputError(path, line_number, kColumns[column],
                         fmt::format("unknown collective '{}' (NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL)",
                                     f[column]));
      return f[column];
    };
    AstraLayer layer;
    layer.name = f[0];
    layer.forward_compute = number(2);
    layer.forward_comm = comm(3);
    layer.forward_comm_bytes = number(4);
    layer.input_grad_compute = number(5);
    layer.input_grad_comm = comm(6);
    layer.input_grad_comm_bytes = number(7);
    layer.weight_grad_compute = number(8);
    layer.weight_grad_comm = comm(9);
    layer.weight_grad_comm_bytes = number(10);
    layer.update_delay = number(11);
    workload.layers.push_back(layer);
  }
  if (static_cast<long long>(workload.layers.size()) != count)
    throw InputError(path, *count_line + 1, "layers",
                     fmt::format("declares {} layers but the file has {}", count, workload.layers.size()));
  return workload;
}

void writeAstraWorkload(const std::string& path, const AstraWorkload& workload) {
  std::ofstream out(path);
  if (!out) throw InputError(path, 0, "", "cannot write the file");
  out << workload.parallelism << '\n' << workload.layers.size() << '\n';
  for (const auto& l : workload.layers)
    out << l.name << "\t-1\t" << whole(l.forward_compute) << '\t' << l.forward_comm << '\t'
        << whole(l.forward_comm_bytes) << '\t'
        << whole(l.input_grad_compute) << '\t' << l.input_grad_comm << '\t'
        << whole(l.input_grad_comm_bytes) << '\t'
        << whole(l.weight_grad_compute) << '\t' << l.weight_grad_comm << '\t'
        << whole(l.weight_grad_comm_bytes) << '\t'
        << whole(l.update_delay) << '\n';
  if (!out) throw InputError(path, 0, "", "cannot write the file");
}

AstraWorkload astraWorkload(const ModelGraph& model, const GpuSpec& gpu, const JobSpec& job, double compute_unit_s) {
  if (job.batch_per_gpu < 1) throw std::invalid_argument("--batch must be at least 1");
  const auto times = detail::layerTimes(model, gpu, job.batch_per_gpu, job.precision);
  const double optimizer_s = detail::optimizerTime_s(model, gpu, job.precision);
  const double parameters = model.parameters();
  // One ASTRA-sim layer per layer with parameters; parameter-free operators join the layer
  // before them (those before the first join the first).
  AstraWorkload workload;
  double params = 0;
  for (std::size_t i = 0; i < model.layers.size(); ++i) {
    const Layer& layer = model.layers[i];
    if (layer.params > 0 || workload.layers.empty()) {
      if (!workload.layers.empty()) workload.layers.back().weight_grad_comm_bytes = 4 * params;
      AstraLayer next;
      next.name = layer.name;
      workload.layers.push_back(next);
      params = 0;
    }
    AstraLayer& current = workload.layers.back();
    current.forward_compute += times[i].forward_s / compute_unit_s;
    current.input_grad_compute += times[i].backward_s / 2 / compute_unit_s;
    current.weight_grad_compute += times[i].backward_s / 2 / compute_unit_s;
    current.update_delay += optimizer_s * layer.params / parameters / compute_unit_s;
    params += layer.params;
  }
  workload.layers.back().weight_grad_comm_bytes = 4 * params;
  for (auto& layer : workload.layers)
    if (layer.weight_grad_comm_bytes <= 0) layer.weight_grad_comm = "NONE";
  return workload;
}

Characterization characterizeAstra(const AstraWorkload& workload, const GpuSpec& gpu, const JobSpec& job,
                                   const NetworkSpec& network, double compute_unit_s) {
  if (job.num_gpus < 1 || job.servers < 1 || job.servers > job.num_gpus)
    throw std::invalid_argument("--servers must be between 1 and the GPU count");
  Characterization c;
  std::vector<detail::Collective> collectives;
  double blocking_s = 0;
  // Backward pass from the last layer: each weight-gradient collective is ready when its layer is.
  double clock_s = 0;
  for (auto layer = workload.layers.rbegin(); layer != workload.layers.rend(); ++layer) {
    clock_s += (layer->input_grad_compute + layer->weight_grad_compute) * compute_unit_s;
    if (layer->weight_grad_comm != "NONE")
      collectives.push_back({layer->weight_grad_comm_bytes * allReduceShare(layer->weight_grad_comm), clock_s});
    if (layer->weight_grad_comm == "ALLREDUCE") c.grad_bytes += layer->weight_grad_comm_bytes;
    for (const auto& [type, bytes] : {std::pair{layer->forward_comm, layer->forward_comm_bytes},
                                      std::pair{layer->input_grad_comm, layer->input_grad_comm_bytes}})
      if (type != "NONE")
        blocking_s += detail::allReduceTime_s(bytes * allReduceShare(type), job.num_gpus, job.servers, gpu, network);
  }
  for (const auto& layer : workload.layers) {
    c.t_forward_s += layer.forward_compute * compute_unit_s;
    c.t_optimizer_s += layer.update_delay * compute_unit_s;
  }
  c.t_backward_s = clock_s;
  c.t_comp_s = c.t_forward_s + c.t_backward_s + c.t_optimizer_s;
  c.collectives = static_cast<int>(collectives.size());
  c.uses_nic = job.servers > 1;
  if (job.num_gpus > 1) {
    const double n = job.num_gpus;
    c.v_net_bytes = 2 * (n - 1) / n * c.grad_bytes;
    const auto exchange = detail::runCollectives(collectives, c.t_backward_s, job.num_gpus, job.servers, gpu, network);
    c.t_comm_s = exchange.t_comm_s + blocking_s;
    c.t_net_s = exchange.exposed_s + blocking_s;
    c.net_rate_Bps = detail::networkRate_Bps(c.v_net_bytes, c.t_net_s, job.num_gpus);
  }
  // No model description: loading from the start-up and the weights (as large as the gradient).
  c.loading_s = calibration::kStartup_s + c.grad_bytes / calibration::kStorage_Bps;
  return c;
}

}  // namespace mosim
