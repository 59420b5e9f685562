#include "gpuga/csv.hpp"

#include <cstring>
#include <filesystem>
#include <sstream>

#include "gpuga/errors.hpp"

namespace gpuga {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) line += ',';
    line += csv_field(fields[i]);
  }
  return line;
}

std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted && ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (ch == '"') {
      quoted = !quoted;
    } else if (ch == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += ch;
    }
  }
  return out;
}

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

}  // namespace

std::vector<std::vector<std::string>> read_csv_rows(const std::string& path) {
  const std::string text = read_all(path);
  std::vector<std::vector<std::string>> rows;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    std::string line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) rows.push_back(csv_split(line));
  }
  return rows;
}

void drop_partial_last_line(const std::string& path) {
  const std::string text = read_all(path);
  if (text.empty() || text.back() == '\n') return;
  const auto last_nl = text.rfind('\n');
  std::filesystem::resize_file(path, last_nl == std::string::npos ? 0 : last_nl + 1);
}

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& header)
    : path_(path) {
  std::error_code ec;
  const bool fresh = !std::filesystem::exists(path, ec) || std::filesystem::file_size(path, ec) == 0;
  out_.open(path, std::ios::binary | std::ios::app);
  if (!out_) throw InputError(path + ": cannot write: " + std::strerror(errno));
  if (fresh) row(header);
}

void CsvWriter::row(const std::vector<std::string>& fields) {
  out_ << csv_line(fields) << '\n' << std::flush;
  if (!out_) throw RuntimeFailure(path_ + ": write failed");
}

}  // namespace gpuga
