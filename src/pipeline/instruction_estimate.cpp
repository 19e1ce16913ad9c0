#include "pipeline/instruction_estimate.h"

#include <fmt/core.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <fstream>
#include <sstream>

#include "util/sha256.h"

namespace fathom::pipeline {

std::string estimate_key(const std::string& configuration, ResultKeyInputs inputs) {
  inputs.elf_sha256 = "estimate of configuration " + configuration;
  inputs.tool_sha256.clear();
  return result_key(inputs);
}

std::optional<uint64_t> InstructionEstimates::load(const std::string& key) const {
  if (!util::is_sha256_hex(key)) return std::nullopt;
  std::ifstream in(dir_ / key, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  std::getline(in, text);
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
  return value;
}

void InstructionEstimates::store(const std::string& key, uint64_t instructions) const {
  if (!util::is_sha256_hex(key) || instructions == 0) return;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return;
  static std::atomic<uint64_t> counter{0};
  const auto tmp = dir_ / fmt::format(".{}.{}.{}.tmp", key, ::getpid(), counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << instructions << '\n';
    if (!out) {
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, dir_ / key, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace fathom::pipeline
