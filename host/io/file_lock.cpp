#include "file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "gpuga/errors.hpp"

namespace gpuga {
namespace {

std::string holder_of(int fd) {
  char text[256] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  std::string holder(text, n > 0 ? static_cast<std::size_t>(n) : 0);
  while (!holder.empty() && (holder.back() == '\n' || holder.back() == '\0')) holder.pop_back();
  return holder.empty() ? "another process" : holder;
}

std::string this_holder() {
  char host[128] = "?";
  ::gethostname(host, sizeof host - 1);
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  return "gpuga process " + std::to_string(::getpid()) + " on " + host + ", since " + when + "\n";
}

}  // namespace

FileLock::FileLock(const std::string& path, const std::string& what) : lock_path_(path + ".lock") {
  // Locked, then checked to be the file the path still names: a holder that ends removes it, and
  // a lock taken on the removed file would guard nothing.
  for (;;) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw InputError(lock_path_ + ": cannot be created (" + std::strerror(errno) + "); expected a "
                       "writable folder for " + what + " and its lock");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const std::string holder = holder_of(fd_);
      ::close(fd_);
      fd_ = -1;
      throw InputError(path + ": in use by " + holder + " (" + lock_path_ + "); expected one batch, "
                       "sweep or --resume at a time on " + what + ": wait for it to end, or name "
                       "another file");
    }
    struct stat held {}, named {};
    if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev)
      break;
    ::close(fd_);
  }
  // The holder's name, for a refusal to give; where it cannot be written the lock holds all
  // the same, and a refusal says "another process".
  const std::string holder = this_holder();
  if (::ftruncate(fd_, 0) == 0) [[maybe_unused]] const auto written = ::pwrite(fd_, holder.data(), holder.size(), 0);
}

FileLock::~FileLock() {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());  // before the unlock: a waiter that opened it locks, then sees it gone
  ::close(fd_);
}

}  // namespace gpuga
