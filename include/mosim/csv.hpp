// A small CSV reader for the trace and profile formats: header row, comma separated, optional
// double quotes, blank lines skipped. Errors name the file, line and column.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mosim {

class CsvTable {
 public:
  CsvTable() = default;
  // Rows point back at their table (for file name and column names in errors), so copies and
  // moves re-point them at the new table.
  CsvTable(const CsvTable& other);
  CsvTable(CsvTable&& other) noexcept;
  CsvTable& operator=(const CsvTable& other);
  CsvTable& operator=(CsvTable&& other) noexcept;

  /// Reads the whole file; throws InputError if it cannot be opened, is empty or has no data rows
  /// (unless allow_empty), or a row has more fields than the header.
  static CsvTable read(const std::string& path, bool allow_empty = false);
  /// Parses CSV text; `name` stands in for the file name in messages.
  static CsvTable parse(std::string_view text, const std::string& name, bool allow_empty = false);

  const std::string& path() const { return path_; }
  const std::vector<std::string>& header() const { return header_; }
  std::size_t rows() const { return rows_.size(); }

  /// Index of a column by case-insensitive name, or nullopt.
  std::optional<std::size_t> find(std::string_view column) const;
  /// Index of a required column; throws InputError (line 1) naming it when absent.
  std::size_t require(std::string_view column) const;

  /// One data row with its line number in the file.
  class Row {
   public:
    std::size_t line() const { return line_; }
    /// The raw text of a field, trimmed; empty when the row is shorter than the header.
    std::string_view text(std::size_t column) const;
    /// A finite number; throws InputError naming file, line and column otherwise.
    double number(std::size_t column) const;
    /// A whole number; throws InputError if it is not an integer.
    long long integer(std::size_t column) const;
    /// Throws an InputError about this row and column with the given message.
    [[noreturn]] void fail(std::size_t column, const std::string& message) const;

   private:
    friend class CsvTable;
    const CsvTable* table_ = nullptr;
    std::size_t line_ = 0;
    std::vector<std::string> fields_;
  };

  const Row& row(std::size_t i) const { return rows_[i]; }
  auto begin() const { return rows_.begin(); }
  auto end() const { return rows_.end(); }

 private:
  std::string path_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;

  void relinkRows();
};

}  // namespace mosim
