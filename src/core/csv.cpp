#include "mosim/csv.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "mosim/error.hpp"
#include "mosim/units.hpp"
#include "mosim/text.hpp"

namespace mosim {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

struct ParsedRecord {
  std::size_t line = 0;  // where the record starts
  std::vector<std::string> fields;
};

// Splits CSV text into records (RFC 4180: quoted fields may hold commas, "" and line breaks).
// Unquoted fields are trimmed; quoted fields keep their content as written. Blank lines vanish.
std::vector<ParsedRecord> splitRecords(std::string_view text, const std::string& name) {
  std::vector<ParsedRecord> records;
  std::size_t pos = 0;
  std::size_t line = 1;
  while (pos < text.size()) {
    const std::size_t line_end = text.find('\n', pos);
    const std::string_view first_line =
        text.substr(pos, line_end == std::string_view::npos ? std::string_view::npos
                                                            : line_end - pos);
    if (trim(first_line).empty()) {  // blank line
      pos = line_end == std::string_view::npos ? text.size() : line_end + 1;
      ++line;
      continue;
    }

    ParsedRecord record;
    record.line = line;
    bool record_done = false;
    while (!record_done) {
      // One field starting at pos.
      while (pos < text.size() && isSpace(text[pos])) ++pos;
      std::string field;
      if (pos < text.size() && text[pos] == '"') {
        const std::size_t quote_line = line;
        ++pos;
        bool closed = false;
        while (pos < text.size()) {
          const char c = text[pos++];
          if (c == '"') {
            if (pos < text.size() && text[pos] == '"') {
              field += '"';
              ++pos;
            } else {
              closed = true;
              break;
            }
          } else {
            if (c == '\n') ++line;
            field += c;
          }
        }
        if (!closed) throw InputError(name, quote_line, "", "unterminated quoted field");
        while (pos < text.size() && isSpace(text[pos])) ++pos;
        if (pos < text.size() && text[pos] != ',' && text[pos] != '\n')
          throw InputError(name, line, "", "unexpected text after a closing quote");
      } else {
        const std::size_t end = text.find_first_of(",\n", pos);
        const std::size_t stop = end == std::string_view::npos ? text.size() : end;
        field = std::string(trim(text.substr(pos, stop - pos)));
        pos = stop;
      }
      record.fields.push_back(std::move(field));

      if (pos >= text.size()) {
        record_done = true;
      } else if (text[pos] == ',') {
        ++pos;
      } else {  // '\n'
        ++pos;
        ++line;
        record_done = true;
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace

CsvTable::CsvTable(const CsvTable& other)
    : path_(other.path_), header_(other.header_), rows_(other.rows_) {
  relinkRows();
}

CsvTable::CsvTable(CsvTable&& other) noexcept
    : path_(std::move(other.path_)),
      header_(std::move(other.header_)),
      rows_(std::move(other.rows_)) {
  relinkRows();
}

CsvTable& CsvTable::operator=(const CsvTable& other) {
  if (this != &other) {
    path_ = other.path_;
    header_ = other.header_;
    rows_ = other.rows_;
    relinkRows();
  }
  return *this;
}

CsvTable& CsvTable::operator=(CsvTable&& other) noexcept {
  if (this != &other) {
    path_ = std::move(other.path_);
    header_ = std::move(other.header_);
    rows_ = std::move(other.rows_);
    relinkRows();
  }
  return *this;
}

void CsvTable::relinkRows() {
  for (Row& row : rows_) row.table_ = this;
}

CsvTable CsvTable::read(const std::string& path, bool allow_empty) {
  return parse(readTextFile(path, "CSV file"), path, allow_empty);
}

CsvTable CsvTable::parse(std::string_view text, const std::string& name, bool allow_empty) {
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());

  std::vector<ParsedRecord> records = splitRecords(text, name);
  CsvTable table;
  table.path_ = name;
  if (records.empty()) {
    if (allow_empty) return table;
    throw InputError(name, 0, "", "empty file: no header and no data rows");
  }
  table.header_ = std::move(records.front().fields);
  if (records.size() == 1 && !allow_empty)
    throw InputError(name, 0, "", "no data rows (only a header)");

  table.rows_.reserve(records.size() - 1);
  for (std::size_t i = 1; i < records.size(); ++i) {
    ParsedRecord& record = records[i];
    if (record.fields.size() > table.header_.size())
      throw InputError(name, record.line, "",
                       fmt::format("the row has {} fields but the header has {} columns",
                                   record.fields.size(), table.header_.size()));
    Row row;
    row.line_ = record.line;
    row.fields_ = std::move(record.fields);
    table.rows_.push_back(std::move(row));
  }
  table.relinkRows();
  return table;
}

std::optional<std::size_t> CsvTable::find(std::string_view column) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (equalsIgnoringCase(header_[i], column)) return i;
  return std::nullopt;
}

std::size_t CsvTable::require(std::string_view column) const {
  if (const auto index = find(column)) return *index;
  throw InputError(path_, 1, std::string(column),
                   fmt::format("required column is missing (the header has: {})",
                               fmt::join(header_, ", ")));
}

std::string_view CsvTable::Row::text(std::size_t column) const {
  if (column >= fields_.size()) return {};
  return fields_[column];
}

double CsvTable::Row::number(std::size_t column) const {
  const std::string_view field = text(column);
  if (field.empty()) fail(column, "the value is empty; a number is required");
  try {
    return parseNumber(field);
  } catch (const std::invalid_argument& error) {
    fail(column, error.what());
  }
}

long long CsvTable::Row::integer(std::size_t column) const {
  const double value = number(column);
  if (std::trunc(value) != value)
    fail(column, fmt::format("'{}' is not a whole number", text(column)));
  // 2^63 is exactly representable; anything at or beyond it does not fit a long long.
  constexpr double kLimit = 9223372036854775808.0;
  if (value >= kLimit || value < -kLimit)
    fail(column, fmt::format("'{}' is out of range", text(column)));
  return static_cast<long long>(value);
}

void CsvTable::Row::fail(std::size_t column, const std::string& message) const {
  const std::vector<std::string>& header = table_->header();
  throw InputError(table_->path(), line_, column < header.size() ? header[column] : "", message);
}

}  // namespace mosim
