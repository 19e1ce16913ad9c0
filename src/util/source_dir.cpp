#include "util/source_dir.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace fathom::util {
namespace fs = std::filesystem;

namespace {

// The directory of the running executable and its parents, nearest first, looking for the
// marker CMake writes into the build directory: the source tree's path relative to it.
std::string find_source_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    std::ifstream in(dir / kSourceDirMarker);
    std::string relative;
    if (in && std::getline(in, relative) && !relative.empty()) {
      std::string out = (dir / relative).lexically_normal().string();
      while (out.size() > 1 && out.back() == '/') out.pop_back();
      return out;
    }
    if (dir == dir.root_path()) break;
  }
  return "";
}

}  // namespace

const char* source_dir() {
  static const std::string dir = find_source_dir();
  return dir.c_str();
}

}  // namespace fathom::util
