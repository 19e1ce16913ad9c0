#pragma once
// The result cache: measured image results kept between runs (<cache>/results/<key>.json).
//
// The simulator is deterministic, so running the same image bytes on the same board
// description with the same run parameters and observers, by the same fathom executable (its
// timing model), gives the same results. result_key() hashes exactly those inputs; a repeated
// `fathom run` reuses the stored model::ImageResult and marks it (Provenance::reused_from = when
// it was measured) instead of simulating again. Failed images are never stored, and a corrupt
// or foreign file is ignored (measured again), never an error.
//
// Each stored file is the results model's JSON (model/run_result_json.h: what
// `fathom run --format json` writes, without the report's derived "fastest" marks and
// "warnings"), holding the one image, inside a small envelope with the key and the measurement
// time; it is read back with the same module's checked reader. Files written when the cache
// stored the report's JSON read as well (the derived keys are ignored).
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.h"
#include "util/error.h"

namespace fathom::pipeline {

// Everything that decides an image's measured results.
struct ResultKeyInputs {
  std::string elf_sha256;          // the image's bytes
  std::string board_description;   // content of the board's board.toml
  uint32_t runs = 0;
  // Timed runs of the operations that make another count than `runs`
  // (target::RunParameters::operation_runs).
  std::map<std::string, uint32_t> operation_runs;
  uint32_t warmup = 0;
  std::vector<std::string> operations;  // selected operations (empty = all), in order
  uint64_t cycle_budget = 0;
  // The observers and measurement modes requested (hook mode, memory watch, primitive groups),
  // as text: anything that may change what the result holds.
  std::string observers;
  // With secret variants (`fathom ct`, pipeline::RunOptions::secret_variants): which variant
  // timed run 0 takes and whether every run takes it, as text; empty without.
  std::string secret_variants;
  std::string tool_sha256;         // SHA-256 of the fathom executable (executable_sha256())
};

// The key: 64 lower-case hex digits. Every field is length-prefixed, so no two different
// inputs share a key by concatenation.
std::string result_key(const ResultKeyInputs& inputs);

// The SHA-256 of the running executable (/proc/self/exe), computed once per process: any
// change to fathom (its timing model, its parsers) invalidates every stored result. Fails if
// the executable cannot be read; then nothing is cached.
util::Result<std::string> executable_sha256();

// The current UTC time as ISO 8601 to the second ("2026-11-30T03:12:45Z").
std::string utc_timestamp_now();

// True for a result worth keeping: the image ran to its end with no fault and no error, every
// operation's known-answer test passed and no memory cross-check disagreed. (A failed or
// faulted image is always run again, so a failure is never reported from the cache.)
bool reusable(const model::ImageResult& image);

class ResultCache {
 public:
  // Keeps files in `dir` (created on the first store).
  explicit ResultCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // The result stored under `key`, with provenance.reused_from set to when it was measured;
  // nullopt if there is none, or the file is unreadable, corrupt, for another key, or holds an
  // image that is not reusable().
  std::optional<model::ImageResult> load(const std::string& key) const;

  // Stores `image` under `key`, measured at `measured_at` (utc_timestamp_now()). An image that
  // is not reusable() is not stored (and a stale entry under `key` is removed). The file is
  // written atomically (temporary file, then rename): concurrent runs never read half a file.
  // Returns false on an I/O error (the run goes on; the result is just not kept).
  bool store(const std::string& key, const model::ImageResult& image,
             const std::string& measured_at) const;

  // A caller's observation of the measurement stored under `key` (RunOptions::
  // kept_observation), as text in <key>.observation beside it, written atomically like the
  // result. Returns false on an I/O error.
  bool store_observation(const std::string& key, std::string_view text) const;
  // The text store_observation() kept under `key`; nullopt if there is none or it cannot be
  // read.
  std::optional<std::string> load_observation(const std::string& key) const;

  const std::filesystem::path& directory() const { return dir_; }

 private:
  std::filesystem::path file_for(const std::string& key) const;
  std::filesystem::path observation_file_for(const std::string& key) const;
  // Writes `text` to `path` through a temporary file in the cache and a rename.
  bool write_atomically(const std::filesystem::path& path, const std::string& key,
                        std::string_view text) const;
  std::filesystem::path dir_;
};

}  // namespace fathom::pipeline
