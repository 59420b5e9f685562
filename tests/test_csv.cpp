// CSV as the batch CSVs, --resume and report read it: rows round-trip through csv_line, every
// row knows the line it starts on, a row cut short (a crash) is not a row, and a writer appends
// only under its own header.
#include <gtest/gtest.h>

#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"
#include "temp_files.hpp"

using namespace gpuga;

namespace {

std::string file_with(const std::string& name, const std::string& bytes) {
  const std::string path = test_file(name).string();
  set_file_bytes(path, bytes);
  return path;
}

}  // namespace

TEST(Csv, FieldsWithCommasQuotesAndLineBreaksRoundTrip) {
  const std::vector<std::vector<std::string>> rows = {
      {"puzzle_id", "grid"}, {"a,b.txt#1", "say \"hi\""}, {"two\nlines.txt#2", "cr\r\nlf"}, {"", ""}};
  std::string text;
  for (const auto& r : rows) {
    EXPECT_EQ(csv_split(csv_line(r)), r);
    text += csv_line(r) + "\n";
  }
  const CsvRows read = parse_csv(text);
  EXPECT_EQ(read.rows, rows);
  EXPECT_EQ(read.lines, (std::vector<int>{1, 2, 3, 6}));  // row 3 spans lines 3 to 5
  EXPECT_EQ(read.complete, text.size());
}

// Found by fuzz_resume (tests/fuzz): a row of one empty field was written as a blank line, which
// is no row, so it did not read back.
TEST(Csv, ARowOfOneEmptyFieldIsNotABlankLine) {
  const std::vector<std::string> row = {""};
  EXPECT_EQ(csv_line(row), "\"\"");
  EXPECT_EQ(parse_csv(csv_line(row) + "\n").rows, std::vector<std::vector<std::string>>{row});
  EXPECT_EQ(parse_csv("\"\"\n\x8a").rows.size(), 1u);  // the fuzzer's input
}

TEST(Csv, BlankLinesAreSkippedAndLinesStillCounted) {
  const CsvRows read = parse_csv("a,b\r\n\r\n\n1,2\r\n");
  EXPECT_EQ(read.rows, (std::vector<std::vector<std::string>>{{"a", "b"}, {"1", "2"}}));
  EXPECT_EQ(read.lines, (std::vector<int>{1, 4}));
}

TEST(Csv, ARowCutShortIsNotARowAndIsDropped) {
  const std::string whole = "a,b\n1,\"x\ny\"\n";
  for (const std::string cut : {"2,3", "2,\"open\nquote", "2,\"open\n"}) {
    const CsvRows read = parse_csv(whole + cut);
    EXPECT_EQ(read.rows.size(), 2u) << cut;
    EXPECT_EQ(read.complete, whole.size()) << cut;
    const std::string path = file_with("cut.csv", whole + cut);
    drop_partial_last_line(path);
    EXPECT_EQ(file_bytes(path), whole) << cut;  // appending after it stays valid
  }
  const std::string path = file_with("whole.csv", whole);
  drop_partial_last_line(path);
  EXPECT_EQ(file_bytes(path), whole);
}

TEST(Csv, AWriterAppendsUnderItsOwnHeaderAndRefusesAnother) {
  const std::string path = file_with("writer.csv", "a,b\n1,2\n");
  CsvWriter(path, {"a", "b"}).row({"3", "4"});
  EXPECT_EQ(read_csv_rows(path), (std::vector<std::vector<std::string>>{{"a", "b"}, {"1", "2"}, {"3", "4"}}));
  // A file of an older layout keeps its bytes: rows of another would make all of it unreadable.
  try {
    CsvWriter(path, {"a", "c"});
    ADD_FAILURE() << "another header was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":1: the header is not a,c"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_csv_rows(path).size(), 3u);
}
