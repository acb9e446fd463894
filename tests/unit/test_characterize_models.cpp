#define BOOST_TEST_MODULE characterize_models
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>

#include "characterize/graph_builder.hpp"
#include "mosim/characterize.hpp"
#include "mosim/model_graph.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kData = kTestData + "/characterize/";

const ModelGraph& model(const std::string& name) {
  static const ModelPool pool = ModelPool::builtin();
  return pool.find(name);
}

bool within(double value, double reference, double tolerance) {
  return std::abs(value - reference) <= tolerance * std::abs(reference);
}

}  // namespace

BOOST_AUTO_TEST_CASE(window_output_follows_the_framework_rules) {
  BOOST_TEST(windowOutput(224, 7, 2, 3) == 112);     // (224 + 6 - 7) / 2 + 1 = 112.5 -> 112
  BOOST_TEST(windowOutput(112, 3, 2, 0, true) == 56);  // ceil(109 / 2) + 1 = 56
  BOOST_TEST(windowOutput(112, 3, 2, 0) == 55);        // floor
  BOOST_TEST(windowOutput(14, 2, 2, 0, true) == 7);
  // Ceil mode may not start a window beyond the input and its left padding: in 5, k 2, s 2, p 1:
  // ceil(5 / 2) + 1 = 4 windows would start at 6 >= 5 + 1, so 3.
  BOOST_TEST(windowOutput(5, 2, 2, 1, true) == 3);
  BOOST_CHECK_THROW(windowOutput(4, 5, 1, 0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(toy_model_by_hand) {
  const auto models = readModelsYaml(kData + "toy.yaml");
  BOOST_TEST_REQUIRE(models.size() == 3u);
  const ModelGraph& toy = models[0];
  // conv 3 -> 8, 3x3, bias: 8 x 3 x 9 + 8 = 224 parameters; 8x8x8 = 512 outputs x 27 = 13,824 MACs.
  // linear 512 -> 10 with bias: 5,130 parameters, 5,120 MACs.
  BOOST_TEST(toy.parameters() == 224 + 5130);
  BOOST_TEST(toy.gradientTensors() == 4);
  BOOST_TEST(toy.forwardMacs() == 13824 + 5120);
  BOOST_TEST(toy.forwardFlops() >= 2 * toy.forwardMacs());  // plus the elementwise work
  BOOST_TEST(toy.default_batch == 2);
  BOOST_TEST((toy.framework == Framework::PyTorch));
  BOOST_TEST((toy.layers[0].op_class == OpClass::ConvWinograd));  // 3x3, stride 1
  BOOST_TEST((toy.layers[2].op_class == OpClass::Gemm));  // flatten adds no operator

  // Per pre-norm layer (d 8, 2 heads, FFN 32): 2 LayerNorms 16 + 16, Q K V O 4 x (64 + 8) = 288,
  // FFN 8 x 32 + 32 = 288 and 32 x 8 + 8 = 264: 872. Model: embedding 800 + positions 128
  // + 2 x 872 + final norm 16 + head 800 = 3,488.
  const ModelGraph& tiny = models[1];
  BOOST_TEST(tiny.parameters() == 3488);
  // 16 tokens: Q K V O 4 x 16 x 64 = 4,096; scores and context 2 x 16 x 16 x 8 = 4,096; FFN
  // 2 x 16 x 8 x 32 = 8,192; so 16,384 per layer, 2 layers, plus the head 16 x 8 x 100 = 12,800.
  BOOST_TEST(tiny.forwardMacs() == 2 * 16384 + 12800);
  BOOST_TEST((tiny.optimizer == Optimizer::Adam));

  // Two residual blocks of conv 4 -> 4 (144) + batch norm (8), global pool, linear 4 -> 2 (10).
  const ModelGraph& blocks = models[2];
  BOOST_TEST(blocks.parameters() == 2 * (144 + 8) + 10);
  BOOST_TEST(blocks.forwardMacs() == 2 * (4 * 8 * 8 * 36) + 8);
  BOOST_TEST((blocks.framework == Framework::TensorFlow));
}

BOOST_AUTO_TEST_CASE(published_parameter_counts) {
  // Exact where the architecture is torchvision's or Hugging Face's; within 1% of facts.md.
  BOOST_TEST(model("resnet50").parameters() == 25557032);
  BOOST_TEST(model("vgg16").parameters() == 138357544);
  BOOST_TEST(model("googlenet").parameters() == 6624904);
  BOOST_TEST(model("gpt2").parameters() == 124439808);
  BOOST_TEST(buildInception3(true).parameters() == 27161264);
  BOOST_TEST(model("inception3").parameters() == 27161264 - 3326696);  // the auxiliary head's share
  BOOST_TEST(within(model("bert").parameters(), 109.5e6, 0.01));  // no pooler in the QA model
  BOOST_TEST(within(model("whisper").totalParameters(), 244e6, 0.01));
  BOOST_TEST(model("whisper").totalParameters() - model("whisper").parameters() == 1500 * 768);  // frozen
  BOOST_TEST(within(model("wav2vec2").parameters(), 95e6, 0.01));
  BOOST_TEST(within(model("alexnet").parameters(), 1.756e6, 0.01));
  BOOST_TEST(within(model("resnet44").parameters(), 0.659e6, 0.01));
  BOOST_TEST(within(model("resnet110").parameters(), 1.728e6, 0.01));
  BOOST_TEST(within(model("densenet40_k12").parameters(), 1.021e6, 0.01));
  BOOST_TEST(within(model("densenet100_k12").parameters(), 6.982e6, 0.01));
}

BOOST_AUTO_TEST_CASE(published_forward_macs) {
  // torchvision's documented GFLOPS (multiply-accumulates) within 3%, and facts.md's figures.
  BOOST_TEST(within(model("resnet50").forwardMacs(), 4.09e9, 0.03));
  BOOST_TEST(within(model("vgg16").forwardMacs(), 15.47e9, 0.03));
  BOOST_TEST(within(model("googlenet").forwardMacs(), 1.50e9, 0.03));
  BOOST_TEST(within(model("inception3").forwardMacs(), 5.71e9, 0.03));
  BOOST_TEST(within(model("bert").forwardMacs(), 35.4e9, 0.03));
  BOOST_TEST(within(model("gpt2").forwardMacs(), 145.8e9, 0.03));
  BOOST_TEST(within(model("alexnet").forwardMacs(), 32.8e6, 0.03));
  BOOST_TEST(within(model("resnet44").forwardMacs(), 97.2e6, 0.03));
  BOOST_TEST(within(model("resnet110").forwardMacs(), 252.9e6, 0.03));
  BOOST_TEST(within(model("densenet40_k12").forwardMacs(), 264.8e6, 0.03));
  BOOST_TEST(within(model("densenet100_k12").forwardMacs(), 1769.5e6, 0.03));
  // facts.md's Whisper figure (543 G) counts FLOPs: 2 x the MACs.
  BOOST_TEST(within(2 * model("whisper").forwardMacs(), 543e9, 0.03));
}

BOOST_AUTO_TEST_CASE(pool_names_and_batches_are_the_artifacts) {
  const std::pair<const char*, int> expected[] = {
      {"alexnet", 4096}, {"densenet100_k12", 128}, {"densenet40_k12", 1024}, {"resnet110", 1024},
      {"resnet44", 1024}, {"googlenet", 256},      {"inception3", 64},       {"resnet50", 128},
      {"vgg16", 128},    {"bert", 4},              {"gpt2", 4},              {"whisper", 4},
      {"wav2vec2", 4}};
  BOOST_TEST(ModelPool::builtin().models().size() == std::size(expected));
  for (const auto& [name, batch] : expected) BOOST_TEST(model(name).default_batch == batch, name);
  BOOST_CHECK_THROW(model("resnet18"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(sequence_length_rebuilds_sequence_models) {
  // BERT's per-token work is linear in the tokens except attention (quadratic): at 128 tokens the
  // linear layers do a third of the 384-token work.
  const ModelGraph short_bert = builtinModel("bert", 128);
  BOOST_TEST(short_bert.parameters() == model("bert").parameters());
  BOOST_TEST(short_bert.forwardMacs() < model("bert").forwardMacs() / 3);
  BOOST_CHECK_THROW(builtinModel("bert", 513), std::invalid_argument);  // 512 learned positions
  BOOST_CHECK_THROW(builtinModel("resnet50", 128), std::invalid_argument);
  BOOST_CHECK_THROW(builtinModel("gpt2", 0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(inconsistent_user_models_name_file_line_and_field) {
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "bad_in.yaml"); },
                              {kData + "bad_in.yaml", 8, "models[0].layers[2].in", "512 channels"}));
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "bad_window.yaml"); },
                              {kData + "bad_window.yaml", 6, "models[0].layers[0]", "does not fit"}));
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "bad_type.yaml"); },
                              {kData + "bad_type.yaml", 6, "models[0].layers[0].type", "conv3d"}));
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "bad_residual.yaml"); },
                              {kData + "bad_residual.yaml", 6, "models[0].layers[0]", "shortcut"}));
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "bad_number.yaml"); },
                              {kData + "bad_number.yaml", 3, "models[0].batch", "zero"}));
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "bad_heads.yaml"); },
                              {kData + "bad_heads.yaml", 7, "models[0].layers[1].heads", "divide"}));
  BOOST_TEST(throwsInputError([] { readModelsYaml(kData + "missing.yaml"); },
                              {kData + "missing.yaml", 0, "", "cannot open"}));
}

BOOST_AUTO_TEST_CASE(user_models_join_the_pool) {
  ModelPool pool = ModelPool::builtin();
  pool.addYaml(kData + "toy.yaml");
  BOOST_TEST(pool.contains("toy"));
  BOOST_TEST(pool.contains("resnet50"));
  BOOST_TEST(pool.find("toy").parameters() == 5354);
}
