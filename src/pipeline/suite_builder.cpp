#include "pipeline/suite_builder.h"

#include <fmt/core.h>

#include <algorithm>

#include "build/build_key.h"
#include "build/library_description.h"
#include "sources/ensure.h"
#include "sources/source_lock.h"
#include "suite/board_loader.h"
#include "util/cache_dir.h"
#include "util/parallel_for.h"

namespace fathom::pipeline {

std::vector<MatrixEntry> suite_matrix(const model::Suite& suite, const RunOptions& options) {
  std::vector<MatrixEntry> matrix;
  for (const auto& cfg : suite.configurations) {
    if (!options.configurations.empty() &&
        std::find(options.configurations.begin(), options.configurations.end(), cfg.name) ==
            options.configurations.end())
      continue;
    for (const auto& board : options.boards.empty() ? model::boards_of(suite, cfg) : options.boards)
      matrix.push_back({&cfg, board});
  }
  if (options.shard) {
    std::vector<MatrixEntry> part;
    for (size_t k = 0; k < matrix.size(); ++k)
      if (model::image_in_shard(k, options.shard->index, options.shard->count))
        part.push_back(matrix[k]);
    return part;
  }
  return matrix;
}

std::map<std::string, util::Result<LibrarySource>> fetch_library_sources(
    const std::vector<MatrixEntry>& matrix, const RunOptions& options, util::Progress& progress) {
  std::map<std::string, util::Result<LibrarySource>> out;
  auto lock = sources::load_lock(sources::default_lock_path());
  std::vector<std::string> names;
  for (const auto& entry : matrix) {
    names.push_back(entry.configuration->library);
    names.insert(names.end(), entry.configuration->with_libraries.begin(),
                 entry.configuration->with_libraries.end());
  }
  for (const auto& name : names) {
    if (out.count(name)) continue;
    out.emplace(name, [&]() -> util::Result<LibrarySource> {
      auto lib = build::load_library(options.firmware_dir, name);
      if (!lib) return tl::unexpected(lib.error());
      progress.update(fmt::format("fetching {} sources", lib->name));
      auto root = sources::ensure(lib->source);
      if (!root) return tl::unexpected(root.error());
      if (!lock) return tl::unexpected(lock.error());
      const sources::SourceEntry* pinned = lock->find(lib->source);
      LibrarySource source{*root, ""};
      // An env override is a tree the lock does not pin: identify it by its content.
      const bool overridden =
          pinned && !pinned->env.empty() && util::process_env(pinned->env).has_value();
      if (pinned && !overridden) {
        source.identity = "sha256:" + pinned->sha256;
      } else {
        progress.update(fmt::format("hashing {} sources in {}", lib->name, root->string()));
        auto digest = build::source_tree_digest(*root);
        if (!digest) return tl::unexpected(digest.error());
        source.identity = "tree:" + *digest;
      }
      return source;
    }());
  }
  return out;
}

unsigned ninja_jobs_per_image(unsigned image_jobs) {
  if (image_jobs == 1) return 0;
  const unsigned cpus = util::online_cpus();
  if (image_jobs == 0) image_jobs = cpus;
  return std::max(1u, cpus / image_jobs);
}

util::Result<build::BuiltImage> build_suite_image(const ImagePlan& plan,
                                                  const LibrarySources& sources,
                                                  const RunOptions& options,
                                                  const build::Toolchain& toolchain,
                                                  util::Progress& progress) {
  auto source_of = [&](const std::string& name) -> util::Result<LibrarySource> {
    const auto it = sources.find(name);
    if (it == sources.end())
      return util::fail(fmt::format("the sources of library '{}' were not fetched", name));
    return it->second;
  };
  const model::Configuration& cfg = *plan.configuration;
  const model::Board& board = plan.board;
  auto source = source_of(cfg.library);
  if (!source) return tl::unexpected(source.error());
  build::ImageRequest req;
  for (const auto& name : cfg.with_libraries) {
    auto extra = source_of(name);
    if (!extra) return tl::unexpected(extra.error());
    req.with_libraries.push_back({name, extra->root, extra->identity, cfg.options_of(name)});
  }
  req.configuration = &cfg;
  req.board = &board;
  for (const auto& lib : plan.libraries) req.descriptions.push_back(&lib);
  req.firmware_dir = options.firmware_dir;
  req.library_source = source->root;
  req.library_source_identity = source->identity;
  req.build_root = options.build_root;
  req.ninja_jobs = ninja_jobs_per_image(options.jobs);
  return build::build_image(req, toolchain, [&](const std::string& s) {
    progress.set_line(fmt::format("{} on {}", cfg.name, board.name),
                      fmt::format("{} on {}: {}", cfg.name, board.name, s));
  });
}

util::Result<std::vector<SuiteImage>> build_suite_images(const model::Suite& suite,
                                                         const RunOptions& options,
                                                         util::Progress& progress) {
  if (auto v = validate_options(suite, options); !v) return tl::unexpected(v.error());
  auto toolchain = build::find_toolchain();
  if (!toolchain) return tl::unexpected(toolchain.error());

  const std::vector<MatrixEntry> matrix = suite_matrix(suite, options);
  const auto sources = fetch_library_sources(matrix, options, progress);
  std::vector<SuiteImage> images(matrix.size());
  util::parallel_for(matrix.size(), options.jobs, [&](size_t i) {
    const model::Configuration& cfg = *matrix[i].configuration;
    SuiteImage& image = images[i];
    image.configuration = cfg.name;
    image.board = matrix[i].board;
    auto built = [&]() -> util::Result<build::BuiltImage> {
      PlanInputs inputs;
      inputs.firmware_dir = options.firmware_dir;
      inputs.compiler = toolchain->version;
      auto plan = plan_image(cfg, image.board, inputs);
      if (!plan) return tl::unexpected(plan.error());
      return build_suite_image(*plan, sources, options, *toolchain, progress);
    }();
    if (built)
      image.built = std::move(*built);
    else
      image.error = built.error().message;
  });
  progress.clear();
  return images;
}

}  // namespace fathom::pipeline
