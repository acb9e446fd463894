// User models from YAML. Schema (see tests/data/characterize/ for complete files):
//
//   models:
//     - name: tinycnn                  # required, the name `--model` and traces use
//       description: a toy CNN         # optional
//       framework: pytorch             # pytorch (DDP buckets, overlapped; default) or tensorflow
//       optimizer: sgd                 # sgd (with momentum; default) or adam
//       batch: 32                      # default per-GPU batch (required)
//       input: [3, 32, 32]             # channels, height, width; a sequence: [features, 1, length]
//       layers:                        # in forward order; each takes the previous one's output
//         - {type: conv2d, out: 16, kernel: 3, padding: 1, in: 3}   # `in` is optional, checked
//         - {type: batchnorm}
//         - {type: relu}
//         - {type: maxpool, kernel: 2}
//         - {type: flatten}
//         - {type: linear, out: 10}
//         - {type: softmax_loss}
//
// Layer types and their fields (defaults in brackets):
//   conv2d, conv1d   out, kernel, stride [1], padding [0], groups [1], bias [false], in [checked]
//   linear           out, bias [true], in [checked]
//   batchnorm, layernorm, lrn, dropout, add, relu, gelu, flatten, global_avgpool, softmax_loss
//   groupnorm        groups
//   maxpool, avgpool kernel, stride [kernel], padding [0], ceil_mode [false]
//   embedding        vocab, dim, tokens [the input's length]
//   position_embedding  max_positions
//   attention        heads, kv_length [the sequence's length]   (scores, softmax, context)
// Compact blocks:
//   repeat           times, layers: [...]                 the layers, `times` times in a row
//   residual         layers: [...], shortcut: [...] ([])  branch output + shortcut output
//   transformer      layers, d_model, heads, ffn, norm [post|pre], fused_qkv [false],
//                    cross_length [0: no cross-attention]
// Any inconsistency (an `in` that is not the incoming width, a window larger than its input, a
// residual whose branches differ in shape, an unknown type or field value) is an InputError that
// names the file, line and field, e.g. "models[0].layers[3].in".
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "characterize/graph_builder.hpp"
#include "characterize/yaml_fields.hpp"
#include "mosim/model_graph.hpp"

namespace mosim {

namespace {

using yaml::Field;

int intOr(const Field& layer, const char* key, int fallback) {
  return layer.has(key) ? layer.at(key).positiveInteger() : fallback;
}

int nonNegativeOr(const Field& layer, const char* key, int fallback) {
  if (!layer.has(key)) return fallback;
  const Field field = layer.at(key);
  if (field.text() == "0") return 0;
  return field.positiveInteger();
}

bool boolOr(const Field& layer, const char* key, bool fallback) {
  return layer.has(key) ? layer.at(key).boolean() : fallback;
}

void checkIn(const Field& layer, int actual) {
  if (!layer.has("in")) return;
  const Field in = layer.at("in");
  if (in.positiveInteger() != actual)
    in.fail(fmt::format("{} does not match the {} channels the previous layer produces", in.text(), actual));
}

class YamlModelBuilder {
 public:
  explicit YamlModelBuilder(GraphBuilder& builder) : b_(builder) {}

  void layers(const Field& list, const std::string& prefix) {
    if (!list.node.IsSequence() || list.node.size() == 0) list.fail("expected a non-empty list of layers");
    for (std::size_t i = 0; i < list.node.size(); ++i) layer(list.at(i), fmt::format("{}{}", prefix, i));
  }

 private:
  GraphBuilder& b_;

  void layer(const Field& f, const std::string& name) {
    const std::string type = f.at("type").text();
    try {
      build(f, type, name);
    } catch (const std::invalid_argument& e) {
      f.fail(fmt::format("{} layer: {}", type, e.what()));
    }
  }

  void build(const Field& f, const std::string& type, const std::string& name) {
    if (type == "conv2d" || type == "conv1d") {
      checkIn(f, b_.shape().channels);
      const int kernel = f.at("kernel").positiveInteger();
      const int stride = intOr(f, "stride", 1);
      const int padding = nonNegativeOr(f, "padding", 0);
      const int groups = intOr(f, "groups", 1);
      const int out = f.at("out").positiveInteger();
      if (type == "conv1d")
        b_.conv1d(name, out, kernel, stride, padding, boolOr(f, "bias", false), groups);
      else
        b_.conv2d(name, Conv2dSpec{out, kernel, kernel, stride, stride, padding, padding, groups, boolOr(f, "bias", false)});
    } else if (type == "linear") {
      checkIn(f, b_.shape().channels);
      b_.linear(name, f.at("out").positiveInteger(), boolOr(f, "bias", true));
    } else if (type == "batchnorm") {
      b_.batchnorm(name);
    } else if (type == "layernorm") {
      b_.layernorm(name);
    } else if (type == "groupnorm") {
      b_.groupnorm(name, f.at("groups").positiveInteger());
    } else if (type == "relu" || type == "gelu") {
      b_.activation(name, type);
    } else if (type == "maxpool" || type == "avgpool") {
      const int kernel = f.at("kernel").positiveInteger();
      const PoolSpec spec{kernel, intOr(f, "stride", kernel), nonNegativeOr(f, "padding", 0),
                          boolOr(f, "ceil_mode", false)};
      type == "maxpool" ? b_.maxpool(name, spec) : b_.avgpool(name, spec);
    } else if (type == "global_avgpool") {
      b_.globalAvgPool(name);
    } else if (type == "flatten") {
      b_.flatten();
    } else if (type == "dropout") {
      b_.dropout(name);
    } else if (type == "lrn") {
      b_.lrn(name);
    } else if (type == "add") {
      b_.add(name);
    } else if (type == "softmax_loss") {
      b_.softmaxLoss(name);
    } else if (type == "embedding") {
      b_.embedding(name, f.at("vocab").positiveInteger(), f.at("dim").positiveInteger(),
                   intOr(f, "tokens", b_.shape().width));
    } else if (type == "position_embedding") {
      b_.positionEmbedding(name, f.at("max_positions").positiveInteger());
    } else if (type == "attention") {
      b_.attention(name, f.at("heads").positiveInteger(), intOr(f, "kv_length", b_.shape().width));
    } else if (type == "repeat") {
      const int times = f.at("times").positiveInteger();
      for (int t = 0; t < times; ++t) layers(f.at("layers"), fmt::format("{}.{}.", name, t));
    } else if (type == "residual") {
      const TensorShape input = b_.shape();
      layers(f.at("layers"), name + ".branch.");
      const TensorShape branch = b_.shape();
      b_.setShape(input);
      if (f.has("shortcut")) layers(f.at("shortcut"), name + ".shortcut.");
      const TensorShape shortcut = b_.shape();
      if (branch.channels != shortcut.channels || branch.height != shortcut.height || branch.width != shortcut.width)
        f.fail(fmt::format("the branch gives {}x{}x{} but the shortcut {}x{}x{}", branch.channels, branch.height,
                           branch.width, shortcut.channels, shortcut.height, shortcut.width));
      b_.setShape(branch);
      b_.add(name + ".add");
    } else if (type == "transformer") {
      TransformerLayerSpec spec;
      spec.d_model = f.at("d_model").positiveInteger();
      spec.heads = f.at("heads").positiveInteger();
      spec.ffn = f.at("ffn").positiveInteger();
      const std::string norm = f.has("norm") ? f.at("norm").text() : "post";
      if (norm != "post" && norm != "pre") f.at("norm").fail(fmt::format("'{}' must be post or pre", norm));
      spec.pre_norm = norm == "pre";
      spec.fused_qkv = boolOr(f, "fused_qkv", false);
      spec.cross_kv_length = nonNegativeOr(f, "cross_length", 0);
      if (spec.d_model % spec.heads != 0)
        f.at("heads").fail(fmt::format("{} heads do not divide d_model {}", spec.heads, spec.d_model));
      if (b_.shape().channels != spec.d_model)
        f.at("d_model").fail(fmt::format("{} does not match the {} features the previous layer produces",
                                         spec.d_model, b_.shape().channels));
      const int count = f.at("layers").positiveInteger();
      for (int i = 0; i < count; ++i) transformerLayer(b_, fmt::format("{}.{}", name, i), spec);
    } else {
      f.at("type").fail(fmt::format("unknown layer type '{}'", type));
    }
  }
};

TensorShape readInput(const Field& f) {
  if (!f.node.IsSequence() || f.node.size() < 1 || f.node.size() > 3)
    f.fail("expected [channels, height, width] (or [channels] or [channels, length])");
  std::vector<int> dims;
  for (std::size_t i = 0; i < f.node.size(); ++i) dims.push_back(f.at(i).positiveInteger());
  if (dims.size() == 1) return {dims[0], 1, 1};
  if (dims.size() == 2) return {dims[0], 1, dims[1]};
  return {dims[0], dims[1], dims[2]};
}

}  // namespace

std::vector<ModelGraph> readModelsYaml(const std::string& path) {
  const Field root{path, yaml::loadFile(path), ""};
  const Field list = root.at("models");
  if (!list.node.IsSequence() || list.node.size() == 0) list.fail("expected a list of models");
  std::vector<ModelGraph> models;
  for (std::size_t i = 0; i < list.node.size(); ++i) {
    const Field entry = list.at(i);
    ModelGraph graph;
    graph.name = entry.at("name").text();
    if (graph.name.empty()) entry.at("name").fail("must not be empty");
    graph.description = entry.has("description") ? entry.at("description").text() : graph.name;
    if (entry.has("framework")) {
      const std::string framework = entry.at("framework").text();
      if (framework != "pytorch" && framework != "tensorflow")
        entry.at("framework").fail(fmt::format("'{}' must be pytorch or tensorflow", framework));
      graph.framework = framework == "tensorflow" ? Framework::TensorFlow : Framework::PyTorch;
    }
    if (entry.has("optimizer")) {
      const std::string optimizer = entry.at("optimizer").text();
      if (optimizer != "sgd" && optimizer != "adam")
        entry.at("optimizer").fail(fmt::format("'{}' must be sgd or adam", optimizer));
      graph.optimizer = optimizer == "adam" ? Optimizer::Adam : Optimizer::SgdMomentum;
    }
    graph.default_batch = entry.at("batch").positiveInteger();
    const TensorShape input = readInput(entry.at("input"));
    GraphBuilder builder(graph, input);
    YamlModelBuilder(builder).layers(entry.at("layers"), "layer");
    if (graph.parameters() <= 0) entry.at("layers").fail("the model has no trainable parameters");
    models.push_back(std::move(graph));
  }
  return models;
}

}  // namespace mosim
