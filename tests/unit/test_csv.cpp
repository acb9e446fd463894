#define BOOST_TEST_MODULE csv
#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

#include "mosim/csv.hpp"
#include "test_support.hpp"

using namespace mosim;
using namespace mosim::test;

namespace {

const std::string kTraces = kTestData + "/traces/";

}  // namespace

BOOST_AUTO_TEST_CASE(header_rows_and_lines) {
  const CsvTable table = CsvTable::parse("a, B ,c\r\n1,2,3\r\n\r\n   \n4 , 5,6\n", "t.csv");
  BOOST_TEST(table.path() == "t.csv");
  BOOST_TEST(table.header() == (std::vector<std::string>{"a", "B", "c"}));
  BOOST_TEST(table.rows() == 2u);
  BOOST_TEST(table.row(0).line() == 2u);
  BOOST_TEST(table.row(1).line() == 5u);  // blank lines still count
  BOOST_TEST(table.row(1).text(0) == "4");
  BOOST_TEST(table.row(1).text(1) == "5");
  BOOST_TEST(table.row(1).text(2) == "6");
  BOOST_TEST(table.row(0).number(2) == 3.0);
}

BOOST_AUTO_TEST_CASE(find_is_case_insensitive) {
  const CsvTable table = CsvTable::parse("Model,Number of Workers\nx,2\n", "t.csv");
  BOOST_TEST(table.find("model").value() == 0u);
  BOOST_TEST(table.find("NUMBER OF WORKERS").value() == 1u);
  BOOST_TEST(!table.find("workers"));
  BOOST_TEST(table.require("MODEL") == 0u);
  BOOST_TEST(throwsInputError([&] { table.require("duration"); },
                              {"t.csv", 1, "duration", "required column is missing"}));
}

BOOST_AUTO_TEST_CASE(quotes) {
  const CsvTable table = CsvTable::parse(
      "name,note\n\"a,b\",\"say \"\"hi\"\"\"\n  \"x\"  ,\"two\nlines\"\nlast,\"\"\n", "q.csv");
  BOOST_TEST(table.rows() == 3u);
  BOOST_TEST(table.row(0).text(0) == "a,b");
  BOOST_TEST(table.row(0).text(1) == "say \"hi\"");
  BOOST_TEST(table.row(1).text(0) == "x");
  BOOST_TEST(table.row(1).text(1) == "two\nlines");
  BOOST_TEST(table.row(2).line() == 5u);  // the quoted line break moved it down
  BOOST_TEST(table.row(2).text(1) == "");
}

BOOST_AUTO_TEST_CASE(quote_errors) {
  BOOST_TEST(throwsInputError([] { CsvTable::parse("a,b\n1,\"open\n2,3\n", "q.csv"); },
                              {"q.csv", 2, "", "unterminated"}));
  BOOST_TEST(throwsInputError([] { CsvTable::parse("a,b\n1,\"x\"y\n", "q.csv"); },
                              {"q.csv", 2, "", "after a closing quote"}));
}

BOOST_AUTO_TEST_CASE(byte_order_mark_is_stripped) {
  const CsvTable table = CsvTable::parse("\xEF\xBB\xBFjob_id,x\n1,2\n", "bom.csv");
  BOOST_TEST(table.header().front() == "job_id");
  BOOST_TEST(table.find("job_id").has_value());
}

BOOST_AUTO_TEST_CASE(short_rows_read_as_empty) {
  const CsvTable table = CsvTable::parse("a,b,c\n1\n1,2,\n", "s.csv");
  BOOST_TEST(table.row(0).text(1) == "");
  BOOST_TEST(table.row(0).text(2) == "");
  BOOST_TEST(table.row(1).text(2) == "");
  BOOST_TEST(throwsInputError([&] { table.row(0).number(2); }, {"s.csv", 2, "c", "empty"}));
}

BOOST_AUTO_TEST_CASE(numbers_and_integers) {
  const CsvTable table =
      CsvTable::parse("n,i\n2.5,4\nabc,4.0\nnan,4.5\ninf,1e20\n-0.5,-3\n", "n.csv");
  BOOST_TEST(table.row(0).number(0) == 2.5);
  BOOST_TEST(table.row(0).integer(1) == 4);
  BOOST_TEST(table.row(1).integer(1) == 4);  // an exact integer written with a decimal point
  BOOST_TEST(table.row(4).number(0) == -0.5);
  BOOST_TEST(table.row(4).integer(1) == -3);
  BOOST_TEST(throwsInputError([&] { table.row(1).number(0); },
                              {"n.csv", 3, "n", "'abc' is not a number"}));
  BOOST_TEST(throwsInputError([&] { table.row(2).number(0); }, {"n.csv", 4, "n", "finite"}));
  BOOST_TEST(throwsInputError([&] { table.row(2).integer(1); },
                              {"n.csv", 4, "i", "'4.5' is not a whole number"}));
  BOOST_TEST(throwsInputError([&] { table.row(3).number(0); }, {"n.csv", 5, "n", "finite"}));
  BOOST_TEST(throwsInputError([&] { table.row(3).integer(1); }, {"n.csv", 5, "i", "out of range"}));
  BOOST_TEST(throwsInputError([&] { table.row(0).integer(0); }, {"n.csv", 2, "n", "whole"}));
  BOOST_TEST(throwsInputError([&] { table.row(0).fail(1, "custom"); }, {"n.csv", 2, "i", "custom"}));
}

BOOST_AUTO_TEST_CASE(rows_survive_copies_and_moves) {
  // Rows point back at their table; errors must name the file after the table moved.
  CsvTable moved = CsvTable::parse("x\nbad\n", "m.csv");
  std::vector<CsvTable> tables;
  tables.reserve(3);
  tables.push_back(std::move(moved));
  tables.push_back(tables.front());
  tables.emplace_back();
  tables.back() = tables.front();
  for (const CsvTable& table : tables)
    BOOST_TEST(throwsInputError([&] { table.row(0).number(0); }, {"m.csv", 2, "x", "bad"}));
}

BOOST_AUTO_TEST_CASE(empty_and_header_only) {
  BOOST_TEST(throwsInputError([] { CsvTable::parse("", "e.csv"); }, {"e.csv", 0, "", "no data rows"}));
  BOOST_TEST(throwsInputError([] { CsvTable::parse("\n  \n", "e.csv"); },
                              {"e.csv", 0, "", "no data rows"}));
  BOOST_TEST(throwsInputError([] { CsvTable::parse("a,b\n\n", "h.csv"); },
                              {"h.csv", 0, "", "no data rows"}));
  BOOST_TEST(CsvTable::parse("", "e.csv", true).rows() == 0u);
  const CsvTable header_only = CsvTable::parse("a,b\n", "h.csv", true);
  BOOST_TEST(header_only.rows() == 0u);
  BOOST_TEST(header_only.header().size() == 2u);
}

BOOST_AUTO_TEST_CASE(too_many_fields) {
  BOOST_TEST(throwsInputError([] { CsvTable::parse("a,b\n1,2\n1,2,3\n", "f.csv"); },
                              {"f.csv", 3, "", "3 fields but the header has 2"}));
}

BOOST_AUTO_TEST_CASE(files) {
  const CsvTable table = CsvTable::read(kTraces + "mosim_ok.csv");
  BOOST_TEST(table.path() == kTraces + "mosim_ok.csv");
  BOOST_TEST(table.rows() == 4u);
  BOOST_TEST(table.row(3).text(4) == "my \"quoted\" model");

  const std::string empty = kTraces + "empty.csv";
  BOOST_TEST(throwsInputError([&] { CsvTable::read(empty); }, {empty, 0, "", "no data rows"}));
  const std::string header_only = kTraces + "header_only.csv";
  BOOST_TEST(throwsInputError([&] { CsvTable::read(header_only); },
                              {header_only, 0, "", "no data rows"}));
  const std::string too_many = kTraces + "too_many_fields.csv";
  BOOST_TEST(throwsInputError([&] { CsvTable::read(too_many); }, {too_many, 3, "", "5 fields"}));
  const std::string missing = kTraces + "no_such_file.csv";
  BOOST_TEST(throwsInputError([&] { CsvTable::read(missing); }, {missing, 0, "", "cannot open"}));
  BOOST_TEST(throwsInputError([] { CsvTable::read(MOSIM_TEST_DATA_DIR); },
                              {MOSIM_TEST_DATA_DIR, 0, "", "directory"}));
}
