#pragma once
// An exclusive lock on the source cache, so that two fathom processes (e.g. tests run in
// parallel) never download or unpack into the same place at the same time.
#include <filesystem>

#include "util/error.h"

namespace fathom::sources {

class CacheLock {
 public:
  // Blocks until the advisory lock (flock) on `lock_file` is held; creates the file and its
  // parent directories if needed. The lock is released when the object is destroyed, or by the
  // kernel if the process dies.
  static util::Result<CacheLock> acquire(const std::filesystem::path& lock_file);

  CacheLock(CacheLock&& other) noexcept;
  CacheLock& operator=(CacheLock&&) = delete;
  CacheLock(const CacheLock&) = delete;
  CacheLock& operator=(const CacheLock&) = delete;
  ~CacheLock();

 private:
  explicit CacheLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace fathom::sources
