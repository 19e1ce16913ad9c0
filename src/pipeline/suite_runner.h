#pragma once
// Runs a suite end to end: for every (configuration, board) build the image, run it on the
// target, and collect the results with their provenance. One failing image never hides the
// others: its failure is recorded in its ImageResult and the others go on. Images are built
// and run `RunOptions::jobs` at a time; results always come back in suite order.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.h"
#include "model/shard.h"
#include "model/suite.h"
#include "elf/elf_image.h"
#include "target/target_factory.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::pipeline {

struct RunOptions {
  std::vector<std::string> configurations;  // subset of the suite's; empty = all
  std::vector<std::string> operations;      // overrides the suite's list; empty = suite's
  std::vector<std::string> boards;          // overrides the suite's boards; empty = suite's
  // Only this shard of the images left by the filters above (model::image_in_shard; `fathom
  // run --shard i/N`); empty = all of them.
  std::optional<model::ShardPart> shard;
  std::optional<uint32_t> runs;             // overrides Suite::runs
  std::optional<uint32_t> warmup;           // overrides Suite::warmup
  std::filesystem::path firmware_dir;       // the repository's firmware/
  std::filesystem::path build_root;         // where images are built (cache)
  // Which target runs each board's images and its settings (target/target_factory.h): the
  // board's own unless `target.kind` names another; the simulator's hook mode and observers.
  target::TargetSettings target;
  // If set, makes the target for each image instead of target::make_target (`fathom profile`
  // and `fathom bench` attach their observers to the simulator this way). Results are taken
  // from or stored in the result cache while it is set only with `kept_observation`.
  std::function<util::Result<std::unique_ptr<target::Target>>(
      const model::Board& board, const elf::ElfImage& elf, const std::filesystem::path& elf_path)>
      target_for_image;
  // What the caller's observers saw, kept with the result (`fathom profile`'s call tracker, as
  // a profile file): the result cache then keys the result by `key` too (what the observers
  // are) and keeps `save()`'s text beside it (ResultCache::store_observation); on a hit
  // `load()` gets that text back instead of the observers watching a measurement. Both are
  // called with the image's ELF path; nullopt from `save` or false from `load` (an image the
  // caller does not observe, a text it cannot read): nothing is kept or reused.
  struct KeptObservation {
    std::string key;
    std::function<std::optional<std::string>(const std::filesystem::path& elf)> save;
    std::function<bool(const std::filesystem::path& elf, std::string_view text)> load;
  };
  std::optional<KeptObservation> kept_observation;
  // Also run every image on this target and compare the instruction counts per timed run and
  // the KAT verdicts (model::CrossCheck; `fathom run --cross-check sim`). Ignored for an image
  // whose own target is this one.
  std::optional<model::TargetKind> cross_check;
  // Images built and run at once by a worker pool (each image: build, then simulate); 0 = the
  // online CPUs, 1 = one after another. The results do not depend on it.
  unsigned jobs = 1;
  // Where measured image results are kept between runs (pipeline/result_cache.h); empty = no
  // result cache. Used with `target_for_image` only for a `kept_observation`.
  std::filesystem::path result_cache_dir;
  // Measure every image again even if the result cache holds its result (the new result
  // replaces it).
  bool fresh = false;
  // `fathom ct`: every operation makes exactly the timed runs asked for (no fewer for a fixed
  // input), those with a secret hook one per variant of their secret
  // (target::RunParameters::secret_variants). Such results are cached with the secret
  // parameters in their key (ResultKeyInputs::secret_variants).
  bool secret_variants = false;
  uint32_t secret_first = 0;  // the variant of timed run 0 (target::RunParameters::secret_first)
  bool secret_fixed = false;  // the control: secret_first in every run (RunParameters::secret_fixed)
};

// What a run took from the caches (for a status line; the results say it per image too).
struct RunCounts {
  size_t images = 0;
  size_t builds_reused = 0;   // images whose build cache entry was reused (no compiler ran)
  size_t results_reused = 0;  // images whose results came from the result cache
  // The most simulated machines one image's operations ran on at once (spare cores of -j).
  unsigned most_machines = 1;
  // Images whose operations ran on several machines whose slots could not be combined, so one
  // machine ran them again (target/sim/slot_run.h): the same result, twice the time.
  size_t ran_again = 0;
};

// Checks `options` against `suite` before anything is built: unknown configurations and
// `boards` that `firmware_dir`/boards does not have (when `firmware_dir` is set) are usage
// errors listing the valid names.
util::Result<void> validate_options(const model::Suite& suite, const RunOptions& options);

// What the suite derives across `run`'s images (src/analysis): the fairness checks, the
// workflows and their verdicts, replacing any already in `run`. run_suite ends with it, and
// `fathom merge` derives them again from the merged shards (pipeline/shard_merge.h).
void derive_across_images(model::RunResult& run, const model::Suite& suite);

// Runs the suite. Only errors that stop everything (no toolchain, an unknown operation name)
// come back as an error; everything else is data in the RunResult. If `counts` is given, it
// receives what came from the caches.
util::Result<model::RunResult> run_suite(const model::Suite& suite, const RunOptions& options,
                                         util::Progress& progress, RunCounts* counts = nullptr);

}  // namespace fathom::pipeline
