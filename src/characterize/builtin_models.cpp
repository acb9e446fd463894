// The built-in model pool, built from each architecture's definition (sources beside each
// builder). Parameter counts and MACs are what the shapes give; tests/unit/test_characterize_models
// checks them against published figures (facts.md).
//
// The CNNs are what the artifact trained with tensorflow/benchmarks' tf_cnn_benchmarks (SGD with
// momentum, one all-reduce per gradient tensor); the ImageNet ones use torchvision's layer
// definitions, whose published parameter and MAC counts are the reference. The transformers are
// Hugging Face models trained with PyTorch DDP and AdamW. Batch sizes are the artifact's per-GPU
// batches (its network-summary file's global batch / workers).
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "characterize/graph_builder.hpp"
#include "mosim/characterize.hpp"
#include "mosim/model_graph.hpp"

namespace mosim {

namespace {

ModelGraph newGraph(const std::string& name, const std::string& description, Framework framework,
                    Optimizer optimizer, int batch) {
  ModelGraph graph;
  graph.name = name;
  graph.description = description;
  graph.framework = framework;
  graph.optimizer = optimizer;
  graph.default_batch = batch;
  return graph;
}

// torchvision's BasicConv2d (GoogLeNet, Inception-v3): convolution without bias, batch norm, ReLU.
void basicConv(GraphBuilder& b, const std::string& name, const Conv2dSpec& spec) {
  b.conv2d(name + ".conv", spec);
  b.batchnorm(name + ".bn");
  b.activation(name + ".relu");
}

void basicConv(GraphBuilder& b, const std::string& name, int out, int k, int s = 1, int p = 0) {
  basicConv(b, name, Conv2dSpec{out, k, k, s, s, p, p, 1, false});
}

// Builds parallel branches from the current tensor and concatenates their outputs.
void branches(GraphBuilder& b, const std::string& name,
              const std::vector<std::function<void(const std::string&)>>& build) {
  const TensorShape input = b.shape();
  std::vector<TensorShape> outputs;
  for (std::size_t i = 0; i < build.size(); ++i) {
    b.setShape(input);
    build[i](fmt::format("{}.branch{}", name, i + 1));
    outputs.push_back(b.shape());
  }
  b.concat(name + ".concat", outputs);
}

// --- tf_cnn_benchmarks CIFAR-10 models (3x32x32 images, 10 classes) ----------------------------

// models/alexnet_model.py, AlexnetCifar10Model: conv5x5.64 -> pool -> lrn -> conv5x5.64 -> lrn ->
// pool -> fc384 -> fc192 -> fc10; 'SAME' 3x3/2 pools (32 -> 16 -> 8).
ModelGraph alexnet() {
  ModelGraph g = newGraph("alexnet", "AlexNet, CIFAR-10 variant of tf_cnn_benchmarks, 3x32x32",
                          Framework::TensorFlow, Optimizer::SgdMomentum, 4096);
  GraphBuilder b(g, {3, 32, 32});
  b.conv2d("conv1", 64, 5, 1, 2, true);
  b.activation("relu1");
  b.maxpool("pool1", {3, 2, 1});
  b.lrn("lrn1");
  b.conv2d("conv2", 64, 5, 1, 2, true);
  b.activation("relu2");
  b.lrn("lrn2");
  b.maxpool("pool2", {3, 2, 1});
  b.flatten();
  b.linear("fc3", 384);
  b.activation("relu3");
  b.linear("fc4", 192);
  b.activation("relu4");
  b.linear("fc5", 10);
  b.softmaxLoss("loss");
  return g;
}

// models/resnet_model.py, ResnetCifar10Model (version v2, pre-activation): 3 stages of n basic
// blocks with 16/32/64 channels, depth = 6n + 2; the shortcut of a downsampling block is a 2x2
// average pool zero-padded to the new width (no parameters).
ModelGraph cifarResnet(int depth, int batch) {
  const int blocks = (depth - 2) / 6;
  ModelGraph g = newGraph(fmt::format("resnet{}", depth),
                          fmt::format("ResNet-{} (CIFAR-10, tf_cnn_benchmarks v2), 3x32x32", depth),
                          Framework::TensorFlow, Optimizer::SgdMomentum, batch);
  GraphBuilder b(g, {3, 32, 32});
  b.conv2d("conv1", 16, 3, 1, 1, false);
  const int widths[] = {16, 32, 64};
  for (int stage = 0; stage < 3; ++stage) {
    for (int block = 0; block < blocks; ++block) {
      const std::string name = fmt::format("stage{}.block{}", stage + 1, block);
      const TensorShape input = b.shape();
      const int stride = stage > 0 && block == 0 ? 2 : 1;
      b.batchnorm(name + ".bn1");
      b.activation(name + ".relu1");
      b.conv2d(name + ".conv1", widths[stage], 3, stride, 1, false);
      b.batchnorm(name + ".bn2");
      b.activation(name + ".relu2");
      b.conv2d(name + ".conv2", widths[stage], 3, 1, 1, false);
      const TensorShape output = b.shape();
      if (stride != 1) {
        b.setShape(input);
        b.avgpool(name + ".shortcut_pool", {2, 2, 0});
        b.padChannels(name + ".shortcut_pad", widths[stage]);
      }
      b.setShape(output);
      b.add(name + ".add");
    }
  }
  b.batchnorm("bn_final");
  b.activation("relu_final");
  b.globalAvgPool("pool");
  b.flatten();
  b.linear("fc", 10);
  b.softmaxLoss("loss");
  return g;
}

// models/densenet_model.py: conv3x3.16, three dense blocks of `layers` (BN-ReLU-conv3x3.k, concat),
// transitions BN-ReLU-conv1x1 (same width: no compression) and 2x2 average pool, final BN-ReLU,
// global pool, fc10. Convolutions carry biases (tf_cnn's conv without batch norm).
ModelGraph cifarDensenet(int depth, int batch) {
  const int layers = (depth - 4) / 3;
  const int growth = 12;
  ModelGraph g = newGraph(fmt::format("densenet{}_k12", depth),
                          fmt::format("DenseNet-{} (k=12, CIFAR-10, tf_cnn_benchmarks, no compression), 3x32x32", depth),
                          Framework::TensorFlow, Optimizer::SgdMomentum, batch);
  GraphBuilder b(g, {3, 32, 32});
  b.conv2d("conv1", 16, 3, 1, 1, true);
  for (int block = 0; block < 3; ++block) {
    for (int layer = 0; layer < layers; ++layer) {
      const std::string name = fmt::format("block{}.layer{}", block + 1, layer);
      const TensorShape input = b.shape();
      b.batchnorm(name + ".bn");
      b.activation(name + ".relu");
      b.conv2d(name + ".conv", growth, 3, 1, 1, true);
      b.concat(name + ".concat", {input, b.shape()});
    }
    if (block < 2) {
      const std::string name = fmt::format("transition{}", block + 1);
      const int width = b.shape().channels;
      b.batchnorm(name + ".bn");
      b.activation(name + ".relu");
      b.conv2d(name + ".conv", width, 1, 1, 0, true);
      b.avgpool(name + ".pool", {2, 2, 0});
    }
  }
  b.batchnorm("bn_final");
  b.activation("relu_final");
  b.globalAvgPool("pool");
  b.flatten();
  b.linear("fc", 10);
  b.softmaxLoss("loss");
  return g;
}

// --- ImageNet models (torchvision definitions, 1000 classes) ------------------------------------

// torchvision.models.resnet50 (v1.5: the stride sits in the 3x3 convolution).
ModelGraph resnet50() {
  ModelGraph g = newGraph("resnet50", "ResNet-50 (torchvision), ImageNet 3x224x224",
                          Framework::TensorFlow, Optimizer::SgdMomentum, 128);
  GraphBuilder b(g, {3, 224, 224});
  b.conv2d("conv1", 64, 7, 2, 3, false);
  b.batchnorm("bn1");
  b.activation("relu");
  b.maxpool("maxpool", {3, 2, 1});
  const struct { int width; int blocks; int stride; } stages[] = {{64, 3, 1}, {128, 4, 2}, {256, 6, 2}, {512, 3, 2}};
  for (int s = 0; s < 4; ++s) {
    for (int block = 0; block < stages[s].blocks; ++block) {
      const std::string name = fmt::format("layer{}.{}", s + 1, block);
      const int stride = block == 0 ? stages[s].stride : 1;
      const int width = stages[s].width;
      const TensorShape input = b.shape();
      b.conv2d(name + ".conv1", width, 1, 1, 0, false);
      b.batchnorm(name + ".bn1");
      b.activation(name + ".relu1");
      b.conv2d(name + ".conv2", width, 3, stride, 1, false);
      b.batchnorm(name + ".bn2");
      b.activation(name + ".relu2");
      b.conv2d(name + ".conv3", 4 * width, 1, 1, 0, false);
      b.batchnorm(name + ".bn3");
      const TensorShape output = b.shape();
      if (block == 0) {
        b.setShape(input);
        b.conv2d(name + ".downsample.conv", 4 * width, 1, stride, 0, false);
        b.batchnorm(name + ".downsample.bn");
      }
      b.setShape(output);
      b.add(name + ".add");
      b.activation(name + ".relu3");
    }
  }
  b.globalAvgPool("avgpool");
  b.flatten();
  b.linear("fc", 1000);
  b.softmaxLoss("loss");
  return g;
}

// torchvision.models.vgg16 (configuration D, no batch norm).
ModelGraph vgg16() {
  ModelGraph g = newGraph("vgg16", "VGG-16 (torchvision), ImageNet 3x224x224", Framework::TensorFlow,
                          Optimizer::SgdMomentum, 128);
  GraphBuilder b(g, {3, 224, 224});
  const int per_block[] = {2, 2, 3, 3, 3};
  const int widths[] = {64, 128, 256, 512, 512};
  for (int block = 0; block < 5; ++block) {
    for (int i = 0; i < per_block[block]; ++i) {
      const std::string name = fmt::format("conv{}_{}", block + 1, i + 1);
      b.conv2d(name, widths[block], 3, 1, 1, true);
      b.activation(name + ".relu");
    }
    b.maxpool(fmt::format("pool{}", block + 1), {2, 2, 0});
  }
  b.flatten();
  b.linear("fc6", 4096);
  b.activation("fc6.relu");
  b.dropout("fc6.dropout");
  b.linear("fc7", 4096);
  b.activation("fc7.relu");
  b.dropout("fc7.dropout");
  b.linear("fc8", 1000);
  b.softmaxLoss("loss");
  return g;
}

// torchvision.models.googlenet without auxiliary heads. Its "5x5" branch uses 3x3 kernels (as
// torchvision's does); pools use ceil mode.
ModelGraph googlenet() {
  ModelGraph g = newGraph("googlenet", "GoogLeNet (torchvision, no auxiliary heads), ImageNet 3x224x224",
                          Framework::TensorFlow, Optimizer::SgdMomentum, 256);
  GraphBuilder b(g, {3, 224, 224});
  basicConv(b, "conv1", 64, 7, 2, 3);
  b.maxpool("maxpool1", {3, 2, 0, true});
  basicConv(b, "conv2", 64, 1);
  basicConv(b, "conv3", 192, 3, 1, 1);
  b.maxpool("maxpool2", {3, 2, 0, true});
  const auto inception = [&](const std::string& name, int c1, int c3r, int c3, int c5r, int c5, int pool) {
    branches(b, name,
             {[&](const std::string& n) { basicConv(b, n, c1, 1); },
              [&](const std::string& n) { basicConv(b, n + ".0", c3r, 1); basicConv(b, n + ".1", c3, 3, 1, 1); },
              [&](const std::string& n) { basicConv(b, n + ".0", c5r, 1); basicConv(b, n + ".1", c5, 3, 1, 1); },
              [&](const std::string& n) { b.maxpool(n + ".pool", {3, 1, 1, true}); basicConv(b, n + ".1", pool, 1); }});
  };
  inception("inception3a", 64, 96, 128, 16, 32, 32);
  inception("inception3b", 128, 128, 192, 32, 96, 64);
  b.maxpool("maxpool3", {3, 2, 0, true});
  inception("inception4a", 192, 96, 208, 16, 48, 64);
  inception("inception4b", 160, 112, 224, 24, 64, 64);
  inception("inception4c", 128, 128, 256, 24, 64, 64);
  inception("inception4d", 112, 144, 288, 32, 64, 64);
  inception("inception4e", 256, 160, 320, 32, 128, 128);
  b.maxpool("maxpool4", {2, 2, 0, true});
  inception("inception5a", 256, 160, 320, 32, 128, 128);
  inception("inception5b", 384, 192, 384, 48, 128, 128);
  b.globalAvgPool("avgpool");
  b.flatten();
  b.dropout("dropout");
  b.linear("fc", 1000);
  b.softmaxLoss("loss");
  return g;
}

Conv2dSpec rect(int out, int kh, int kw, int ph, int pw) { return Conv2dSpec{out, kh, kw, 1, 1, ph, pw, 1, false}; }

}  // namespace

// torchvision.models.inception_v3 (3x299x299): Mixed_5b..7c; the auxiliary head sits after
// Mixed_6e and is used in training only.
ModelGraph buildInception3(bool with_aux_head) {
  ModelGraph g = newGraph("inception3",
                          with_aux_head ? "Inception-v3 (torchvision, with auxiliary head), ImageNet 3x299x299"
                                        : "Inception-v3 (torchvision, no auxiliary head), ImageNet 3x299x299",
                          Framework::TensorFlow, Optimizer::SgdMomentum, 64);
  GraphBuilder b(g, {3, 299, 299});
  basicConv(b, "Conv2d_1a_3x3", 32, 3, 2);
  basicConv(b, "Conv2d_2a_3x3", 32, 3);
  basicConv(b, "Conv2d_2b_3x3", 64, 3, 1, 1);
  b.maxpool("maxpool1", {3, 2, 0});
  basicConv(b, "Conv2d_3b_1x1", 80, 1);
  basicConv(b, "Conv2d_4a_3x3", 192, 3);
  b.maxpool("maxpool2", {3, 2, 0});

  const auto pool_branch = [&](const std::string& n, int out) {
    b.avgpool(n + ".pool", {3, 1, 1});
    basicConv(b, n + ".conv", out, 1);
  };
  const auto inception_a = [&](const std::string& name, int pool_features) {
    branches(b, name,
             {[&](const std::string& n) { basicConv(b, n, 64, 1); },
              [&](const std::string& n) { basicConv(b, n + ".1", 48, 1); basicConv(b, n + ".2", 64, 5, 1, 2); },
              [&](const std::string& n) {
                basicConv(b, n + ".1", 64, 1);
                basicConv(b, n + ".2", 96, 3, 1, 1);
                basicConv(b, n + ".3", 96, 3, 1, 1);
              },
              [&](const std::string& n) { pool_branch(n, pool_features); }});
  };
  const auto inception_c = [&](const std::string& name, int c7) {
    branches(b, name,
             {[&](const std::string& n) { basicConv(b, n, 192, 1); },
              [&](const std::string& n) {
                basicConv(b, n + ".1", c7, 1);
                basicConv(b, n + ".2", rect(c7, 1, 7, 0, 3));
                basicConv(b, n + ".3", rect(192, 7, 1, 3, 0));
              },
              [&](const std::string& n) {
                basicConv(b, n + ".1", c7, 1);
                basicConv(b, n + ".2", rect(c7, 7, 1, 3, 0));
                basicConv(b, n + ".3", rect(c7, 1, 7, 0, 3));
                basicConv(b, n + ".4", rect(c7, 7, 1, 3, 0));
                basicConv(b, n + ".5", rect(192, 1, 7, 0, 3));
              },
              [&](const std::string& n) { pool_branch(n, 192); }});
  };
  const auto inception_e = [&](const std::string& name) {
    // The 3x3 branches end in two parallel 1x3 and 3x1 convolutions whose outputs concatenate.
    const auto split_end = [&](const std::string& n) {
      const TensorShape mid = b.shape();
      basicConv(b, n + "a", rect(384, 1, 3, 0, 1));
      const TensorShape a = b.shape();
      b.setShape(mid);
      basicConv(b, n + "b", rect(384, 3, 1, 1, 0));
      b.concat(n + ".concat", {a, b.shape()});
    };
    branches(b, name,
             {[&](const std::string& n) { basicConv(b, n, 320, 1); },
              [&](const std::string& n) { basicConv(b, n + ".1", 384, 1); split_end(n + ".2"); },
              [&](const std::string& n) {
                basicConv(b, n + ".1", 448, 1);
                basicConv(b, n + ".2", 384, 3, 1, 1);
                split_end(n + ".3");
              },
              [&](const std::string& n) { pool_branch(n, 192); }});
  };

  inception_a("Mixed_5b", 32);
  inception_a("Mixed_5c", 64);
  inception_a("Mixed_5d", 64);
  branches(b, "Mixed_6a",  // InceptionB
           {[&](const std::string& n) { basicConv(b, n, 384, 3, 2); },
            [&](const std::string& n) {
              basicConv(b, n + ".1", 64, 1);
              basicConv(b, n + ".2", 96, 3, 1, 1);
              basicConv(b, n + ".3", 96, 3, 2);
            },
            [&](const std::string& n) { b.maxpool(n + ".pool", {3, 2, 0}); }});
  inception_c("Mixed_6b", 128);
  inception_c("Mixed_6c", 160);
  inception_c("Mixed_6d", 160);
  inception_c("Mixed_6e", 192);
  if (with_aux_head) {
    const TensorShape trunk = b.shape();
    b.avgpool("AuxLogits.pool", {5, 3, 0});
    basicConv(b, "AuxLogits.conv0", 128, 1);
    basicConv(b, "AuxLogits.conv1", 768, 5);
    b.globalAvgPool("AuxLogits.avgpool");
    b.flatten();
    b.linear("AuxLogits.fc", 1000);
    b.softmaxLoss("AuxLogits.loss");
    b.setShape(trunk);
  }
  branches(b, "Mixed_7a",  // InceptionD
           {[&](const std::string& n) { basicConv(b, n + ".1", 192, 1); basicConv(b, n + ".2", 320, 3, 2); },
            [&](const std::string& n) {
              basicConv(b, n + ".1", 192, 1);
              basicConv(b, n + ".2", rect(192, 1, 7, 0, 3));
              basicConv(b, n + ".3", rect(192, 7, 1, 3, 0));
              basicConv(b, n + ".4", 192, 3, 2);
            },
            [&](const std::string& n) { b.maxpool(n + ".pool", {3, 2, 0}); }});
  inception_e("Mixed_7b");
  inception_e("Mixed_7c");
  b.globalAvgPool("avgpool");
  b.flatten();
  b.dropout("dropout");
  b.linear("fc", 1000);
  b.softmaxLoss("loss");
  return g;
}

namespace {

// --- Transformers (Hugging Face definitions) ----------------------------------------------------

// BertForQuestionAnswering (bert-base-uncased) on SQuAD at 384 tokens: no pooler, a 2-way span head.
ModelGraph bert(int tokens = 384) {
  ModelGraph g = newGraph("bert", fmt::format("BERT-base (BertForQuestionAnswering), SQuAD, {} tokens", tokens),
                          Framework::PyTorch, Optimizer::Adam, 4);
  GraphBuilder b(g, {1, 1, tokens});
  b.embedding("embeddings.word", 30522, 768, tokens);
  b.positionEmbedding("embeddings.position", 512);
  b.addedTable("embeddings.token_type", 2);
  b.layernorm("embeddings.norm");
  b.dropout("embeddings.dropout");
  for (int i = 0; i < 12; ++i) transformerLayer(b, fmt::format("layer{}", i), {768, 12, 3072});
  b.linear("qa_outputs", 2);
  b.softmaxLoss("loss");
  return g;
}

// GPT2LMHeadModel (gpt2, 124 M) at 1024 tokens: pre-norm layers, fused QKV, LM head tied to wte.
ModelGraph gpt2(int tokens = 1024) {
  ModelGraph g = newGraph("gpt2", fmt::format("GPT-2 small (GPT2LMHeadModel), {} tokens", tokens),
                          Framework::PyTorch, Optimizer::Adam, 4);
  GraphBuilder b(g, {1, 1, tokens});
  b.embedding("wte", 50257, 768, tokens);
  b.positionEmbedding("wpe", 1024);
  b.dropout("drop");
  TransformerLayerSpec layer{768, 12, 3072};
  layer.pre_norm = true;
  layer.fused_qkv = true;
  for (int i = 0; i < 12; ++i) transformerLayer(b, fmt::format("h{}", i), layer);
  b.layernorm("ln_f");
  b.tiedLinear("lm_head", 50257);
  b.softmaxLoss("loss");
  return g;
}

// WhisperForConditionalGeneration (whisper-small): 80 mel bins x 3000 frames (30 s) into two
// convolutions (to 1500 positions) and 12 encoder layers; 12 decoder layers at 448 tokens with
// cross-attention; sinusoidal encoder positions are frozen; the LM head is tied to the embedding.
ModelGraph whisper(int decoder_tokens = 448) {
  ModelGraph g = newGraph("whisper",
                          fmt::format("Whisper-small, 80 mel x 3000 frames, {} decoder tokens", decoder_tokens),
                          Framework::PyTorch, Optimizer::Adam, 4);
  GraphBuilder b(g, {80, 1, 3000});
  b.conv1d("encoder.conv1", 768, 3, 1, 1, true);
  b.activation("encoder.conv1.gelu", "gelu");
  b.conv1d("encoder.conv2", 768, 3, 2, 1, true);
  b.activation("encoder.conv2.gelu", "gelu");
  b.frozenTable("encoder.embed_positions", 1500.0 * 768);
  TransformerLayerSpec layer{768, 12, 3072};
  layer.pre_norm = true;
  layer.key_bias = false;
  for (int i = 0; i < 12; ++i) transformerLayer(b, fmt::format("encoder.layer{}", i), layer);
  b.layernorm("encoder.layer_norm");
  const int encoder_positions = b.shape().width;

  b.embedding("decoder.embed_tokens", 51865, 768, decoder_tokens);
  b.positionEmbedding("decoder.embed_positions", 448);
  layer.cross_kv_length = encoder_positions;
  for (int i = 0; i < 12; ++i) transformerLayer(b, fmt::format("decoder.layer{}", i), layer);
  b.layernorm("decoder.layer_norm");
  b.tiedLinear("proj_out", 51865);
  b.softmaxLoss("loss");
  return g;
}

// Wav2Vec2ForCTC (wav2vec2-base) on 15 s of 16 kHz audio: a 7-layer convolutional feature encoder
// (512 channels, no bias, group norm after the first) to 749 frames, a projection to 768, a
// grouped positional convolution (k = 128, 16 groups, weight norm), 12 post-norm layers, CTC head.
ModelGraph wav2vec2(int samples = 240000) {
  ModelGraph g = newGraph("wav2vec2",
                          fmt::format("wav2vec2-base (Wav2Vec2ForCTC), {:g} s of 16 kHz audio", samples / 16000.0),
                          Framework::PyTorch, Optimizer::Adam, 4);
  GraphBuilder b(g, {1, 1, samples});
  const int kernels[] = {10, 3, 3, 3, 3, 2, 2};
  const int strides[] = {5, 2, 2, 2, 2, 2, 2};
  for (int i = 0; i < 7; ++i) {
    const std::string name = fmt::format("feature_extractor.conv{}", i);
    b.conv1d(name, 512, kernels[i], strides[i], 0, false);
    if (i == 0) b.groupnorm(name + ".norm", 512);
    b.activation(name + ".gelu", "gelu");
  }
  b.layernorm("feature_projection.norm");
  b.linear("feature_projection.projection", 768);
  b.dropout("feature_projection.dropout");
  b.addedTable("masked_spec_embed", 1);
  const TensorShape frames = b.shape();
  b.conv1d("encoder.pos_conv", 768, 128, 1, 64, true, 16);
  Layer& pos_conv = g.layers.back();
  pos_conv.params += 128;  // weight norm's magnitude g (1 x 1 x 128) beside the direction v
  pos_conv.param_tensors += 1;
  b.cropWidth(frames.width);  // the even kernel adds one frame, which is dropped
  b.activation("encoder.pos_conv.gelu", "gelu");
  b.add("encoder.pos_conv.residual");
  b.layernorm("encoder.layer_norm");
  b.dropout("encoder.dropout");
  for (int i = 0; i < 12; ++i) transformerLayer(b, fmt::format("encoder.layer{}", i), {768, 12, 3072});
  b.linear("lm_head", 32);
  b.softmaxLoss("ctc_loss");
  return g;
}

}  // namespace

ModelGraph builtinModel(const std::string& name, int sequence_length) {
  if (sequence_length < 1)
    throw std::invalid_argument(fmt::format("--seq-len must be at least 1, not {}", sequence_length));
  if (name == "bert") return bert(sequence_length);
  if (name == "gpt2") return gpt2(sequence_length);
  if (name == "whisper") return whisper(sequence_length);
  if (name == "wav2vec2") return wav2vec2(sequence_length);
  throw std::invalid_argument(fmt::format("--seq-len applies to bert, gpt2, whisper and wav2vec2, not '{}'", name));
}

std::vector<ModelGraph> builtinModels() {
  std::vector<ModelGraph> pool;
  pool.push_back(alexnet());
  pool.push_back(cifarResnet(44, 1024));
  pool.push_back(cifarResnet(110, 1024));
  pool.push_back(cifarDensenet(40, 1024));
  pool.push_back(cifarDensenet(100, 128));
  pool.push_back(resnet50());
  pool.push_back(vgg16());
  pool.push_back(googlenet());
  pool.push_back(buildInception3(false));
  pool.push_back(bert());
  pool.push_back(gpt2());
  pool.push_back(whisper());
  pool.push_back(wav2vec2());
  return pool;
}

double ModelGraph::parameters() const {
  double sum = 0;
  for (const auto& layer : layers) sum += layer.params;
  return sum;
}

double ModelGraph::totalParameters() const {
  double sum = parameters();
  for (const auto& layer : layers) sum += layer.frozen_params;
  return sum;
}

int ModelGraph::gradientTensors() const {
  int sum = 0;
  for (const auto& layer : layers) sum += layer.param_tensors;
  return sum;
}

double ModelGraph::forwardMacs() const {
  double sum = 0;
  for (const auto& layer : layers) sum += layer.fwd_macs;
  return sum;
}

double ModelGraph::forwardFlops() const {
  double sum = 0;
  for (const auto& layer : layers) sum += layer.fwd_flops;
  return sum;
}

double ModelGraph::savedElements() const {
  double sum = 0;
  for (const auto& layer : layers) sum += layer.saved_elems;
  return sum;
}

const char* frameworkName(Framework framework) {
  return framework == Framework::TensorFlow ? "tensorflow" : "pytorch";
}

const char* opClassName(OpClass op_class) {
  switch (op_class) {
    case OpClass::Conv: return "conv";
    case OpClass::ConvWinograd: return "conv3x3";
    case OpClass::Gemm: return "gemm";
    case OpClass::Memory: return "memory";
  }
  return "?";
}

}  // namespace mosim
