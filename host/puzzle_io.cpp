#include "puzzle_io.hpp"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "errors.hpp"

namespace gpuga {
namespace {

struct Line {
  int number;
  std::string text;  // without the line ending
};

std::string show_char(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (std::isprint(u)) return std::string("'") + ch + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", u);
  return std::string("byte ") + buf;
}

bool is_blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

bool is_comment(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  return first != std::string::npos && s[first] == '#';
}

bool is_blank_or_comment(const std::string& s) { return is_blank(s) || is_comment(s); }

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool has_inner_space(const std::string& s) {
  return trimmed(s).find_first_of(" \t") != std::string::npos;
}

// Reads the value of one character: 1-9 a digit, 0 or '.' a blank, anything else nullopt.
std::optional<std::uint8_t> cell_value(char ch) {
  if (ch == '.' || ch == '0') return 0;
  if (ch >= '1' && ch <= '9') return static_cast<std::uint8_t>(ch - '0');
  return std::nullopt;
}

class Parser {
 public:
  Parser(std::istream& in, std::string name, ReadMode mode)
      : in_(in), name_(std::move(name)), mode_(mode) {}

  std::vector<Puzzle> run() {
    std::vector<Puzzle> out;
    while (auto line = next_content_line()) {
      Puzzle p;
      p.file = name_;
      p.line = line->number;
      p.index = static_cast<int>(out.size()) + 1;
      if (!has_inner_space(line->text) && trimmed(line->text).size() != kSide)
        parse_one_line(*line, p);
      else
        parse_grid(*line, p);
      if (mode_ == ReadMode::Puzzles) check_givens(p);
      out.push_back(p);
    }
    if (out.empty()) fail(0, 0, "no puzzle found; expected lines of 81 characters or 9x9 grids");
    return out;
  }

 private:
  [[noreturn]] void fail(int line, int col, const std::string& what) const {
    std::ostringstream m;
    m << name_;
    if (line > 0) m << ':' << line;
    if (col > 0) m << ':' << col;
    m << ": " << what;
    throw InputError(m.str());
  }

  std::optional<Line> next_line() {
    std::string text;
    if (!std::getline(in_, text)) {
      if (in_.bad()) fail(0, 0, "read error");
      return std::nullopt;
    }
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return Line{++line_no_, std::move(text)};
  }

  std::optional<Line> next_content_line() {
    while (auto line = next_line())
      if (!is_blank_or_comment(line->text)) return line;
    return std::nullopt;
  }

  // One puzzle on one line: 81 characters, leading and trailing spaces allowed.
  void parse_one_line(const Line& line, Puzzle& p) const {
    const auto start = line.text.find_first_not_of(" \t");
    const std::string body = trimmed(line.text);
    for (std::size_t i = 0; i < body.size() && i < kCells; ++i) {
      const auto v = cell_value(body[i]);
      if (!v)
        fail(line.number, static_cast<int>(start + i + 1),
             "illegal character " + show_char(body[i]) +
                 "; expected a digit 1-9, or 0 or '.' for a blank");
      p.grid.cell[i] = *v;
    }
    if (body.size() != kCells)
      fail(line.number, 0,
           "found " + std::to_string(body.size()) + " characters; expected 81 (one puzzle per "
           "line) or 9 values per line for a 9x9 grid");
  }

  // A 9x9 grid: nine lines of nine values separated by spaces or tabs (or nine digits in a row).
  void parse_grid(Line line, Puzzle& p) {
    for (int r = 0; r < kSide; ++r) {
      if (r > 0) {
        auto next = next_line();
        while (next && is_comment(next->text)) next = next_line();
        if (!next || is_blank(next->text))
          fail(next ? next->number : line_no_, 0,
               "the grid that starts on line " + std::to_string(p.line) + " has " +
                   std::to_string(r) + " rows; expected 9");
        line = *next;
      }
      parse_grid_row(line, r, p);
    }
  }

  void parse_grid_row(const Line& line, int r, Puzzle& p) const {
    int count = 0;
    const std::string& s = line.text;
    const bool packed = !has_inner_space(s);
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == ' ' || s[i] == '\t') continue;
      const bool token_end = packed || i + 1 == s.size() || s[i + 1] == ' ' || s[i + 1] == '\t';
      const auto v = cell_value(s[i]);
      if (!v || !token_end)
        fail(line.number, static_cast<int>(i + 1),
             "illegal value starting with " + show_char(s[i]) +
                 "; expected one digit 0-9 (0 or '.' for a blank) per cell");
      if (count < kSide) p.grid.cell[r * kSide + count] = *v;
      ++count;
    }
    if (count != kSide)
      fail(line.number, 0,
           "grid row " + std::to_string(r + 1) + " has " + std::to_string(count) +
               " values; expected 9");
  }

  void check_givens(const Puzzle& p) const {
    static const char* kKind[] = {"row", "column", "box"};
    for (int u = 0; u < kUnits; ++u) {
      int seen_at[10];
      std::fill(std::begin(seen_at), std::end(seen_at), -1);
      for (int k = 0; k < kSide; ++k) {
        const int c = unit_cell(u, k);
        const int v = p.grid.cell[c];
        if (v == 0) continue;
        if (seen_at[v] >= 0) {
          const int a = seen_at[v];
          fail(p.line, 0,
               "contradictory givens in puzzle " + std::to_string(p.index) + ": " +
                   std::to_string(v) + " at r" + std::to_string(row_of(a) + 1) + "c" +
                   std::to_string(col_of(a) + 1) + " and at r" + std::to_string(row_of(c) + 1) +
                   "c" + std::to_string(col_of(c) + 1) + ", in the same " + kKind[u / 9] +
                   "; expected each digit at most once per row, column and box");
        }
        seen_at[v] = c;
      }
    }
  }

  std::istream& in_;
  std::string name_;
  ReadMode mode_;
  int line_no_ = 0;
};

}  // namespace

std::vector<Puzzle> parse_puzzles(std::istream& in, const std::string& name, ReadMode mode) {
  return Parser(in, name, mode).run();
}

std::vector<Puzzle> read_puzzle_file(const std::string& path, ReadMode mode) {
  if (path == "-") return parse_puzzles(std::cin, "<stdin>", mode);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path + ": is a directory; expected a puzzle file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  return parse_puzzles(in, path, mode);
}

std::vector<Puzzle> read_puzzle_files(const std::vector<std::string>& paths, ReadMode mode) {
  std::vector<Puzzle> all;
  for (const auto& path : paths) {
    auto some = read_puzzle_file(path, mode);
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

int clue_count(const Grid& g) {
  int n = 0;
  for (auto v : g.cell) n += v != 0;
  return n;
}

std::string to_line(const Grid& g) {
  std::string s(kCells, '.');
  for (int c = 0; c < kCells; ++c)
    if (g.cell[c]) s[c] = static_cast<char>('0' + g.cell[c]);
  return s;
}

std::string to_pretty(const Grid& g) {
  std::string out;
  for (int r = 0; r < kSide; ++r) {
    if (r == 3 || r == 6) out += "------+-------+------\n";
    for (int c = 0; c < kSide; ++c) {
      if (c == 3 || c == 6) out += "| ";
      const int v = g.cell[r * kSide + c];
      out += v ? static_cast<char>('0' + v) : '.';
      out += c == 8 ? '\n' : ' ';
    }
  }
  return out;
}

}  // namespace gpuga
