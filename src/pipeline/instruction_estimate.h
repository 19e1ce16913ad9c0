#pragma once
// What an image's run executed the last time it was measured, for the progress line's ETA
// (`fathom run` on a terminal): <cache>/estimates/<key>, one decimal number. The key is the
// image's configuration and board with the run's parameters and observers, without the ELF's or
// the executable's SHA-256, so an estimate survives a rebuild of the image or of fathom (it is
// an estimate). Never an error: a missing, unreadable or damaged file is no estimate.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "pipeline/result_cache.h"

namespace fathom::pipeline {

// `inputs` as for the result key; its elf_sha256 and tool_sha256 are ignored.
std::string estimate_key(const std::string& configuration, ResultKeyInputs inputs);

class InstructionEstimates {
 public:
  explicit InstructionEstimates(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::optional<uint64_t> load(const std::string& key) const;
  void store(const std::string& key, uint64_t instructions) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace fathom::pipeline
