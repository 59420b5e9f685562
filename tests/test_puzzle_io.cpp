// Puzzle input: every format, every error (with the right line), and random bytes never crash.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "errors.hpp"
#include "puzzle_io.hpp"

using namespace gpuga;

namespace {

const std::string kLine =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

std::vector<Puzzle> parse(const std::string& text) {
  std::istringstream in(text);
  return parse_puzzles(in, "t.txt");
}

// The message of the InputError that parsing `text` throws ("" if none).
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string as_grid(const std::string& line, const char* sep = " ") {
  std::string out;
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) {
      const char ch = line[r * 9 + c];
      out += ch == '.' ? '0' : ch;
      if (c < 8) out += sep;
    }
    out += '\n';
  }
  return out;
}

}  // namespace

TEST(PuzzleIo, ReadsOnePuzzlePerLineWithDotsOrZeros) {
  std::string zeros = kLine;
  for (auto& ch : zeros)
    if (ch == '.') ch = '0';
  const auto ps = parse(kLine + "\n" + zeros + "\n");
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(to_line(ps[0].grid), kLine);
  EXPECT_EQ(to_line(ps[1].grid), kLine);
  EXPECT_EQ(ps[0].line, 1);
  EXPECT_EQ(ps[1].line, 2);
  EXPECT_EQ(ps[1].index, 2);
  EXPECT_EQ(ps[0].grid.cell[2], 3);
  EXPECT_EQ(ps[0].grid.cell[0], 0);
}

TEST(PuzzleIo, ReadsGridsSeparatedByBlankLinesWithSpacesOrTabs) {
  const auto ps = parse(as_grid(kLine) + "\n\n" + as_grid(kLine, " \t  "));
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(to_line(ps[0].grid), kLine);
  EXPECT_EQ(to_line(ps[1].grid), kLine);
  EXPECT_EQ(ps[1].line, 12);
}

TEST(PuzzleIo, SkipsCommentsAndBlankLinesAndAcceptsCrLf) {
  std::string crlf;
  for (char ch : "# a comment\n\n   \n" + as_grid(kLine) + "\n# another\n" + kLine + "\n")
    crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  crlf.pop_back();  // the string literal's terminator
  const auto ps = parse(crlf);
  ASSERT_EQ(ps.size(), 2u);
  EXPECT_EQ(ps[0].line, 4);
  EXPECT_EQ(ps[1].line, 15);
  EXPECT_EQ(to_line(ps[1].grid), kLine);
}

TEST(PuzzleIo, MixedFormatsInOneFile) {
  const auto ps = parse(kLine + "\n" + as_grid(kLine) + kLine + "\n");
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[2].line, 11);
}

TEST(PuzzleIo, IllegalCharacterNamesLineAndColumn) {
  std::string bad = kLine;
  bad[10] = 'x';
  const auto msg = error_of("# header\n" + bad + "\n");
  EXPECT_NE(msg.find("t.txt:2:11:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected"), std::string::npos) << msg;
}

TEST(PuzzleIo, NonPrintableByteIsShownAsHex) {
  std::string bad = kLine;
  bad[0] = '\x01';
  EXPECT_NE(error_of(bad).find("\\x01"), std::string::npos);
}

TEST(PuzzleIo, TooFewAndTooManyCharactersOnALine) {
  auto msg = error_of("\n" + kLine.substr(0, 80) + "\n");
  EXPECT_NE(msg.find("t.txt:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("found 80 characters; expected 81"), std::string::npos) << msg;
  msg = error_of(kLine + "1\n");
  EXPECT_NE(msg.find("t.txt:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("found 82 characters"), std::string::npos) << msg;
}

TEST(PuzzleIo, GridRowWithWrongNumberOfValues) {
  std::string g = as_grid(kLine);
  const auto third = g.find('\n', g.find('\n') + 1) + 1;  // start of row 3
  g.insert(third, "0 ");
  auto msg = error_of(g);
  EXPECT_NE(msg.find("t.txt:3:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("has 10 values; expected 9"), std::string::npos) << msg;
}

TEST(PuzzleIo, GridValueOutOfRange) {
  std::string g = as_grid(kLine);
  g.replace(0, 1, "12");
  const auto msg = error_of(g);
  EXPECT_NE(msg.find("t.txt:1:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("one digit 0-9"), std::string::npos) << msg;
}

TEST(PuzzleIo, GridWithTooFewRows) {
  std::string g = as_grid(kLine);
  g = g.substr(0, 18 * 5) + "\n" + g;  // 5 rows, a blank line, then a full grid
  const auto msg = error_of(g);
  EXPECT_NE(msg.find("t.txt:6:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("has 5 rows; expected 9"), std::string::npos) << msg;
  EXPECT_NE(error_of(as_grid(kLine).substr(0, 18 * 8)).find("has 8 rows"), std::string::npos);
}

TEST(PuzzleIo, ContradictoryGivensNameBothCells) {
  std::string bad = kLine;
  bad[0] = '3';  // r1c1 = 3 while r1c3 = 3
  auto msg = error_of("\n\n" + bad + "\n");
  EXPECT_NE(msg.find("t.txt:3:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("r1c1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("r1c3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("row"), std::string::npos) << msg;
  bad = kLine;
  bad[9 * 8 + 2] = '3';  // r9c3 = 3, same column as r1c3
  msg = error_of(bad);
  EXPECT_NE(msg.find("column"), std::string::npos) << msg;
  bad = kLine;
  bad[9 * 2] = '3';  // r3c1 = 3, same box as r1c3
  msg = error_of(bad);
  EXPECT_NE(msg.find("box"), std::string::npos) << msg;
}

TEST(PuzzleIo, FileWithNoPuzzle) {
  const auto msg = error_of("# only a comment\n\n");
  EXPECT_NE(msg.find("t.txt: no puzzle found"), std::string::npos) << msg;
  EXPECT_NE(error_of("").find("no puzzle found"), std::string::npos);
}

TEST(PuzzleIo, MissingFileAndDirectory) {
  try {
    read_puzzle_file("/nonexistent/p.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/p.txt: cannot open"), std::string::npos);
  }
  EXPECT_THROW(read_puzzle_file("/tmp"), InputError);
}

TEST(PuzzleIo, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string alphabet = "0123456789.. \t\n\n\r#x\x01\xff";
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text;
    const int len = static_cast<int>(rng() % 400);
    const bool raw = trial % 2 == 0;
    for (int i = 0; i < len; ++i)
      text += raw ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
    if (trial % 3 == 0) text = kLine.substr(0, rng() % 82) + text;
    // Either puzzles with every cell in 0-9, or an InputError naming the file; nothing else.
    try {
      for (const auto& p : parse(text))
        for (auto v : p.grid.cell) ASSERT_LE(v, 9);
    } catch (const InputError& e) {
      ASSERT_EQ(std::string(e.what()).rfind("t.txt", 0), 0u) << e.what();
    }
  }
}

TEST(PuzzleIo, PrettyAndLineForms) {
  const auto p = parse(kLine)[0];
  EXPECT_EQ(clue_count(p.grid), 32);
  const auto pretty = to_pretty(p.grid);
  EXPECT_EQ(pretty.substr(0, 22), ". . 3 | . 2 . | 6 . .\n");
  EXPECT_NE(pretty.find("------+-------+------"), std::string::npos);
}
