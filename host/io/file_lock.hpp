#pragma once
// One writer a file: an advisory lock (flock) held on PATH.lock for as long as the object lives,
// so that a second batch, sweep or --resume on the same CSV is refused rather than write its rows
// beside the first's. The lock file names its holder (process, host, time) for that refusal, and
// goes with the lock; a holder that died leaves the file, whose lock the kernel released.
#include <string>

namespace gpuga {

class FileLock {
 public:
  // Locks `path` for `what` ("the batch's CSV"). InputError naming the holder when another
  // process holds it.
  FileLock(const std::string& path, const std::string& what);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace gpuga
