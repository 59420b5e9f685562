#include "gpuga/output_path.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gpuga/errors.hpp"

namespace gpuga {

void check_output_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  GPUGA_INPUT_CHECK(!fs::is_directory(path, ec),
                    path + ": is a folder; expected a file name for " + what);
  const fs::path folder = fs::path(path).parent_path();
  GPUGA_INPUT_CHECK(folder.empty() || fs::is_directory(folder, ec),
                    path + ": no folder " + folder.string() + "; expected an existing folder for " + what);
  if (fs::exists(path, ec)) {
    GPUGA_INPUT_CHECK(::access(path.c_str(), W_OK) == 0,
                      path + ": cannot be written (" + std::strerror(errno) + "); expected a "
                      "writable file for " + what);
    return;
  }
  // A probe beside it, created and removed: the folder takes new files.
  const std::string probe = path + ".probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  GPUGA_INPUT_CHECK(fd >= 0 || errno == EEXIST,
                    path + ": cannot be created (" + std::strerror(errno) + "); expected a "
                    "writable folder for " + what);
  if (fd >= 0) {
    ::close(fd);
    ::unlink(probe.c_str());
  }
}

std::string write_failure_reason() {
  return errno ? std::strerror(errno) : "an earlier write failed";
}

void write_whole_file(const std::string& path, const std::string& text, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool in_place = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
  const std::string written = in_place ? path : path + ".partial";
  errno = 0;
  std::ofstream out(written, std::ios::binary | std::ios::trunc);
  if (out) out << text << std::flush;
  if (!out) {
    const std::string reason = write_failure_reason();
    if (!in_place) fs::remove(written, ec);
    throw RuntimeFailure(path + ": cannot write " + what + " (" + reason + ")" +
                         (in_place ? "" : "; the file there before is kept"));
  }
  out.close();
  if (!in_place) fs::rename(written, path);
}

}  // namespace gpuga
