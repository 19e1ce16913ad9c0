#include "build/workload_catalog.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>

namespace fathom::build {

std::vector<std::string> workload_operations(const std::filesystem::path& firmware_dir,
                                             const std::string& library) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(firmware_dir / "workloads" / library, ec))
    if (e.path().extension() == ".c") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  static const std::regex kName(R"re(\.name\s*=\s*"([a-z0-9_]+)")re");
  std::vector<std::string> names;
  for (const auto& f : files) {
    std::ifstream in(f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), kName), end; it != end; ++it)
      names.push_back((*it)[1].str());
  }
  return names;
}

}  // namespace fathom::build
