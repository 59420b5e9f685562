#pragma once
// --checkpoint-every for a batch (batch_runner.cpp): the runs in flight of one configuration
// saved to files beside the CSV, and continued from them by --resume.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "batch_rows.hpp"
#include "gpuga/batch_csv.hpp"
#include "gpuga/checkpoint.hpp"
#include "gpuga/errors.hpp"
#include "gpuga/version.hpp"

namespace gpuga {

// --checkpoint-every: the runs in flight of one configuration, one checkpoint file each in
// CSV.checkpoints/, named by the configuration and the run's seed and holding its identity
// (checkpoint.hpp), so that --resume continues them on any process count.
class BatchKeeper final : public RunKeeper {
 public:
  BatchKeeper(const BatchSetup& s, const RunConfig& config, const std::vector<BatchRun>& runs,
              const std::vector<RunRequest>& requests, BatchReporter* reporter)
      : dir_(s.csv + ".checkpoints"), every_(s.checkpoint_every), reporter_(reporter), runs_(runs), requests_(requests),
        config_line_(settings_line(config)), config_id_(config_id(config)),
        last_(std::chrono::steady_clock::now()) {
    std::filesystem::create_directories(dir_);
  }

  const RunState* resumed(std::size_t run) override {
    const std::string path = file(run);
    if (!std::filesystem::exists(path)) return nullptr;
    // A damaged or foreign file blocks --resume: the message says which file to delete (its run
    // then starts again from its seed).
    Checkpoint c;
    try {
      c = read_checkpoint(path);
      check_checkpoint_is_for(c, identity(run), path);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + "; delete " + path +
                       " to run that run again from its start");
    }
    loaded_ = std::move(c.run);
    ++continued_;
    return &loaded_;
  }
  bool due() override {
    asked_ = g_checkpoint_asked.load();
    return asked_ || std::chrono::duration<double>(std::chrono::steady_clock::now() - last_).count() >= every_;
  }
  // A checkpoint that cannot be written (the folder turned read-only, the disk filled) does not
  // end the batch: the runs go on, and the first failure is said once.
  void save(std::size_t run, const RunState& st) override {
    Checkpoint c = identity(run);
    c.run = st;
    try {
      write_checkpoint(file(run), c);
    } catch (const RuntimeFailure& e) {
      if (failure_.empty() && reporter_)
        reporter_->news(std::string("warning: ") + e.what() + "; the runs go on without checkpoints");
      failure_ = e.what();
    }
    last_ = std::chrono::steady_clock::now();
  }
  // The last checkpoint's failure, or "": the runs in flight at a signal were not all saved.
  const std::string& failure() const { return failure_; }
  bool stop_after_save() override { return asked_; }
  std::size_t continued() const { return continued_; }  // runs resumed from their files
  // A run recorded in the CSV has nothing left to continue.
  void forget(std::size_t run) const {
    std::error_code ec;
    std::filesystem::remove(file(run), ec);
  }

 private:
  // The configuration as "column=value" pairs, so that a refusal names what differs.
  static std::string settings_line(const RunConfig& config) {
    const std::vector<std::string> values = config_values(config);
    std::string line;
    for (std::size_t k = 0; k < values.size(); ++k)
      line += (k ? " " : "") + config_columns()[k] + "=" + values[k];
    return line;
  }
  std::string file(std::size_t run) const {
    char seed[17];
    std::snprintf(seed, sizeof seed, "%016llx", static_cast<unsigned long long>(runs_[run].seed));
    return dir_ + "/" + config_id_ + "-" + seed + ".ckpt";
  }
  Checkpoint identity(std::size_t run) const {
    const BatchRun& pr = runs_[run];
    return {GPUGA_VERSION, config_line_ + " run=" + std::to_string(pr.run) + " seed=" + std::to_string(pr.seed),
            to_line(requests_[run].puzzle, pr.puzzle->alphabet), 0, {}};
  }

  std::string dir_;
  double every_;
  BatchReporter* reporter_;
  std::string failure_;
  const std::vector<BatchRun>& runs_;
  const std::vector<RunRequest>& requests_;
  std::string config_line_, config_id_;
  std::chrono::steady_clock::time_point last_;
  bool asked_ = false;
  RunState loaded_;  // the driver restores it at once
  std::size_t continued_ = 0;
};

}  // namespace gpuga
