#pragma once
// CSV as RFC 4180 writes it: fields quoted when they hold a comma, quote or line break. Rows are
// flushed as they are written, so an interrupted writer leaves every finished row readable.
#include <fstream>
#include <string>
#include <vector>

namespace gpuga {

std::string csv_field(const std::string& s);
std::string csv_line(const std::vector<std::string>& fields);
// The fields of one row as csv_line writes it (line breaks inside quotes are the field's).
std::vector<std::string> csv_split(const std::string& line);

// CSV text's complete rows, each ended by a line break (LF or CRLF; one inside quotes belongs to
// its field): a last row without one, as a crash leaves it, is not complete. Blank lines are
// skipped. The header is row 0.
struct CsvRows {
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;    // the 1-based line of the file each row starts on, for messages
  std::size_t complete = 0;  // the bytes the complete rows (and blank lines) take
};
CsvRows parse_csv(const std::string& text);

// A file's complete rows (above); InputError if it cannot be read.
CsvRows read_csv(const std::string& path);
std::vector<std::vector<std::string>> read_csv_rows(const std::string& path);  // rows only

// Cuts a last row that has no line ending (a row a crash cut short), so appending stays valid.
void drop_partial_last_line(const std::string& path);

class CsvWriter {
 public:
  // Appends to `path` (creating it); writes `header` first when the file is new or empty, and
  // throws InputError when a file that is neither has another header.
  CsvWriter(const std::string& path, const std::vector<std::string>& header);
  void row(const std::vector<std::string>& fields);

 private:
  std::ofstream out_;
  std::string path_;
};

}  // namespace gpuga
