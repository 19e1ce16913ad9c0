// `fathom merge FILE...`: the shard results of one run (`fathom run --shard i/N --format json`)
// combined into the result the unsharded run gives (pipeline/shard_merge.h), then written,
// stored and exited on as `fathom run` does (cli/result_output.h). docs/SCALE-OUT.md.
#include <fmt/core.h>

#include <memory>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/output_directory.h"
#include "cli/result_output.h"
#include "cli/suite_session.h"
#include "compare/result_file.h"
#include "pipeline/shard_merge.h"
#include "pipeline/suite_runner.h"
#include "report/writer.h"
#include "util/error.h"
#include "util/sha256.h"

namespace fathom::cli {
namespace {

struct MergeFlags {
  std::vector<std::string> files;
  std::string suite;  // overrides the suite the shards name (same file contents required)
  ResultOutput output;
};

[[noreturn]] void fail_with(const util::Error& error) {
  throw util::FatalError(error.message, error.is_usage ? kExitUsage : kExitFailure);
}

int merge(const MergeFlags& flags) {
  if (!flags.output.out_dir.empty())
    if (auto ok = check_output_directory(flags.output.out_dir); !ok) fail_with(ok.error());
  std::vector<pipeline::ShardFile> files;
  for (const auto& name : flags.files) {
    auto read = compare::read_result_file(name);
    if (!read) fail_with(read.error());
    files.push_back(pipeline::ShardFile{name, std::move(*read)});
  }
  auto merged = pipeline::merge_shards(files);
  if (!merged) fail_with(merged.error());
  for (const auto& note : merged->notes) fmt::print(stderr, "fathom: {}\n", note);

  // What spans images is derived again, by the run's own code, from the suite the shards ran.
  const model::ShardSelection& selection = merged->selection;
  const std::string suite_name = flags.suite.empty() ? selection.suite_argument : flags.suite;
  const model::Suite suite = load_suite_or_throw(suite_name);
  auto digest = util::sha256_file(suite.path);
  if (!digest) fail_with(digest.error());
  if (*digest != selection.suite_sha256 || suite.name != selection.suite)
    throw util::FatalError(
        fmt::format("suite '{}' ({}) is not the suite file the shards ran (suite '{}', "
                    "sha256 {}): merge where the shards' suite file is, or name it with --suite",
                    suite_name, suite.path.string(), selection.suite, selection.suite_sha256),
        kExitUsage);
  pipeline::derive_across_images(merged->run, suite);
  const uint32_t shards = files.front().result.shard->count;
  fmt::print(stderr, "fathom: merged {} shard{} of suite '{}': {} image{}\n", shards,
             shards == 1 ? "" : "s", selection.suite, merged->run.images.size(),
             merged->run.images.size() == 1 ? "" : "s");
  return finish_run(merged->run, flags.output);
}

}  // namespace

void register_merge_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<MergeFlags>();
  auto* cmd = app.add_subcommand(
      "merge",
      "Combine the JSON results of a run's shards (fathom run --shard i/N) into the whole run's "
      "result, report it and store it in the history");
  cmd->add_option("files", flags->files, "The shards' result files (JSON), one per shard")
      ->required()
      ->expected(1, -1);
  cmd->add_option("--suite", flags->suite,
                  "The suite the shards ran (default: as they name it); its file must be the "
                  "one they ran");
  add_wide_flag(*cmd, flags->output.wide);
  auto* format =
      cmd->add_option("--format", flags->output.format,
                      "Output format: table, json, csv, markdown, gbench, github-benchmark, "
                      "pqm4-md")
          ->check(CLI::IsMember(report::writer_formats()));
  state.json_errors.add(*cmd, *format);
  cmd->add_option("--out", flags->output.out_dir,
                  "Also write results.json (and results.<format>) into this directory (created "
                  "if missing; not a file)");
  cmd->add_option("--db", flags->output.db,
                  "Store the merged run in this history database (default: see docs/CLI.md)");
  cmd->add_flag("--no-history", flags->output.no_history,
                "Do not store the merged run in the history");
  cmd->add_option("--name", flags->output.name,
                  "Label the stored run (baseline set, compare take it)");
  cmd->callback([flags, &state] { state.exit_code = merge(*flags); });
}

}  // namespace fathom::cli
