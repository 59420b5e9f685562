// Puzzle input: every format, every error (with the right line), and random bytes never crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "gpuga/errors.hpp"
#include "grids.hpp"
#include "paths.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"

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
  EXPECT_NE(msg.find("ends after 5 rows; expected 9"), std::string::npos) << msg;
  EXPECT_NE(error_of(as_grid(kLine).substr(0, 18 * 8)).find("ends after 8 rows"), std::string::npos);
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

namespace {

std::string first_line(const std::string& file) {
  std::ifstream in(source_path(std::string("puzzles/") + file));
  std::string line;
  std::getline(in, line);
  return line;
}

// A 16x16 line from 0-9a-f into 1-9A-G: the same values in the other alphabet.
std::string to_alnum(const std::string& hex) {
  std::string out = hex;
  for (auto& ch : out)
    if (ch != '.') {
      const int v = ch <= '9' ? ch - '0' + 1 : ch - 'a' + 11;
      ch = static_cast<char>(v <= 9 ? '0' + v : 'A' + v - 10);
    }
  return out;
}

}  // namespace

TEST(PuzzleIoLarge, SixteenBySixteenInEitherAlphabetIsOneGrid) {
  const std::string hex = first_line("acs_16x16_unique_fixed055-060.txt");
  ASSERT_EQ(hex.size(), 256u);
  const auto a = parse(hex)[0], b = parse(to_alnum(hex))[0];
  EXPECT_EQ(a.grid.box, 4);
  EXPECT_EQ(a.alphabet, Alphabet::HexZero);
  EXPECT_EQ(b.alphabet, Alphabet::AlnumOne);
  EXPECT_EQ(a.grid, b.grid);
  for (int c = 0; c < 256; ++c) {
    const char ch = hex[c];
    const int v = ch == '.' ? 0 : ch <= '9' ? ch - '0' + 1 : ch - 'a' + 11;
    ASSERT_EQ(a.grid.cell[c], v) << c;
  }
  EXPECT_EQ(to_line(a.grid, a.alphabet), hex);  // output in the input's alphabet
  EXPECT_EQ(to_line(b.grid, b.alphabet), to_alnum(hex));
}

TEST(PuzzleIoLarge, TwentyFiveByTwentyFiveLowerOrUpper) {
  const std::string lower = first_line("acs_25x25_unique_fixed065-070.txt");
  ASSERT_EQ(lower.size(), 625u);
  std::string upper = lower;
  for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  const auto a = parse(lower)[0], b = parse(upper)[0];
  EXPECT_EQ(a.grid.box, 5);
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.grid.cell[lower.find('y')], 25);
  EXPECT_EQ(to_line(b.grid, b.alphabet), upper);
}

TEST(PuzzleIoLarge, GridsOfNumbersAndFourByFour) {
  const auto hex = parse(first_line("acs_16x16_unique_fixed055-060.txt"))[0];
  std::string text;
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) {
      const int v = hex.grid.cell[r * 16 + c];
      text += (c ? "\t" : "") + (v ? std::to_string(v) : std::string(r % 2 ? "0" : "."));
    }
    text += '\n';
  }
  const auto g = parse("# numbers\n" + text)[0];
  EXPECT_EQ(g.grid, hex.grid);
  EXPECT_EQ(g.alphabet, Alphabet::Numbers);
  EXPECT_EQ(g.line, 2);
  const auto back = parse(to_line(g.grid, g.alphabet))[0];  // one line of 256 numbers
  EXPECT_EQ(back.grid, hex.grid);
  const auto four = parse("1.3.3...2..3...1\n1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n12.4\n3412\n2143\n4321\n");
  ASSERT_EQ(four.size(), 3u);
  EXPECT_EQ(four[0].grid.box, 2);
  EXPECT_EQ(to_line(four[0].grid), "1.3.3...2..3...1");
  EXPECT_EQ(to_line(four[1].grid), "1234341221434321");
  EXPECT_EQ(four[2].line, 6);
  EXPECT_EQ(to_pretty(four[1].grid), "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n");
}

TEST(PuzzleIoLarge, AlphabetAndSizeErrorsNameTheLine) {
  const std::string hex = first_line("acs_16x16_unique_fixed055-060.txt");
  std::string mixed = hex;
  mixed[hex.find('e')] = 'G';  // 1-9A-G in a line of 0-9a-f
  auto msg = error_of("\n" + mixed + "\n");
  EXPECT_NE(msg.find("t.txt:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("mixed alphabet"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'G'"), std::string::npos) << msg;
  msg = error_of(hex + "\n" + to_alnum(hex) + "\n");
  EXPECT_NE(msg.find("t.txt:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("one alphabet for a file's 16x16 puzzles"), std::string::npos) << msg;
  // Only 1-9 and '.': either alphabet reads it, differently. Alone it is refused; after a line
  // that decides, it takes that alphabet.
  std::string plain = hex;
  for (auto& ch : plain)
    if (ch == '0' || ch > '9') ch = '.';
  msg = error_of("#\n" + plain + "\n");
  EXPECT_NE(msg.find("t.txt:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot tell the alphabet"), std::string::npos) << msg;
  const auto ps = parse(plain + "\n" + hex + "\n");
  EXPECT_EQ(ps[0].alphabet, Alphabet::HexZero);
  EXPECT_EQ(ps[0].grid.cell[hex.find('1')], 2);
  // A file may mix sizes: each puzzle has its own, a 16x16 line its size's alphabet.
  const auto sizes = parse(kLine + "\n" + plain + "\n1.3.3...2..3...1\n" + hex + "\n");
  ASSERT_EQ(sizes.size(), 4u);
  EXPECT_EQ(sizes[0].grid.box, 3);
  EXPECT_EQ(sizes[1].grid.box, 4);
  EXPECT_EQ(sizes[1].alphabet, Alphabet::HexZero);  // told by the 16x16 puzzle after it
  EXPECT_EQ(sizes[2].grid.box, 2);
  EXPECT_EQ(sizes[3].grid.box, 4);
  msg = error_of(std::string(255, '.') + "g\n");
  EXPECT_NE(msg.find("t.txt:1:256:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("illegal character 'g'"), std::string::npos) << msg;
  std::string row = "17";
  for (int c = 1; c < 16; ++c) row += " 0";
  msg = error_of(row + "\n");
  EXPECT_NE(msg.find("t.txt:1:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a number 1-16"), std::string::npos) << msg;
  msg = error_of("1.3.3...2..3...5\n");  // 5 in a 4x4 puzzle
  EXPECT_NE(msg.find("t.txt:1:16:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a digit 1-4"), std::string::npos) << msg;
}

namespace {

// A solved grid of box size `box`, every third cell blanked: a puzzle of every value, at no cost.
Grid pattern_puzzle(int box) {
  Grid g = solved_pattern(box);
  for (int c = 0; c < g.cells(); c += 3) g.cell[c] = 0;
  return g;
}

}  // namespace

TEST(PuzzleIoLarge, ThirtySixUpToSixtyFourInTheirAlphabetsAndAsNumbers) {
  for (int box = 6; box <= 8; ++box) {
    SCOPED_TRACE("box " + std::to_string(box));
    const Grid g = pattern_puzzle(box);
    const std::string line = to_line(g, Alphabet::Alnum64);
    ASSERT_EQ(line.size(), std::size_t(g.cells()));
    const auto read = parse(line)[0];
    EXPECT_EQ(read.grid, g);
    EXPECT_EQ(read.alphabet, Alphabet::Alnum64);
    EXPECT_EQ(to_line(read.grid, read.alphabet), line);
    const auto numbers = parse(to_line(g, Alphabet::Numbers))[0];  // n * n numbers on a line
    EXPECT_EQ(numbers.grid, g);
    std::string rows;  // n lines of n numbers
    for (int r = 0; r < g.side(); ++r) {
      for (int c = 0; c < g.side(); ++c) rows += (c ? " " : "") + std::to_string(g.cell[r * g.side() + c]);
      rows += '\n';
    }
    EXPECT_EQ(parse(rows)[0].grid, g);
  }
  // 36x36 in 0-9A-Z or 0-9a-z: the same values; the first 36 of 0-9, A-Z, a-z, + and /.
  const Grid g = pattern_puzzle(6);
  const std::string upper = to_line(g, Alphabet::Alnum64), lower = to_line(g, Alphabet::HexZero);
  EXPECT_EQ(upper.find_first_of("abcdefghijklmnopqrstuvwxyz"), std::string::npos);
  EXPECT_EQ(parse(lower)[0].grid, g);
  EXPECT_EQ(parse(lower)[0].alphabet, Alphabet::HexZero);
  ASSERT_NE(upper.find('Z'), std::string::npos);
  EXPECT_EQ(parse(upper)[0].grid.cell[upper.find('Z')], 36);
  const std::string sixty_four = to_line(pattern_puzzle(8), Alphabet::Alnum64);
  ASSERT_NE(sixty_four.find('/'), std::string::npos);
  EXPECT_EQ(parse(sixty_four)[0].grid.cell[sixty_four.find('/')], 64);
  const std::string pretty = to_pretty(g, Alphabet::Alnum64);
  EXPECT_EQ(std::count(pretty.begin(), pretty.end(), '\n'), 36 + 5);  // 36 rows, 5 rules
}

TEST(PuzzleIoLarge, EveryPrettyGridReadsBackAsItself) {
  // to_pretty in every alphabet of every size, a full grid and a puzzle with blanks: read back,
  // the same cells in the same alphabet ('|' and the rules between bands skipped).
  const std::vector<std::pair<int, Alphabet>> forms = {
      {2, Alphabet::Digits},  {3, Alphabet::Digits},  {4, Alphabet::HexZero}, {4, Alphabet::AlnumOne},
      {4, Alphabet::Numbers}, {5, Alphabet::Lower},   {5, Alphabet::Upper},   {5, Alphabet::Numbers},
      {6, Alphabet::HexZero}, {6, Alphabet::Alnum64}, {6, Alphabet::Numbers}, {7, Alphabet::Alnum64},
      {8, Alphabet::Alnum64}};
  for (const auto& [box, alphabet] : forms)
    for (const Grid& g : {solved_pattern(box), pattern_puzzle(box)}) {
      const std::string pretty = to_pretty(g, alphabet);
      ASSERT_NE(pretty.find("| "), std::string::npos);
      const auto read = parse(pretty);
      ASSERT_EQ(read.size(), 1u) << box << "\n" << pretty;
      EXPECT_EQ(read[0].grid, g) << box << "\n" << pretty;
      EXPECT_EQ(read[0].alphabet, box <= 3 ? Alphabet::Digits : alphabet) << box << "\n" << pretty;
    }
}

TEST(PuzzleIoLarge, ThirtySixUpToSixtyFourErrorsNameTheCharacterAndTheAlphabet) {
  std::string mixed = to_line(pattern_puzzle(6), Alphabet::Alnum64);
  ASSERT_NE(mixed.find('A'), std::string::npos);
  mixed[mixed.find('A')] = 'a';  // a of 0-9a-z in a line of 0-9A-Z
  auto msg = error_of(mixed + "\n");
  EXPECT_NE(msg.find("t.txt:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("mixed alphabet"), std::string::npos) << msg;
  std::string past = to_line(pattern_puzzle(7), Alphabet::Alnum64);
  ASSERT_EQ(past[0], '.');
  past[0] = 'n';  // value 50 in a 49x49 puzzle
  msg = error_of(past + "\n");
  EXPECT_NE(msg.find("illegal character 'n'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected 0-9, A-Z then a-m for the values 1-49"), std::string::npos) << msg;
  msg = error_of(std::string(1297, '.') + "\n");
  EXPECT_NE(msg.find("found 1297 characters; expected 1296 (a 36x36 puzzle on one line"), std::string::npos) << msg;
  std::string row = "37";
  for (int c = 1; c < 36; ++c) row += " 0";
  msg = error_of(row + "\n");
  EXPECT_NE(msg.find("t.txt:1:1:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected a number 1-36"), std::string::npos) << msg;
}
