#include "gpuga/output_path.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

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

}  // namespace gpuga
