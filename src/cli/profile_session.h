#pragma once
// Running a suite image with the profiler watching (fathom profile, fathom diagnose).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/run_result.h"
#include "model/suite.h"
#include "profile/profile.h"

namespace fathom::cli {

struct ProfiledImage {
  model::ImageResult image;
  profile::ProfileSet profiles;  // "whole run", then one per operation that ran; symbolized
  std::filesystem::path elf_path;  // the image that ran
};

// Builds and runs `configuration` (empty: the suite's first) on `board` (empty: the suite's
// first) with `operations` (empty: the suite's), `runs` timed runs and no warm-up, with a call
// tracker on the run. On the simulator whatever the board's own target; with `qemu_engine`, on
// QEMU 10 with fathom's engine, whose plugin runs the same call tracker (a QEMU board only; a
// usage error otherwise). With `secret_variant` (`fathom ct`), an operation with a secret hook
// runs that variant of its secret (and the next ones in later runs), its public inputs fixed.
// The tracker's whole-run profile covers the KAT phase only with `whole_run`; otherwise the
// tracker watches the operations' runs alone (and the simulator skips timing the KAT phase).
// The result cache (pipeline/result_cache.h) keeps the profile with the image's result, and a
// profile of the same image, parameters and tracker by the same fathom executable is read back
// from it (image.Provenance::reused_from says when it was made) unless `fresh`.
// Throws util::FatalError when nothing could run.
ProfiledImage profile_image(const model::Suite& suite, const std::string& configuration,
                            const std::string& board, const std::vector<std::string>& operations,
                            uint32_t runs, bool qemu_engine = false,
                            std::optional<uint32_t> secret_variant = std::nullopt,
                            bool whole_run = false, bool fresh = false);

}  // namespace fathom::cli
