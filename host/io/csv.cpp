#include "gpuga/csv.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "gpuga/errors.hpp"
#include "gpuga/output_path.hpp"
#include "gpuga/sudoku/text_marks.hpp"

namespace gpuga {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  if (fields.size() == 1 && fields[0].empty()) return "\"\"";  // not a blank line, which is no row
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += csv_field(fields[i]);
  }
  return line;
}

namespace {

// One record from `at`: its fields and where the next one starts, past the line break that ends
// it (a quoted one belongs to its field); `ended` false when the text ends first. A quote opens
// or closes quoting wherever it stands, "" inside quotes is one quote, and an unquoted CR before
// the line break is dropped.
struct Record {
  std::vector<std::string> fields{1};
  std::size_t next = 0;
  bool ended = false;
};

Record read_record(const std::string& text, std::size_t at) {
  Record r;
  bool quoted = false;
  for (std::size_t i = at; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted && ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
      r.fields.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (quoted) {
      r.fields.back() += ch;
    } else if (ch == ',') {
      r.fields.emplace_back();
    } else if (ch == '\n' || (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      r.next = i + (ch == '\r' ? 2 : 1);
      r.ended = true;
      return r;
    } else {
      r.fields.back() += ch;
    }
  }
  r.next = text.size();
  return r;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

}  // namespace

std::vector<std::string> csv_split(const std::string& line) { return read_record(line, 0).fields; }

CsvRows parse_csv(const std::string& text) {
  CsvRows out;
  int line = 1;
  // A UTF-8 byte-order mark (a spreadsheet's "CSV UTF-8") is no part of the first field.
  const std::size_t start = starts_with_utf8_mark(text) ? kUtf8Mark.size() : 0;
  for (std::size_t at = start; at < text.size();) {
    const Record r = read_record(text, at);
    if (!r.ended) break;  // cut short: not a row yet
    const bool blank = r.next - at <= 2 && r.fields.size() == 1 && r.fields[0].empty();
    if (!blank) {
      out.rows.push_back(r.fields);
      out.lines.push_back(line);
    }
    line += static_cast<int>(std::count(text.begin() + at, text.begin() + r.next, '\n'));
    at = out.complete = r.next;
  }
  return out;
}

CsvRows read_csv(const std::string& path) { return parse_csv(read_all(path)); }

std::vector<std::vector<std::string>> read_csv_rows(const std::string& path) {
  return read_csv(path).rows;
}

void drop_partial_last_line(const std::string& path) {
  const std::string text = read_all(path);
  const std::size_t complete = parse_csv(text).complete;
  if (complete < text.size()) std::filesystem::resize_file(path, complete);
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& header)
    : path_(path) {
  std::error_code ec;
  // A device or a pipe (no size to read) takes the header as a new file does.
  const bool fresh = !std::filesystem::is_regular_file(path, ec) || std::filesystem::file_size(path, ec) == 0;
  if (!fresh) {  // rows of another layout would make the whole file unreadable
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    if (starts_with_utf8_mark(first)) first.erase(0, kUtf8Mark.size());
    if (first.ends_with('\r')) first.pop_back();
    GPUGA_INPUT_CHECK(first == csv_line(header),
                      path + ":1: the header is not " + csv_line(header).substr(0, 60) +
                          "...; expected this version's (a file written by an older one is kept "
                          "as it is: write to a new one)");
  }
  out_.open(path, std::ios::binary | std::ios::app);
  if (!out_) throw InputError(path + ": cannot write: " + std::strerror(errno));
  if (fresh) row(header);
}

void CsvWriter::row(const std::vector<std::string>& fields) {
  errno = 0;
  out_ << csv_line(fields) << '\n' << std::flush;
  if (!out_)
    throw RuntimeFailure(path_ + ": cannot write a row (" + write_failure_reason() + "); the rows "
                         "before it are kept (a cut row is dropped by --resume, which goes on)");
}

}  // namespace gpuga
