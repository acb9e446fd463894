#include "characterize/graph_builder.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace mosim {

namespace {

void requirePositive(int value, const char* what) {
  if (value < 1) throw std::invalid_argument(fmt::format("{} must be at least 1, not {}", what, value));
}

std::string describe(const TensorShape& s) {
  return fmt::format("{}x{}x{}", s.channels, s.height, s.width);
}

}  // namespace

int windowOutput(int in, int kernel, int stride, int pad, bool ceil_mode) {
  requirePositive(kernel, "kernel");
  requirePositive(stride, "stride");
  if (pad < 0) throw std::invalid_argument(fmt::format("padding must not be negative, not {}", pad));
  const int span = in + 2 * pad - kernel;
  if (span < 0)
    throw std::invalid_argument(
        fmt::format("a window of {} does not fit an input of {} with padding {}", kernel, in, pad));
  int out = (ceil_mode ? (span + stride - 1) / stride : span / stride) + 1;
  // PyTorch: in ceil mode the last window must start inside the input or the left padding.
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

GraphBuilder::GraphBuilder(ModelGraph& graph, TensorShape input) : graph_(graph) { setShape(input); }

void GraphBuilder::setShape(const TensorShape& shape) {
  if (shape.channels < 1 || shape.height < 1 || shape.width < 1)
    throw std::invalid_argument(fmt::format("tensor shape {} must be positive", describe(shape)));
  shape_ = shape;
}

Layer& GraphBuilder::append(const std::string& name, const std::string& type, OpClass op_class) {
  Layer& layer = graph_.layers.emplace_back();
  layer.name = name;
  layer.type = type;
  layer.op_class = op_class;
  return layer;
}

void GraphBuilder::memoryOp(const std::string& name, const std::string& type, double elems_moved,
                            double flops_per_element, double saved_elems) {
  Layer& layer = append(name, type, OpClass::Memory);
  layer.fwd_elems_moved = elems_moved;
  layer.fwd_flops = flops_per_element * shape_.elements();
  layer.saved_elems = saved_elems;
}

void GraphBuilder::conv2d(const std::string& name, const Conv2dSpec& spec) {
  requirePositive(spec.out_channels, "out_channels");
  requirePositive(spec.groups, "groups");
  if (shape_.channels % spec.groups != 0 || spec.out_channels % spec.groups != 0)
    throw std::invalid_argument(fmt::format("{} input and {} output channels are not divisible into {} groups",
                                            shape_.channels, spec.out_channels, spec.groups));
  const TensorShape in = shape_;
  const TensorShape out{spec.out_channels,
                        windowOutput(in.height, spec.kernel_h, spec.stride_h, spec.pad_h),
                        windowOutput(in.width, spec.kernel_w, spec.stride_w, spec.pad_w)};
  const bool winograd = spec.kernel_h == 3 && spec.kernel_w == 3 && spec.stride_h == 1 &&
                        spec.stride_w == 1 && spec.groups == 1;
  Layer& layer = append(name, in.height == 1 && spec.kernel_h == 1 ? "conv1d" : "conv2d",
                        winograd ? OpClass::ConvWinograd : OpClass::Conv);
  const double fan_in = static_cast<double>(in.channels / spec.groups) * spec.kernel_h * spec.kernel_w;
  layer.params = spec.out_channels * fan_in + (spec.bias ? spec.out_channels : 0);
  layer.param_tensors = spec.bias ? 2 : 1;
  layer.fwd_macs = out.elements() * fan_in;
  layer.fwd_flops = 2 * layer.fwd_macs;
  layer.fwd_elems_moved = in.elements() + out.elements();
  layer.saved_elems = out.elements();
  shape_ = out;
}

void GraphBuilder::conv2d(const std::string& name, int out, int k, int s, int p, bool bias) {
  conv2d(name, Conv2dSpec{out, k, k, s, s, p, p, 1, bias});
}

void GraphBuilder::conv1d(const std::string& name, int out, int k, int s, int p, bool bias,
                          int groups) {
  if (shape_.height != 1)
    throw std::invalid_argument(fmt::format("conv1d needs a 1-D input (height 1), not {}", describe(shape_)));
  conv2d(name, Conv2dSpec{out, 1, k, 1, s, 0, p, groups, bias});
}

void GraphBuilder::linear(const std::string& name, int out, bool bias) {
  requirePositive(out, "out_features");
  const TensorShape in = shape_;
  const TensorShape result{out, in.height, in.width};
  Layer& layer = append(name, "linear", OpClass::Gemm);
  layer.params = static_cast<double>(in.channels) * out + (bias ? out : 0);
  layer.param_tensors = bias ? 2 : 1;
  layer.fwd_macs = in.positions() * static_cast<double>(in.channels) * out;
  layer.fwd_flops = 2 * layer.fwd_macs;
  layer.fwd_elems_moved = in.elements() + result.elements();
  layer.saved_elems = result.elements();
  shape_ = result;
}

void GraphBuilder::tiedLinear(const std::string& name, int out) {
  linear(name, out, false);
  graph_.layers.back().params = 0;
  graph_.layers.back().param_tensors = 0;
}

void GraphBuilder::batchnorm(const std::string& name) {
  // Training-mode batch norm reads the input twice (statistics, then normalisation) and writes it.
  memoryOp(name, "batchnorm", 3 * shape_.elements(), 8, shape_.elements());
  graph_.layers.back().params = 2.0 * shape_.channels;
  graph_.layers.back().param_tensors = 2;
}

void GraphBuilder::layernorm(const std::string& name) {
  memoryOp(name, "layernorm", 3 * shape_.elements(), 8, shape_.elements());
  graph_.layers.back().params = 2.0 * shape_.channels;
  graph_.layers.back().param_tensors = 2;
}

void GraphBuilder::groupnorm(const std::string& name, int groups) {
  requirePositive(groups, "groups");
  if (shape_.channels % groups != 0)
    throw std::invalid_argument(fmt::format("{} channels are not divisible into {} groups", shape_.channels, groups));
  memoryOp(name, "groupnorm", 3 * shape_.elements(), 8, shape_.elements());
  graph_.layers.back().params = 2.0 * shape_.channels;
  graph_.layers.back().param_tensors = 2;
}

void GraphBuilder::embedding(const std::string& name, int vocabulary, int dim, int tokens) {
  requirePositive(vocabulary, "vocabulary");
  requirePositive(dim, "dim");
  requirePositive(tokens, "tokens");
  shape_ = TensorShape{dim, 1, tokens};
  memoryOp(name, "embedding", 2 * shape_.elements(), 0, 0);  // gather rows, write them
  graph_.layers.back().params = static_cast<double>(vocabulary) * dim;
  graph_.layers.back().param_tensors = 1;
}

void GraphBuilder::positionEmbedding(const std::string& name, int max_positions) {
  requirePositive(max_positions, "max_positions");
  if (shape_.height != 1 || shape_.width > max_positions)
    throw std::invalid_argument(fmt::format("a sequence of {} positions exceeds the {} learned positions",
                                            shape_.width, max_positions));
  addedTable(name, max_positions);
  graph_.layers.back().type = "position_embedding";
}

void GraphBuilder::addedTable(const std::string& name, int rows) {
  requirePositive(rows, "rows");
  memoryOp(name, "added_table", 3 * shape_.elements(), 1, 0);  // read both, write the sum
  graph_.layers.back().params = static_cast<double>(rows) * shape_.channels;
  graph_.layers.back().param_tensors = 1;
}

void GraphBuilder::frozenTable(const std::string& name, double elements) {
  // Read and added to the sequence like a learned table, but never trained: counted in the
  // model's total (as published totals do), not in its gradient.
  memoryOp(name, "frozen_table", 3 * shape_.elements(), 1, 0);
  graph_.layers.back().frozen_params = elements;
}

void GraphBuilder::attention(const std::string& name, int heads, int kv_length) {
  requirePositive(heads, "heads");
  requirePositive(kv_length, "kv_length");
  if (shape_.height != 1 || shape_.channels % heads != 0)
    throw std::invalid_argument(fmt::format("attention needs a sequence whose {} features divide into {} heads",
                                            shape_.channels, heads));
  const double q = static_cast<double>(shape_.width);
  const double kv = static_cast<double>(kv_length);
  const double d = static_cast<double>(shape_.channels);
  const double scores = static_cast<double>(heads) * q * kv;

  Layer& qk = append(name + ".scores", "attention_scores", OpClass::Gemm);
  qk.fwd_macs = q * kv * d;  // heads x q x kv x (d / heads)
  qk.fwd_flops = 2 * qk.fwd_macs;
  qk.fwd_elems_moved = q * d + kv * d + scores;
  // Scale, mask, softmax and dropout over the score matrix; the probabilities are kept.
  Layer& softmax = append(name + ".softmax", "attention_softmax", OpClass::Memory);
  softmax.fwd_flops = 5 * scores;
  softmax.fwd_elems_moved = 3 * scores;
  softmax.saved_elems = scores;
  Layer& context = append(name + ".context", "attention_context", OpClass::Gemm);
  context.fwd_macs = q * kv * d;
  context.fwd_flops = 2 * context.fwd_macs;
  context.fwd_elems_moved = scores + kv * d + q * d;
  context.saved_elems = q * d;
}

void GraphBuilder::activation(const std::string& name, const std::string& type) {
  // In place (or fused into the producer's epilogue for saving purposes): read and write once.
  memoryOp(name, type, 2 * shape_.elements(), type == "gelu" ? 8 : 1, 0);
}

void GraphBuilder::pool(const std::string& name, const std::string& type, const PoolSpec& spec) {
  // Square windows on images; on 1-D tensors (height 1) the window slides along the width only.
  const TensorShape in = shape_;
  const bool one_d = in.height == 1;
  shape_ = TensorShape{in.channels,
                       one_d ? 1 : windowOutput(in.height, spec.kernel, spec.stride, spec.pad, spec.ceil_mode),
                       windowOutput(in.width, spec.kernel, spec.stride, spec.pad, spec.ceil_mode)};
  const double window = static_cast<double>(one_d ? spec.kernel : spec.kernel * spec.kernel);
  memoryOp(name, type, in.elements() + shape_.elements(), window, shape_.elements());
}

void GraphBuilder::maxpool(const std::string& name, const PoolSpec& spec) { pool(name, "maxpool", spec); }
void GraphBuilder::avgpool(const std::string& name, const PoolSpec& spec) { pool(name, "avgpool", spec); }

void GraphBuilder::globalAvgPool(const std::string& name) {
  const double in = shape_.elements();
  shape_ = TensorShape{shape_.channels, 1, 1};
  memoryOp(name, "global_avgpool", in + shape_.elements(), 1, shape_.elements());
}

void GraphBuilder::flatten() { shape_ = TensorShape{static_cast<int>(shape_.elements()), 1, 1}; }

void GraphBuilder::add(const std::string& name) {
  memoryOp(name, "add", 3 * shape_.elements(), 1, 0);
}

void GraphBuilder::concat(const std::string& name, const std::vector<TensorShape>& parts) {
  if (parts.empty()) throw std::invalid_argument("concat needs at least one input");
  int channels = 0;
  for (const auto& part : parts) {
    if (part.height != parts.front().height || part.width != parts.front().width)
      throw std::invalid_argument(fmt::format("concat inputs {} and {} differ in height or width",
                                              describe(parts.front()), describe(part)));
    channels += part.channels;
  }
  shape_ = TensorShape{channels, parts.front().height, parts.front().width};
  memoryOp(name, "concat", 2 * shape_.elements(), 0, 0);  // a copy; kept as views for backward
}

void GraphBuilder::dropout(const std::string& name) {
  memoryOp(name, "dropout", 2 * shape_.elements(), 2, 0);
}

void GraphBuilder::lrn(const std::string& name) {
  memoryOp(name, "lrn", 2 * shape_.elements(), 10, shape_.elements());
}

void GraphBuilder::softmaxLoss(const std::string& name) {
  memoryOp(name, "softmax_loss", 3 * shape_.elements(), 5, shape_.elements());
}

void GraphBuilder::padChannels(const std::string& name, int channels) {
  if (channels < shape_.channels)
    throw std::invalid_argument(fmt::format("cannot pad {} channels down to {}", shape_.channels, channels));
  const double in = shape_.elements();
  shape_.channels = channels;
  memoryOp(name, "pad", in + shape_.elements(), 0, 0);
}

void GraphBuilder::cropWidth(int width) {
  if (width < 1 || width > shape_.width)
    throw std::invalid_argument(fmt::format("cannot crop a width of {} to {}", shape_.width, width));
  shape_.width = width;
}

void transformerLayer(GraphBuilder& b, const std::string& prefix, const TransformerLayerSpec& spec) {
  const TensorShape x = b.shape();
  if (x.channels != spec.d_model || x.height != 1)
    throw std::invalid_argument(fmt::format("a transformer layer of width {} needs a sequence of {} features, not {}x{}x{}",
                                            spec.d_model, spec.d_model, x.channels, x.height, x.width));
  const int d = spec.d_model;
  const auto attention_block = [&](const std::string& name, int kv_length) {
    const TensorShape queries = b.shape();
    if (spec.fused_qkv) {
      b.linear(name + ".qkv", 3 * d);
    } else {
      b.linear(name + ".q", d);
      b.setShape(kv_length == queries.width ? queries : TensorShape{d, 1, kv_length});
      b.linear(name + ".k", d, spec.key_bias);
      b.setShape(kv_length == queries.width ? queries : TensorShape{d, 1, kv_length});
      b.linear(name + ".v", d);
    }
    b.setShape(queries);
    b.attention(name, spec.heads, kv_length);
    b.linear(name + ".out", d);
    b.dropout(name + ".dropout");
    b.add(name + ".residual");
  };
  const auto norm = [&](const std::string& name) { b.layernorm(name); };

  if (spec.pre_norm) norm(prefix + ".attn_norm");
  attention_block(prefix + ".self_attn", x.width);
  if (!spec.pre_norm) norm(prefix + ".attn_norm");
  if (spec.cross_kv_length > 0) {
    if (spec.pre_norm) norm(prefix + ".cross_norm");
    attention_block(prefix + ".cross_attn", spec.cross_kv_length);
    if (!spec.pre_norm) norm(prefix + ".cross_norm");
  }
  if (spec.pre_norm) norm(prefix + ".ffn_norm");
  b.linear(prefix + ".ffn.in", spec.ffn);
  b.activation(prefix + ".ffn.act", spec.activation);
  b.linear(prefix + ".ffn.out", d);
  b.dropout(prefix + ".ffn.dropout");
  b.add(prefix + ".ffn.residual");
  if (!spec.pre_norm) norm(prefix + ".ffn_norm");
}

}  // namespace mosim
