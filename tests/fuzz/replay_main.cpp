// Corpus replay for the regression build: runs LLVMFuzzerTestOneInput once on every file given,
// and on every regular file of every directory given (not recursively), in sorted order. A
// crash or failed invariant ends the process abnormally; an unreadable argument, or no input at
// all, exits 1, so a missing corpus fails the test instead of passing it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // A heap copy of exactly the input's size (as libFuzzer passes it), so that a sanitizer build
  // of the replay sees an overread.
  std::unique_ptr<uint8_t[]> exact(new uint8_t[bytes.size() ? bytes.size() : 1]);
  std::copy(bytes.begin(), bytes.end(), exact.get());
  LLVMFuzzerTestOneInput(exact.get(), bytes.size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg = argv[i];
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg, ec))
        if (entry.is_regular_file()) files.push_back(entry.path());
      if (ec) {
        std::fprintf(stderr, "replay: cannot list %s: %s\n", arg.c_str(), ec.message().c_str());
        return 1;
      }
    } else if (std::filesystem::is_regular_file(arg, ec)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "replay: %s is neither a file nor a directory\n", arg.c_str());
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no input files (usage: %s CORPUS_DIR_OR_FILE...)\n", argv[0]);
    return 1;
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files)
    if (!run_file(file)) return 1;
  std::printf("replay: %zu inputs ran without a crash\n", files.size());
  return 0;
}
