// Builds a ModelGraph layer by layer while tracking the tensor shape, so that every operator's
// parameters and work follow from the shapes (never from typed-in totals). Used by the built-in
// pool and by the YAML reader. Shape errors throw std::invalid_argument; the YAML reader turns
// them into InputErrors naming the file and field.
#pragma once

#include <string>
#include <vector>

#include "mosim/model_graph.hpp"

namespace mosim {

struct Conv2dSpec {
  int out_channels = 0;
  int kernel_h = 1, kernel_w = 1;
  int stride_h = 1, stride_w = 1;
  int pad_h = 0, pad_w = 0;
  int groups = 1;
  bool bias = false;
};

struct PoolSpec {
  int kernel = 2;
  int stride = 2;
  int pad = 0;
  bool ceil_mode = false;  // PyTorch's ceil_mode (a window may start in the padding, not past it)
};

class GraphBuilder {
 public:
  GraphBuilder(ModelGraph& graph, TensorShape input);

  const TensorShape& shape() const { return shape_; }
  /// Moves to another tensor, e.g. back to a block's input to build a parallel branch.
  void setShape(const TensorShape& shape);

  // Operators with parameters. The output replaces the current shape.
  void conv2d(const std::string& name, const Conv2dSpec& spec);
  /// A square convolution: k x k, stride s, padding p.
  void conv2d(const std::string& name, int out, int k, int s, int p, bool bias);
  void conv1d(const std::string& name, int out, int k, int s, int p, bool bias, int groups = 1);
  /// Per-position linear layer on the channel (feature) dimension.
  void linear(const std::string& name, int out, bool bias = true);
  /// A linear layer whose weight is another layer's (GPT-2's and Whisper's LM head shares the
  /// token embedding): its work counts, its parameters do not.
  void tiedLinear(const std::string& name, int out);
  void batchnorm(const std::string& name);
  void layernorm(const std::string& name);
  void groupnorm(const std::string& name, int groups);
  /// A token lookup: `tokens` positions of `dim` features. Starts a new sequence tensor.
  void embedding(const std::string& name, int vocabulary, int dim, int tokens);
  /// Learned positional embedding added to the current sequence (max_positions x features).
  void positionEmbedding(const std::string& name, int max_positions);
  /// A learned table of `rows` x features added to the sequence (BERT's token types, 2 rows).
  void addedTable(const std::string& name, int rows);
  /// A frozen (non-trainable) table, e.g. sinusoidal positions: counted as parameters of the
  /// model but not in the gradient.
  void frozenTable(const std::string& name, double elements);

  // Attention core (scores, softmax, context) for `heads` heads; the current shape holds the
  // queries (features x 1 x query length); keys and values have `kv_length` positions.
  void attention(const std::string& name, int heads, int kv_length);

  // Parameter-free operators.
  void activation(const std::string& name, const std::string& type = "relu");
  void maxpool(const std::string& name, const PoolSpec& spec);
  void avgpool(const std::string& name, const PoolSpec& spec);
  void globalAvgPool(const std::string& name);
  void flatten();
  void add(const std::string& name);  ///< residual sum of two tensors of the current shape
  /// Concatenation of branch outputs along channels; all must share height and width.
  void concat(const std::string& name, const std::vector<TensorShape>& parts);
  void dropout(const std::string& name);
  void lrn(const std::string& name);
  /// Softmax cross-entropy over the current tensor's channels (classes or vocabulary) per position.
  void softmaxLoss(const std::string& name);
  /// Zero-pads channels (the option-A shortcut of CIFAR ResNets), no parameters.
  void padChannels(const std::string& name, int channels);
  /// Keeps the first `width` positions (e.g. the frame wav2vec2's positional conv drops).
  void cropWidth(int width);

 private:
  ModelGraph& graph_;
  TensorShape shape_;

  Layer& append(const std::string& name, const std::string& type, OpClass op_class);
  void memoryOp(const std::string& name, const std::string& type, double elems_moved,
                double flops_per_element, double saved_elems);
  void pool(const std::string& name, const std::string& type, const PoolSpec& spec);
};

/// Output length of a convolution or pooling window: floor((in + 2 pad - kernel) / stride) + 1,
/// or PyTorch's ceil mode. Throws std::invalid_argument when the window does not fit.
int windowOutput(int in, int kernel, int stride, int pad, bool ceil_mode = false);

/// A transformer layer (attention + feed-forward) on the current sequence tensor.
struct TransformerLayerSpec {
  int d_model = 768;
  int heads = 12;
  int ffn = 3072;
  bool pre_norm = false;      ///< LayerNorm before each sub-block (GPT-2, Whisper) or after (BERT)
  bool fused_qkv = false;     ///< one d -> 3d projection (GPT-2's c_attn) instead of three
  bool key_bias = true;       ///< Whisper's k_proj has no bias
  int cross_kv_length = 0;   ///< > 0: a cross-attention sub-block on that many encoder positions
  std::string activation = "gelu";
};
void transformerLayer(GraphBuilder& b, const std::string& prefix, const TransformerLayerSpec& spec);

}  // namespace mosim
