#define BOOST_TEST_MODULE scenario
#include <boost/test/unit_test.hpp>

#include "mosim/scenario.hpp"
#include "test_support.hpp"

using namespace mosim;

BOOST_AUTO_TEST_CASE(options_parse_their_values) {
  Scenario s;
  setOption(s, "nic-bandwidth", "5 Gbps");
  BOOST_TEST(s.nic_Bps == 625e6);
  setOption(s, "servers", "16");
  BOOST_TEST(s.servers == 16);
  setOption(s, "placement", "colocate");
  BOOST_TEST(s.placement == "colocate");
  setOption(s, "fixed-ratio", "0.25");
  BOOST_TEST(s.fixed_ratio == 0.25);
  BOOST_TEST(s.given.count("servers") == 1u);
  BOOST_TEST(s.given.count("queue") == 0u);
}

// Every rejected value names the option and the value, so a sweep can say which point is bad.
BOOST_AUTO_TEST_CASE(bad_values_name_the_option) {
  Scenario s;
  const std::pair<const char*, const char*> bad[] = {
      {"nic-bandwidth", "463"},   {"servers", "0"},        {"servers", "2.5"},
      {"placement", "spread"},    {"contention", "magic"}, {"fixed-ratio", "-1"},
      {"arrival-rate", "0"},      {"seed", "-3"},          {"augment", "some"},
      {"network-units", "parsecs"}};
  for (const auto& [name, value] : bad) {
    try {
      setOption(s, name, value);
      BOOST_ERROR("accepted --" << name << " " << value);
    } catch (const std::invalid_argument& e) {
      BOOST_TEST(std::string(e.what()).find(std::string("--") + name + " '" + value + "'") == 0u, e.what());
    }
  }
  BOOST_CHECK_THROW(setOption(s, "no-such-option", "1"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(every_option_has_help_and_its_default_is_accepted) {
  for (const ScenarioOption& option : scenarioOptions()) {
    BOOST_TEST(!option.help.empty(), option.name);
    if (option.default_text.empty()) continue;
    Scenario s;
    BOOST_CHECK_NO_THROW(setOption(s, option.name, option.default_text));
  }
}

BOOST_AUTO_TEST_CASE(the_example_is_the_default_trace) {
  const PreparedScenario prepared = prepareScenario(Scenario{});
  BOOST_TEST(prepared.jobs.size() == 40u);
  BOOST_TEST(prepared.config.cluster.servers.size() == 4u);
  BOOST_TEST(prepared.config.contention == "mosim");
}

// A synthetic trace gets the default pool's models and is the same for the same seed.
BOOST_AUTO_TEST_CASE(synthetic_traces_are_seeded) {
  Scenario s;
  setOption(s, "trace", "synthetic");
  setOption(s, "jobs", "200");
  setOption(s, "seed", "7");
  setOption(s, "servers", "64");
  const auto a = prepareScenario(s), b = prepareScenario(s);
  BOOST_REQUIRE(a.jobs.size() == b.jobs.size());
  BOOST_TEST(a.jobs.size() > 150u);  // jobs larger than the cluster or the pool allows are skipped
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    BOOST_TEST(a.jobs[i].job.submit_s == b.jobs[i].job.submit_s);
    BOOST_TEST(a.jobs[i].job.model == b.jobs[i].job.model);
    BOOST_TEST(!a.jobs[i].job.model.empty());
  }
  setOption(s, "seed", "8");
  BOOST_TEST(prepareScenario(s).jobs.front().job.submit_s != a.jobs.front().job.submit_s);
  Scenario no_size;
  setOption(no_size, "trace", "synthetic");
  BOOST_CHECK_THROW(prepareScenario(no_size), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_cluster_file_excludes_the_homogeneous_options) {
  Scenario s;
  setOption(s, "cluster", mosim::test::kTestData + "/clusters/hetero.yaml");
  setOption(s, "servers", "2");
  BOOST_CHECK_THROW(prepareScenario(s), std::invalid_argument);
}
