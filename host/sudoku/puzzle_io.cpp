#include "gpuga/sudoku/puzzle_io.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "gpuga/errors.hpp"
#include "gpuga/sudoku/text_marks.hpp"

namespace gpuga {
namespace {

constexpr int kSides[] = {4, 9, 16, 25, 36, 49, 64};

struct Line {
  int number;
  std::string text;  // without the line ending
};

struct Token {
  std::string text;
  int col;  // 1-based
};

std::string show_char(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (std::isprint(u)) return std::string("'") + ch + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", u);
  return std::string("byte ") + buf;
}

bool is_space(char ch) { return ch == ' ' || ch == '\t'; }

// UTF-8: the bytes a character starting with `lead` takes (1 for ASCII or a stray byte), the
// characters of a text, and the first byte of one past ASCII (npos: none).
std::size_t utf8_bytes(char lead) {
  const auto u = static_cast<unsigned char>(lead);
  return u >= 0xF0 ? 4 : u >= 0xE0 ? 3 : u >= 0xC0 ? 2 : 1;
}
std::size_t characters_in(const std::string& text) {
  std::size_t n = 0;
  for (const char ch : text) n += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return n;
}
std::size_t first_multibyte(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i)
    if (static_cast<unsigned char>(text[i]) >= 0x80) return i;
  return std::string::npos;
}

bool is_blank(const std::string& s) { return s.find_first_not_of(" \t") == std::string::npos; }

bool is_comment(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  return first != std::string::npos && s[first] == '#';
}

// A line's values; a lone '|' (to_pretty's box separator) is none.
std::vector<Token> tokens_of(const std::string& s) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < s.size();) {
    if (is_space(s[i])) {
      ++i;
      continue;
    }
    const std::size_t b = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i - b == 1 && s[b] == '|') continue;
    out.push_back({s.substr(b, i - b), static_cast<int>(b + 1)});
  }
  return out;
}

// A rule between bands of a grid, as to_pretty writes it ("------+-------+------").
bool is_rule(const std::string& s) {
  return s.find('-') != std::string::npos && s.find_first_not_of("-+| \t") == std::string::npos;
}

constexpr const char* kSideList = "4, 9, 16, 25, 36, 49 or 64";

bool is_side(std::size_t k) { return std::find(std::begin(kSides), std::end(kSides), k) != std::end(kSides); }

// The side of a puzzle of `cells` cells, or 0.
int side_of_cells(std::size_t cells) {
  for (int n : kSides)
    if (std::size_t(n) * n == cells) return n;
  return 0;
}

int box_of_side(int n) {
  int box = kMinBox;
  while (box * box < n) ++box;
  return box;
}

std::string size_of_side(int n) { return std::to_string(n) + "x" + std::to_string(n); }

// What the characters of a one-line puzzle of 16x16 or more say of its alphabet: the first column
// of a character only the one alphabet has, and of one only the other has (0: none). 49x49 and
// 64x64 have one alphabet (both the same).
struct Evidence {
  Alphabet first, second;
  int first_col = 0, second_col = 0;
  int illegal_col = 0;  // a character neither alphabet has
};

Evidence evidence_of(const std::string& body, int n) {
  Evidence e = n == 16   ? Evidence{Alphabet::HexZero, Alphabet::AlnumOne}
               : n == 25 ? Evidence{Alphabet::Lower, Alphabet::Upper}
               : n == 36 ? Evidence{Alphabet::HexZero, Alphabet::Alnum64}
                         : Evidence{Alphabet::Alnum64, Alphabet::Alnum64};
  for (std::size_t i = 0; i < body.size(); ++i) {
    const char ch = body[i];
    const bool first = char_value(ch, e.first, n) >= 0, second = char_value(ch, e.second, n) >= 0;
    if (!first && !second && !e.illegal_col) e.illegal_col = static_cast<int>(i + 1);
    if (first && !second && !e.first_col) e.first_col = static_cast<int>(i + 1);
    if (second && !first && !e.second_col) e.second_col = static_cast<int>(i + 1);
  }
  return e;
}

std::string expected_chars(Alphabet a, int n) {
  if (n <= 9) return "a digit 1-" + std::to_string(n) + ", or 0 or '.' for a blank";
  return alphabet_name(a, n) + " for the values 1-" + std::to_string(n) +
         ", or '.' for a blank";
}

// The longest line read: a 64x64 puzzle as numbers is under 13,000 bytes.
constexpr std::size_t kMaxLineBytes = 65536;

class Parser {
 public:
  Parser(std::istream& in, std::string name, ReadMode mode)
      : in_(in), name_(std::move(name)), mode_(mode) {}

  std::vector<Puzzle> run() {
    std::vector<Puzzle> out;
    std::vector<std::size_t> pending;  // one-line puzzles whose characters fit either alphabet
    while (auto line = next_content_line()) {
      Puzzle p;
      p.file = name_;
      p.line = line->number;
      p.index = static_cast<int>(out.size()) + 1;
      if (!read_puzzle(*line, p)) pending.push_back(out.size());
      else if (mode_ == ReadMode::Puzzles) check_givens(p);
      out.push_back(std::move(p));
    }
    if (out.empty())
      fail(0, 0, "no puzzle found; expected lines of 81 characters or 9x9 grids (or 4x4, 16x16, "
                 "25x25, 36x36, 49x49, 64x64)");
    for (std::size_t k : pending) {
      Puzzle& p = out[k];
      const auto alphabet = alphabets_.find(p.grid.side());
      if (alphabet == alphabets_.end())
        fail(p.line, 0, "cannot tell the alphabet: puzzle " + std::to_string(p.index) +
                            " holds only 1-9 and '.', which " + alphabet_name(Alphabet::HexZero, 16) +
                            " and " + alphabet_name(Alphabet::AlnumOne, 16) + " read differently, "
                            "and no " + size_of_side(p.grid.side()) + " puzzle of the file "
                            "decides; expected a 0 or a-f, or A-G");
      const auto& [line, offset] = raw_.at(k);
      decode(line, offset, alphabet->second, p);
      if (mode_ == ReadMode::Puzzles) check_givens(p);
    }
    return out;
  }

 private:
  // Where column `col` of `line` is in the file: a lettered grid is read as its characters on
  // one line (grid_rows_ set meanwhile), whose k-th character is a row's own line and column.
  std::pair<int, int> place(const Line& line, int col) const {
    if (!grid_rows_ || col < 1) return {line.number, col};
    const auto& rows = *grid_rows_;
    const std::size_t n = rows.size(), at = static_cast<std::size_t>(col - 1);
    const Line& row = rows.at(at / n).second;
    return {row.number, tokens_of(row.text).at(at % n).col};
  }
  [[noreturn]] void fail_at(const Line& line, int col, const std::string& what) const {
    const auto [number, column] = place(line, col);
    fail(number, column, what);
  }
  std::string column_text(const Line& line, int col) const {
    const auto [number, column] = place(line, col);
    return grid_rows_ ? "line " + std::to_string(number) + ", column " + std::to_string(column)
                      : "column " + std::to_string(column);
  }

  [[noreturn]] void fail(int line, int col, const std::string& what) const {
    std::ostringstream m;
    m << name_;
    if (line > 0) m << ':' << line;
    if (col > 0) m << ':' << col;
    m << ": " << what;
    throw InputError(m.str());
  }

  // A line without its end; a UTF-8 byte-order mark before the first is dropped. A line is read
  // with a bound, so that a file with no line ends (/dev/zero) is refused, not held in memory.
  std::optional<Line> next_line() {
    std::string text;
    bool any = false;
    for (int c; (c = in_.get()) != std::char_traits<char>::eof();) {
      any = true;
      if (c == '\n') break;
      if (text.size() == kMaxLineBytes)
        fail(line_no_ + 1, 0, "a line of over " + std::to_string(kMaxLineBytes) + " bytes; "
                              "expected a puzzle line (at most 4,096 values) or a comment");
      text.push_back(static_cast<char>(c));
    }
    if (in_.bad()) fail(0, 0, "read error");
    if (!any) return std::nullopt;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (line_no_ == 0 && starts_with_utf8_mark(text)) text.erase(0, kUtf8Mark.size());
    if (line_no_ == 0 && starts_with_utf16_mark(text))
      fail(1, 0, "UTF-16 text (its byte-order mark says so); expected UTF-8 or ASCII: save the file as UTF-8");
    if (text.find('\0') != std::string::npos)
      fail(line_no_ + 1, static_cast<int>(text.find('\0')) + 1,
           "a NUL byte (UTF-16 text, or not text at all); expected UTF-8 or ASCII text");
    return Line{++line_no_, std::move(text)};
  }

  std::optional<Line> next_content_line() {
    while (auto line = next_line())
      if (!is_blank(line->text) && !is_comment(line->text)) return line;
    return std::nullopt;
  }

  // One puzzle from its first line on. False when it is a line of characters that either
  // alphabet of its size reads (decoded once the file has said which).
  bool read_puzzle(const Line& line, Puzzle& p) {
    const auto toks = tokens_of(line.text);
    if (toks.size() == 1) {
      const std::size_t len = toks[0].text.size();
      // A character of several bytes (UTF-8 '·') is no cell's: named as the character it is,
      // at its column in characters, not counted as bytes.
      if (const std::size_t at = first_multibyte(toks[0].text); at != std::string::npos)
        fail(line.number, toks[0].col + static_cast<int>(characters_in(toks[0].text.substr(0, at))),
             "illegal character '" + toks[0].text.substr(at, utf8_bytes(toks[0].text[at])) + "' (" +
                 std::to_string(characters_in(toks[0].text)) + " characters on the line); expected " +
                 (characters_in(toks[0].text) <= 81 ? expected_chars(Alphabet::Digits, 9) : "a puzzle's alphabet") + " only");
      if (len == 4 || len == 9) return parse_grid(line, static_cast<int>(len), p);
      if (const int n = side_of_cells(len)) return parse_one_line(line, toks[0], n, p);
      fail(line.number, 0, "found " + std::to_string(len) + " characters; expected " +
                               nearest_line_length(len) + ", or a grid of " + kSideList +
                               " values per row");
    }
    if (toks.size() > 25 && !is_side(toks.size())) {
      const int n = side_of_cells(toks.size());
      if (!n)
        fail(line.number, 0, "found " + std::to_string(toks.size()) + " values; expected 81, 256, "
                                 "625, 1296, 2401 or 4096 for a puzzle on one line, or " +
                                 kSideList + " per grid row");
      set_size(n, p);
      p.alphabet = Alphabet::Numbers;
      for (std::size_t i = 0; i < toks.size(); ++i) p.grid.cell[i] = value_of(line, toks[i], n);
      return true;
    }
    return parse_grid(line, static_cast<int>(toks.size()), p);
  }

  static std::string nearest_line_length(std::size_t len) {
    int best = 9;
    for (int n : kSides)
      if (std::abs(long(n) * n - long(len)) < std::abs(long(best) * best - long(len))) best = n;
    return std::to_string(best * best) + " (a " + size_of_side(best) + " puzzle on one line; " +
           "16, 81, 256, 625, 1296, 2401 and 4096 for 4x4 to 64x64)";
  }

  // A puzzle of n x n cells (a file may mix sizes: each puzzle is planned for its own).
  static void set_size(int n, Puzzle& p) { p.grid = Grid(box_of_side(n)); }

  // A puzzle on one line of n * n characters, leading and trailing spaces allowed.
  bool parse_one_line(const Line& line, const Token& tok, int n, Puzzle& p) {
    set_size(n, p);
    if (n <= 9) {
      decode(line, tok.col - 1, Alphabet::Digits, p);
      return true;
    }
    const Evidence e = evidence_of(tok.text, n);
    if (e.illegal_col)
      fail_at(line, tok.col - 1 + e.illegal_col,
           "illegal character " + show_char(tok.text[e.illegal_col - 1]) + "; expected " +
               (e.first == e.second ? alphabet_name(e.first, n)
                                    : alphabet_name(e.first, n) + " or " + alphabet_name(e.second, n)) +
               " for the values 1-" + std::to_string(n) + ", or '.' for a blank");
    if (e.first_col && e.second_col)
      fail_at(line, tok.col - 1 + e.second_col,
           "mixed alphabet: " + show_char(tok.text[e.second_col - 1]) + " of " +
               alphabet_name(e.second, n) + " after " + show_char(tok.text[e.first_col - 1]) +
               " (" + column_text(line, tok.col - 1 + e.first_col) + ") of " +
               alphabet_name(e.first, n) + "; expected one alphabet");
    std::optional<Alphabet> here;
    const auto earlier = alphabets_.find(n);
    if (e.first_col || e.second_col || n == 25) here = e.second_col ? e.second : e.first;
    // From 36x36 up, a line of digits alone reads the same in either alphabet: it takes the
    // file's, or the first.
    if (!here && n >= 36) here = earlier != alphabets_.end() ? earlier->second : e.first;
    if (here && earlier != alphabets_.end() && *here != earlier->second)
      fail(line.number, 0, "this puzzle is written in " + alphabet_name(*here, n) +
                               ", an earlier one in " + alphabet_name(earlier->second, n) +
                               "; expected one alphabet for a file's " + size_of_side(n) + " puzzles");
    if (!here) {
      raw_.emplace(p.index - 1, std::make_pair(line, tok.col - 1));
      return false;
    }
    alphabets_[n] = *here;
    decode(line, tok.col - 1, *here, p);
    return true;
  }

  // The characters of a one-line puzzle (from column `offset` + 1 of its line) in alphabet a.
  void decode(const Line& line, int offset, Alphabet a, Puzzle& p) const {
    const std::string body = line.text.substr(static_cast<std::size_t>(offset));
    const int n = p.grid.side();
    p.alphabet = a;
    for (int i = 0; i < p.grid.cells(); ++i) {
      const int v = char_value(body[i], a, n);
      if (v < 0)
        fail_at(line, offset + i + 1,
                "illegal character " + show_char(body[i]) + "; expected " + expected_chars(a, n));
      p.grid.cell[i] = static_cast<std::uint8_t>(v);
    }
  }

  int value_of(const Line& line, const Token& tok, int n) const {
    const int v = token_value(tok.text, n);
    if (v < 0)
      fail(line.number, tok.col,
           n <= 9 ? "illegal value starting with " + show_char(tok.text[0]) + "; expected one "
                        "digit 0-" + std::to_string(n) + " (0 or '.' for a blank) per cell"
                  : "illegal value '" + tok.text + "'; expected a number 1-" + std::to_string(n) +
                        ", or 0 or '.' for a blank");
    return v;
  }

  // An n x n grid: n lines of n values separated by spaces or tabs (4x4 and 9x9: or n digits in
  // a row), with or without to_pretty's '|' between boxes and rules between bands.
  // Past 9x9 a grid of single characters with a letter or a '0' in it (to_pretty of a lettered
  // alphabet) reads as its characters on one line would; false as parse_one_line says.
  bool parse_grid(Line line, int n, Puzzle& p) {
    if (!is_side(n))
      fail(line.number, 0, "grid row 1 has " + std::to_string(n) + " values; expected " +
                               kSideList + " (or 16, 81, 256, 625, 1296, 2401 or 4096 characters "
                               "for a puzzle on one line)");
    set_size(n, p);
    p.alphabet = n <= 9 ? Alphabet::Digits : Alphabet::Numbers;
    // Rows (their index and line) that may be a lettered grid's, all of them when it is one.
    std::vector<std::pair<int, Line>> waiting;
    std::string characters;     // their characters, in order
    for (int r = 0; r < n; ++r) {
      if (r > 0) {
        auto next = next_line();
        while (next && (is_comment(next->text) || is_rule(next->text))) next = next_line();
        if (!next || is_blank(next->text))
          fail(next ? next->number : line_no_, 0,
               r == 1 ? "a line of " + std::to_string(n) + " values, read as the first row of a " +
                            size_of_side(n) + " grid, and no row after it; expected a grid of " +
                            std::to_string(n) + " rows, or a puzzle on one line of 16, 81, "
                            "256, 625, 1296, 2401 or 4096 cells"
                      : "the grid that starts on line " + std::to_string(p.line) + " ends after " +
                            std::to_string(r) + " rows; expected " + std::to_string(n));
        line = *next;
      }
      // A row that may be a lettered grid's waits for the whole grid; any other is read now, so
      // that its error comes before the next row is asked for.
      if (!single_characters(line, n)) {
        parse_grid_row(line, r, p);
        continue;
      }
      waiting.emplace_back(r, line);
      for (const Token& t : tokens_of(line.text)) characters += t.text;
    }
    if (waiting.size() == std::size_t(n) && characters.find_first_not_of("123456789.") != std::string::npos) {
      // A lettered grid: each row its n characters, said at its own line; then read whole, its
      // errors placed at their rows (place()).
      for (const auto& [r, row] : waiting)
        if (const std::size_t count = tokens_of(row.text).size(); count != std::size_t(n))
          fail(row.number, 0, "grid row " + std::to_string(r + 1) + " has " + std::to_string(count) +
                                  " values; expected " + std::to_string(n));
      const Line whole{waiting.front().second.number, characters};
      grid_rows_ = &waiting;
      const bool decided = parse_one_line(whole, Token{characters, 1}, n, p);
      grid_rows_ = nullptr;
      return decided;
    }
    for (const auto& [r, row] : waiting) parse_grid_row(row, r, p);
    return true;
  }

  // A row past 9x9 whose values are single characters.
  static bool single_characters(const Line& row, int n) {
    if (n <= 9) return false;
    for (const Token& t : tokens_of(row.text))
      if (t.text.size() != 1) return false;
    return true;
  }

  void parse_grid_row(const Line& line, int r, Puzzle& p) const {
    const int n = p.grid.side();
    auto toks = tokens_of(line.text);
    if (toks.size() == 1 && n <= 9 && toks[0].text.size() > 1) {  // packed digits
      const Token whole = toks[0];
      toks.clear();
      for (std::size_t i = 0; i < whole.text.size(); ++i)
        toks.push_back({whole.text.substr(i, 1), whole.col + static_cast<int>(i)});
    }
    for (std::size_t k = 0; k < toks.size() && k < std::size_t(n); ++k)
      p.grid.cell[r * n + k] = static_cast<std::uint8_t>(value_of(line, toks[k], n));
    if (toks.size() != std::size_t(n))
      fail(line.number, 0,
           "grid row " + std::to_string(r + 1) + " has " + std::to_string(toks.size()) +
               " values; expected " + std::to_string(n));
  }

  void check_givens(const Puzzle& p) const {
    static const char* kKind[] = {"row", "column", "box"};
    const Grid& g = p.grid;
    const auto clash = first_clash(g);
    if (!clash) return;
    const int a = clash->first, c = clash->second;
    fail(p.line, 0,
         "contradictory givens in puzzle " + std::to_string(p.index) + ": " +
             value_text(g.cell[c], p.alphabet, g.side()) + " at r" +
             std::to_string(g.row_of(a) + 1) + "c" + std::to_string(g.col_of(a) + 1) +
             " and at r" + std::to_string(g.row_of(c) + 1) + "c" + std::to_string(g.col_of(c) + 1) +
             ", in the same " + kKind[clash->unit / g.side()] +
             "; expected each value at most once per row, column and box");
  }

  const std::vector<std::pair<int, Line>>* grid_rows_ = nullptr;  // a lettered grid's rows, read whole
  std::istream& in_;
  std::string name_;
  ReadMode mode_;
  int line_no_ = 0;
  std::map<int, Alphabet> alphabets_;  // lines of 16x16 up: by side, the file's alphabet once one says
  std::map<std::size_t, std::pair<Line, int>> raw_;  // pending puzzles' lines and offsets
};

}  // namespace

std::vector<Puzzle> parse_puzzles(std::istream& in, const std::string& name, ReadMode mode) {
  return Parser(in, name, mode).run();
}

std::vector<Puzzle> read_puzzle_file(const std::string& path, ReadMode mode) {
  if (path == "-") return parse_puzzles(std::cin, "<stdin>", mode);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path + ": is a folder; expected a puzzle file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  return parse_puzzles(in, path, mode);
}

std::vector<Puzzle> read_puzzle_files(const std::vector<std::string>& paths, ReadMode mode) {
  GPUGA_INPUT_CHECK(std::count(paths.begin(), paths.end(), "-") <= 1,
                    "- given " + std::to_string(std::count(paths.begin(), paths.end(), "-")) +
                        " times: standard input is read once; expected it once (a file may be "
                        "given twice)");
  std::vector<Puzzle> all;
  for (const auto& path : paths) {
    auto some = read_puzzle_file(path, mode);
    all.insert(all.end(), some.begin(), some.end());
  }
  return all;
}

int clue_count(const Grid& g) { return g.cells() - static_cast<int>(g.blanks()); }

std::uint32_t most_free_cells(const std::vector<Puzzle>& puzzles, int box) {
  std::uint32_t most = 0;
  for (const Puzzle& p : puzzles)
    if (p.grid.box == box) most = std::max(most, p.grid.blanks());
  return most;
}

std::string to_line(const Grid& g, Alphabet a) {
  const int n = g.side();
  if (a == Alphabet::Numbers && n > 9) {
    std::string s;
    for (int c = 0; c < g.cells(); ++c) {
      if (c) s += ' ';
      s += value_text(g.cell[c], a, n);
    }
    return s;
  }
  std::string s(g.cells(), '.');
  for (int c = 0; c < g.cells(); ++c) s[c] = value_char(g.cell[c], a);
  return s;
}

std::string to_pretty(const Grid& g, Alphabet a) {
  const int n = g.side(), b = g.box;
  const std::size_t width = a == Alphabet::Numbers && n > 9 ? 2 : 1;
  std::string rule;
  for (int s = 0; s < b; ++s) rule += (s ? "-+-" : "") + std::string(b * (width + 1) - 1, '-');
  std::string out;
  for (int r = 0; r < n; ++r) {
    if (r > 0 && r % b == 0) out += rule + "\n";
    for (int c = 0; c < n; ++c) {
      if (c > 0 && c % b == 0) out += "| ";
      const std::string v = value_text(g.cell[r * n + c], a, n);
      out += std::string(width - v.size(), ' ') + v;
      out += c == n - 1 ? '\n' : ' ';
    }
  }
  return out;
}

std::string size_name(const Grid& g) { return size_of_side(g.side()); }

}  // namespace gpuga
