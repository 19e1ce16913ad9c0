#include "pipeline/suite_builder.h"

#include <fmt/core.h>

#include <algorithm>

#include "build/library_description.h"
#include "sources/ensure.h"
#include "suite/board_loader.h"

namespace fathom::pipeline {

util::Result<build::BuiltImage> build_suite_image(const model::Configuration& cfg,
                                                  const std::string& board_name,
                                                  const RunOptions& options,
                                                  const build::Toolchain& toolchain,
                                                  util::Progress& progress) {
  auto board = suite::load_board(options.firmware_dir / "boards", board_name);
  if (!board) return tl::unexpected(board.error());
  auto lib = build::load_library(options.firmware_dir, cfg.library);
  if (!lib) return tl::unexpected(lib.error());
  progress.update(fmt::format("{} on {}: fetching {} sources", cfg.name, board_name, lib->name));
  auto root = sources::ensure(lib->source);
  if (!root) return tl::unexpected(root.error());

  build::ImageRequest req;
  req.configuration = &cfg;
  req.board = &*board;
  req.firmware_dir = options.firmware_dir;
  req.library_source = *root;
  req.build_root = options.build_root;
  return build::build_image(req, toolchain, [&](const std::string& s) {
    progress.update(fmt::format("{} on {}: {}", cfg.name, board_name, s));
  });
}

util::Result<std::vector<SuiteImage>> build_suite_images(const model::Suite& suite,
                                                         const RunOptions& options,
                                                         util::Progress& progress) {
  if (auto v = validate_options(suite, options); !v) return tl::unexpected(v.error());
  auto toolchain = build::find_toolchain();
  if (!toolchain) return tl::unexpected(toolchain.error());

  std::vector<SuiteImage> images;
  for (const auto& cfg : suite.configurations) {
    if (!options.configurations.empty() &&
        std::find(options.configurations.begin(), options.configurations.end(), cfg.name) ==
            options.configurations.end())
      continue;
    for (const auto& board_name : options.boards.empty() ? suite.boards : options.boards) {
      SuiteImage image;
      image.configuration = cfg.name;
      image.board = board_name;
      auto built = build_suite_image(cfg, board_name, options, *toolchain, progress);
      if (built)
        image.built = std::move(*built);
      else
        image.error = built.error().message;
      images.push_back(std::move(image));
    }
  }
  progress.clear();
  return images;
}

}  // namespace fathom::pipeline
