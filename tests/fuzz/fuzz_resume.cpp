// The batch CSV as `gpuga batch --resume` reads it: the cut last row dropped, then the runs it
// records. Either refused naming the file and a line, or read; and any CSV text's rows, written
// back by csv_line, read again to the same rows.
#include "fuzz_support.hpp"
#include "gpuga/batch_csv.hpp"
#include "gpuga/csv.hpp"
#include "gpuga/errors.hpp"

using namespace gpuga;

namespace {

void expect_csv_round_trip(const std::string& text) {
  const CsvRows read = parse_csv(text);
  if (read.complete > text.size()) fuzz::fault("complete rows past the end of the text");
  if (read.rows.size() != read.lines.size()) fuzz::fault("a row without its line");
  std::string written;
  for (const auto& row : read.rows) {
    written += csv_line(row) + "\n";
    if (csv_split(csv_line(row)) != row) fuzz::fault("csv_split(csv_line(row)) differs: " + csv_line(row));
  }
  if (parse_csv(written).rows != read.rows) fuzz::fault("rows written back read differently");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  expect_csv_round_trip(text);
  const std::string csv = fuzz::write_file(fuzz::scratch_file("resume.csv"), text);
  drop_partial_last_line(csv);
  const std::string kept = file_bytes(csv);
  if (text.rfind(kept, 0) != 0) fuzz::fault("dropping the cut row changed the rows before it");
  if (parse_csv(kept).rows != parse_csv(text).rows) fuzz::fault("dropping the cut row lost a row");
  fuzz::read_or_refusal([&] { recorded_runs(csv); }, csv, kept);
  return 0;
}
