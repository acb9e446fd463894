#define BOOST_TEST_MODULE units
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <string>

#include "mosim/error.hpp"
#include "mosim/units.hpp"

using namespace mosim;

namespace {

// True when `call` throws std::invalid_argument whose message contains `fragment`.
template <typename Call>
bool throwsWith(Call call, const std::string& fragment) {
  try {
    call();
  } catch (const std::invalid_argument& error) {
    BOOST_TEST_MESSAGE(error.what());
    return std::string(error.what()).find(fragment) != std::string::npos;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(rate_units) {
  BOOST_TEST(rateUnit_Bps("B/s") == 1.0);
  BOOST_TEST(rateUnit_Bps("kB/s") == 1e3);
  BOOST_TEST(rateUnit_Bps("KB/s") == 1e3);
  BOOST_TEST(rateUnit_Bps("MB/s") == 1e6);
  BOOST_TEST(rateUnit_Bps("GB/s") == 1e9);
  BOOST_TEST(rateUnit_Bps("TB/s") == 1e12);
  BOOST_TEST(rateUnit_Bps("KiB/s") == 1024.0);
  BOOST_TEST(rateUnit_Bps("MiB/s") == 1048576.0);
  BOOST_TEST(rateUnit_Bps("GiB/s") == 1073741824.0);
  BOOST_TEST(rateUnit_Bps("TiB/s") == 1099511627776.0);
  BOOST_TEST(rateUnit_Bps("bps") == 0.125);
  BOOST_TEST(rateUnit_Bps("kbps") == 125.0);
  BOOST_TEST(rateUnit_Bps("Kbps") == 125.0);
  BOOST_TEST(rateUnit_Bps("Mbps") == 125000.0);
  BOOST_TEST(rateUnit_Bps("Gbps") == 1.25e8);
  BOOST_TEST(rateUnit_Bps("Tbps") == 1.25e11);
  BOOST_TEST(rateUnit_Bps("kb/s") == 125.0);
  BOOST_TEST(rateUnit_Bps("Mb/s") == 125000.0);
  BOOST_TEST(rateUnit_Bps("Gb/s") == 1.25e8);
  BOOST_TEST(rateUnit_Bps("Tb/s") == 1.25e11);
}

BOOST_AUTO_TEST_CASE(unknown_units_are_named) {
  BOOST_TEST(throwsWith([] { rateUnit_Bps("mb/s"); }, "'mb/s'"));  // millibits: case matters
  BOOST_TEST(throwsWith([] { rateUnit_Bps("MBps"); }, "'MBps'"));
  BOOST_TEST(throwsWith([] { rateUnit_Bps(""); }, "unknown bandwidth unit"));
}

BOOST_AUTO_TEST_CASE(bandwidths) {
  BOOST_TEST(parseBandwidth_Bps("463 MiB/s") == 485490688.0);  // 463 * 2^20
  BOOST_TEST(parseBandwidth_Bps("463MiB/s") == 485490688.0);
  BOOST_TEST(parseBandwidth_Bps("  463 MB/s ") == 463e6);
  BOOST_TEST(parseBandwidth_Bps("5 Gbps") == 625000000.0);
  BOOST_TEST(parseBandwidth_Bps("25 GB/s") == 25e9);
  BOOST_TEST(parseBandwidth_Bps("1.5e3 kB/s") == 1.5e6);
  BOOST_TEST(parseBandwidth_Bps("0 B/s") == 0.0);
  BOOST_TEST(parseBandwidth_Bps("16384 MB/s") == 16384e6);
}

BOOST_AUTO_TEST_CASE(bandwidth_errors) {
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("463"); }, "unit is required"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("463"); }, "MiB/s"));  // lists examples
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps(""); }, "unit"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("-5 Gbps"); }, "negative"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("nan MB/s"); }, "finite"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("inf MB/s"); }, "finite"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("MB/s"); }, "not a number"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("5 parsecs/s"); }, "'parsecs/s'"));
  BOOST_TEST(throwsWith([] { parseBandwidth_Bps("1e308 TB/s"); }, "out of range"));
}

BOOST_AUTO_TEST_CASE(format_bandwidth) {
  BOOST_TEST(formatBandwidth(4.63e8) == "463 MB/s");
  BOOST_TEST(formatBandwidth(6.25e8) == "625 MB/s");
  BOOST_TEST(formatBandwidth(25e9) == "25 GB/s");
  BOOST_TEST(formatBandwidth(1500) == "1.5 kB/s");
  BOOST_TEST(formatBandwidth(12) == "12 B/s");
  BOOST_TEST(formatBandwidth(0) == "0 B/s");
  BOOST_TEST(formatBandwidth(485490688.0) == "485.491 MB/s");
}

BOOST_AUTO_TEST_CASE(numbers) {
  BOOST_TEST(parseNumber("42") == 42.0);
  BOOST_TEST(parseNumber("-2.5") == -2.5);
  BOOST_TEST(parseNumber("+7") == 7.0);
  BOOST_TEST(parseNumber(" 1e3 ") == 1000.0);
  BOOST_TEST(parseNumber(".5") == 0.5);
  BOOST_TEST(parseNumber("2163.19") == 2163.19);
}

BOOST_AUTO_TEST_CASE(number_errors) {
  BOOST_TEST(throwsWith([] { parseNumber("12abc"); }, "'12abc' is not a number"));
  BOOST_TEST(throwsWith([] { parseNumber("abc"); }, "'abc' is not a number"));
  BOOST_TEST(throwsWith([] { parseNumber("1 2"); }, "not a number"));
  BOOST_TEST(throwsWith([] { parseNumber(""); }, "not a number"));
  BOOST_TEST(throwsWith([] { parseNumber("+-1"); }, "not a number"));
  BOOST_TEST(throwsWith([] { parseNumber("nan"); }, "finite"));
  BOOST_TEST(throwsWith([] { parseNumber("NaN"); }, "finite"));
  BOOST_TEST(throwsWith([] { parseNumber("inf"); }, "finite"));
  BOOST_TEST(throwsWith([] { parseNumber("-infinity"); }, "finite"));
  BOOST_TEST(throwsWith([] { parseNumber("1e400"); }, "out of range"));
  BOOST_TEST(throwsWith([] { parseNumber("0x10"); }, "not a number"));
}

BOOST_AUTO_TEST_CASE(input_error_message) {
  const InputError full("trace.csv", 12, "duration", "must be positive");
  BOOST_TEST(std::string(full.what()) == "trace.csv:12: field 'duration': must be positive");
  BOOST_TEST(full.file() == "trace.csv");
  BOOST_TEST(full.line() == 12u);
  BOOST_TEST(full.field() == "duration");

  BOOST_TEST(std::string(InputError("a.csv", 0, "", "empty").what()) == "a.csv: empty");
  BOOST_TEST(std::string(InputError("a.csv", 3, "", "bad row").what()) == "a.csv:3: bad row");
  BOOST_TEST(std::string(InputError("a.csv", 0, "Model", "missing").what()) ==
             "a.csv: field 'Model': missing");
  // One line even when a message carries a line break.
  BOOST_TEST(std::string(InputError("a.csv", 1, "x", "two\nlines").what()) ==
             "a.csv:1: field 'x': two lines");
}
