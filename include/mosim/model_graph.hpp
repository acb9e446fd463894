// Model descriptions for GPU-free characterization: a network as a list of operators (layer type,
// shapes, parameters, work per sample), built from architectural parameters, never from typed-in
// totals. The compute and network models of characterize.hpp read nothing else.
#pragma once

#include <string>
#include <vector>

namespace mosim {

/// Which peak and which efficiency parameter an operator's time is measured against.
enum class OpClass {
  Conv,          ///< convolution as implicit GEMM (1x1, strided, 5x5, 7x7, grouped, 1-D)
  ConvWinograd,  ///< 3x3 stride-1 convolution: cuDNN's Winograd path in FP32
  Gemm,          ///< dense matrix products: linear layers, attention scores and context
  Memory,        ///< bandwidth-bound: normalisation, activations, pooling, softmax, adds, gathers
};

/// How the training framework exchanges gradients (see network_model.cpp):
/// TensorFlow (tf_cnn_benchmarks' replicated all-reduce): one collective per gradient tensor,
/// issued after the backward pass. PyTorch DDP: 25 MB buckets, overlapped with the backward pass.
enum class Framework { TensorFlow, PyTorch };

/// The optimizer, for its state (memory) and its per-parameter update traffic.
enum class Optimizer { SgdMomentum, Adam };

/// One operator of the forward pass. Work is per sample; the backward pass is derived from it.
struct Layer {
  std::string name;  ///< e.g. "layer3.2.conv1"
  std::string type;  ///< e.g. "conv2d", "linear", "batchnorm", "attention_scores"
  OpClass op_class = OpClass::Memory;
  double params = 0;           ///< trainable parameters
  double frozen_params = 0;    ///< parameters never trained (e.g. sinusoidal position tables)
  int param_tensors = 0;       ///< gradient tensors (weight, bias, scale, ...)
  double fwd_macs = 0;         ///< multiply-accumulates per sample (conv, linear, matmul)
  double fwd_flops = 0;        ///< floating-point operations per sample (2 x MACs, or elementwise)
  double fwd_elems_moved = 0;  ///< activation elements read plus written per sample
  double saved_elems = 0;      ///< activation elements kept for the backward pass, per sample
};

/// A model plus what the artifact's workload did with it: framework, optimizer, per-GPU batch.
struct ModelGraph {
  std::string name;         ///< the pool's name, e.g. "resnet50"
  std::string description;  ///< e.g. "ResNet-50 (torchvision), ImageNet 3x224x224"
  Framework framework = Framework::PyTorch;
  Optimizer optimizer = Optimizer::SgdMomentum;
  int default_batch = 0;  ///< per GPU
  std::vector<Layer> layers;  ///< in forward order

  double parameters() const;       ///< trainable: the gradient has this many elements
  double totalParameters() const;  ///< trainable + frozen, as published totals count them
  int gradientTensors() const;
  double forwardMacs() const;   ///< per sample
  double forwardFlops() const;  ///< per sample
  double savedElements() const;  ///< per sample
};

/// Shape of the tensor flowing between layers: channels (or features) x height x width. Images
/// use all three; 1-D signals and token sequences have height 1 and width = length.
struct TensorShape {
  int channels = 0;
  int height = 1;
  int width = 1;
  double elements() const { return static_cast<double>(channels) * height * width; }
  /// Positions a per-position operator (linear, norm) applies to: height x width.
  double positions() const { return static_cast<double>(height) * width; }
};

/// The built-in pool: alexnet, resnet44, resnet110, densenet40_k12, densenet100_k12, resnet50,
/// vgg16, googlenet, inception3, bert, gpt2, whisper, wav2vec2 (artifact names), built from their
/// architectures with the artifact's per-GPU batch sizes. Inception-v3 is built without its
/// auxiliary head unless `inception_aux` (the head adds 3,326,696 parameters).
std::vector<ModelGraph> builtinModels();
ModelGraph buildInception3(bool with_aux_head);

/// Models from a YAML file (schema: docs in model_yaml.cpp and experiments/characterization).
/// Inconsistent shapes, unknown layer types or bad numbers are InputErrors naming file and field.
std::vector<ModelGraph> readModelsYaml(const std::string& path);

const char* frameworkName(Framework framework);
const char* opClassName(OpClass op_class);

}  // namespace mosim
