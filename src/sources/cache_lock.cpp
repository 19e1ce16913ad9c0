#include "sources/cache_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace fathom::sources {

util::Result<CacheLock> CacheLock::acquire(const std::filesystem::path& lock_file) {
  std::error_code ec;
  std::filesystem::create_directories(lock_file.parent_path(), ec);
  if (ec) {
    return util::fail("cannot create " + lock_file.parent_path().string() + ": " + ec.message() +
                      "; set FATHOM_CACHE_DIR to a writable directory");
  }
  const int fd = ::open(lock_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return util::fail("cannot open " + lock_file.string() + ": " + std::strerror(errno) +
                      "; set FATHOM_CACHE_DIR to a writable directory");
  }
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd);
    return util::fail("cannot lock " + lock_file.string() + ": " + std::strerror(error));
  }
  return CacheLock(fd);
}

CacheLock::CacheLock(CacheLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

CacheLock::~CacheLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace fathom::sources
