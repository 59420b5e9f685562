#pragma once
// The batch CSV (gpuga batch and sweep): one row per run, its columns the run's own (below) and
// the configuration's, whose names and places the settings table holds (RunSetting::csv in
// run_config.hpp). Every list of columns here derives from those places: the header, the rows,
// the columns that identify a configuration, and the ones a CSV written before them lacks.
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpuga/driver.hpp"
#include "gpuga/sudoku/puzzle_io.hpp"
#include "gpuga/run_config.hpp"

namespace gpuga {

// Every column of a batch CSV, in its order.
const std::vector<std::string>& batch_columns();
// The configuration columns, in their order: what config_values gives and config_id hashes.
const std::vector<std::string>& config_columns();
// The columns a CSV written before they took their names had, each with its name now (a
// setting's or a result field's `formerly`): report, plot and gpuga.read_runs read old files by it.
const std::map<std::string, std::string>& former_columns();
// A column's name now: `name`, or the one it has taken since.
std::string current_column(const std::string& name);
// Whether a configuration column came after the first layout (with islands, sa and hc, local
// search or propagation): a CSV written before it ran one population of the GA, without it.
bool added_later(const std::string& column);

// The configuration's values as the CSV records them, in config_columns() order.
std::vector<std::string> config_values(const RunConfig& config);
// A short name for a configuration (FNV-1a of its columns as one CSV line), tying trace rows and
// checkpoints to CSV rows.
std::string config_id(const RunConfig& config);

// The run's own columns of one row, by name (every one that batch_columns() has and the
// configuration does not); batch_row() places them and the configuration's values.
using RunFields = std::map<std::string, std::string>;
std::vector<std::string> batch_row(const RunFields& run, const RunConfig& config);

// A puzzle as the CSV and the traces name it: FILE#INDEX.
std::string puzzle_id(const Puzzle& p);

// The traces (DIR/traces.csv of batch, sweep and solve --trace): their columns, and the row of
// one reported generation of a run (`run`: its repetition of the puzzle, 0 for solve's).
const std::vector<std::string>& trace_columns();
std::vector<std::string> trace_row(const std::string& puzzle_id, std::uint32_t run, std::uint64_t seed,
                                   const GenerationReport& r, const RunConfig& config,
                                   const std::string& config_id);
// --trace's folder ("" none), made where missing, and its traces.csv writable (InputError
// otherwise): checked before any run.
void check_trace_folder(const std::string& folder);

// A run a batch CSV records: (puzzle_id, the puzzle itself, run, the configuration columns as
// one CSV line). The puzzle makes --resume match runs by content: a file changed since is seen.
using RecordedRun = std::tuple<std::string, std::string, std::string, std::string>;

// The runs a batch CSV records, each with the CSV lines that record it (a file given twice
// records its runs twice), as --resume reads them; InputError naming the file and line for a
// header that is not this gpuga's batch header or a row of another width.
std::map<RecordedRun, std::vector<int>> recorded_runs(const std::string& csv);

}  // namespace gpuga
