#pragma once
// CSV as RFC 4180 writes it: fields quoted when they hold a comma, quote or line break. Rows are
// flushed as they are written, so an interrupted writer leaves every finished row readable.
#include <fstream>
#include <string>
#include <vector>

namespace gpuga {

std::string csv_field(const std::string& s);
std::string csv_line(const std::vector<std::string>& fields);
// Splits one line written by csv_line back into fields.
std::vector<std::string> csv_split(const std::string& line);

// The complete rows of a CSV file (a last line without its line ending, as a crash leaves it,
// is not complete); the header is row 0. Throws InputError if the file cannot be read.
std::vector<std::vector<std::string>> read_csv_rows(const std::string& path);

// Cuts a last line that has no line ending (a row a crash cut short), so appending stays valid.
void drop_partial_last_line(const std::string& path);

class CsvWriter {
 public:
  // Appends to `path` (creating it); writes `header` first when the file is new or empty.
  CsvWriter(const std::string& path, const std::vector<std::string>& header);
  void row(const std::vector<std::string>& fields);

 private:
  std::ofstream out_;
  std::string path_;
};

}  // namespace gpuga
