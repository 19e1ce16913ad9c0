// `fathom size`: builds a suite's images (without running them) and shows which component
// takes how much flash and RAM, from each image's linker map.
#include <fmt/core.h>

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/suite_session.h"
#include "elf/elf_image.h"
#include "elf/size_attribution.h"
#include "pipeline/suite_builder.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::cli {
namespace {

constexpr int kSizeSchemaVersion = 1;

struct SizeFlags {
  std::string suite;
  std::vector<std::string> configurations;
  std::vector<std::string> boards;
  std::string format = "table";
  int64_t jobs = 0;  // images built at once; 0 = online CPUs
};

struct ImageSizes {
  std::string configuration;
  std::string board;
  std::optional<elf::SizeAttribution> sizes;
  std::string error;
  std::string elf;  // the built image's ELF file; empty when the build failed
};

std::vector<ImageSizes> measure(const model::Suite& suite, const SizeFlags& flags) {
  pipeline::RunOptions options;
  options.configurations = flags.configurations;
  options.boards = flags.boards;
  options.jobs = static_cast<unsigned>(flags.jobs);
  options.firmware_dir = repository_root() / "firmware";
  auto root = build_root();
  if (!root) throw util::FatalError(root.error().message);
  options.build_root = *root;
  util::Progress progress;
  auto images = pipeline::build_suite_images(suite, options, progress);
  progress.clear();
  if (!images)
    throw util::FatalError(images.error().message,
                           images.error().is_usage ? kExitUsage : kExitFailure);

  std::vector<ImageSizes> out;
  for (const auto& image : *images) {
    ImageSizes s{image.configuration, image.board, std::nullopt, image.error, ""};
    if (image.built) {
      s.elf = image.built->elf.string();
      auto attributed = [&]() -> util::Result<elf::SizeAttribution> {
        auto elf = elf::ElfImage::load(image.built->elf);
        if (!elf) return tl::unexpected(elf.error());
        return elf::attribute_image_size(image.built->map_file, *elf);
      }();
      if (attributed)
        s.sizes = std::move(*attributed);
      else
        s.error = attributed.error().message;
    }
    out.push_back(std::move(s));
  }
  return out;
}

using Json = nlohmann::ordered_json;

Json breakdown_json(const elf::SizeBreakdown& b) {
  Json j;
  j["text_bytes"] = b.text_bytes;
  j["rodata_bytes"] = b.rodata_bytes;
  j["data_bytes"] = b.data_bytes;
  j["bss_bytes"] = b.bss_bytes;
  j["flash_bytes"] = b.flash_bytes();
  j["ram_bytes"] = b.ram_bytes();
  return j;
}

void write_json(const std::string& suite, const std::vector<ImageSizes>& images) {
  Json doc;
  doc["schema_version"] = kSizeSchemaVersion;
  doc["suite"] = suite;
  doc["images"] = Json::array();
  for (const auto& image : images) {
    Json j;
    j["configuration"] = image.configuration;
    j["board"] = image.board;
    j["error"] = image.error.empty() ? Json(nullptr) : Json(image.error);
    j["elf"] = image.elf.empty() ? Json(nullptr) : Json(image.elf);
    if (image.sizes) {
      j["components"] = Json::array();
      for (const auto& c : image.sizes->components) {
        Json cj;
        cj["component"] = c.component;
        cj.update(breakdown_json(c.size));
        j["components"].push_back(std::move(cj));
      }
      j["total"] = breakdown_json(image.sizes->total);
      j["stack_reserve_bytes"] = image.sizes->stack_reserve_bytes;
      j["heap_reserve_bytes"] = image.sizes->heap_reserve_bytes;
    }
    doc["images"].push_back(std::move(j));
  }
  std::cout << doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void write_table(const std::string& suite, const std::vector<ImageSizes>& images) {
  fmt::print("suite {}: flash and RAM by component (bytes)\n", suite);
  for (const auto& image : images) {
    fmt::print("\n{} on {}\n", image.configuration, image.board);
    if (!image.sizes) {
      fmt::print("  error: {}\n", image.error);
      continue;
    }
    const std::vector<std::string> headers = {"component", ".text", ".rodata", ".data",
                                              ".bss",      "flash", "RAM"};
    std::vector<std::vector<std::string>> rows;
    auto row = [](const std::string& name, const elf::SizeBreakdown& b) {
      return std::vector<std::string>{name,
                                      fmt::format("{}", b.text_bytes),
                                      fmt::format("{}", b.rodata_bytes),
                                      fmt::format("{}", b.data_bytes),
                                      fmt::format("{}", b.bss_bytes),
                                      fmt::format("{}", b.flash_bytes()),
                                      fmt::format("{}", b.ram_bytes())};
    };
    for (const auto& c : image.sizes->components) rows.push_back(row(c.component, c.size));
    rows.push_back(row("total", image.sizes->total));
    std::vector<size_t> widths;
    for (const auto& h : headers) widths.push_back(h.size());
    for (const auto& r : rows)
      for (size_t i = 0; i < r.size(); ++i) widths[i] = std::max(widths[i], r[i].size());
    auto print = [&](const std::vector<std::string>& cells) {
      std::string line = "  ";
      for (size_t i = 0; i < cells.size(); ++i) {
        if (i > 0) line += "  ";
        line += i == 0 ? fmt::format("{:<{}}", cells[i], widths[i])
                       : fmt::format("{:>{}}", cells[i], widths[i]);
      }
      fmt::print("{}\n", line);
    };
    print(headers);
    std::vector<std::string> rule;
    for (size_t w : widths) rule.push_back(std::string(w, '-'));
    print(rule);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (i + 1 == rows.size()) print(rule);
      print(rows[i]);
    }
    fmt::print("  reserved RAM: stack {} bytes, heap {} bytes (not in the RAM column)\n",
               image.sizes->stack_reserve_bytes, image.sizes->heap_reserve_bytes);
  }
}

int size(const SizeFlags& flags) {
  const model::Suite suite = load_suite_or_throw(flags.suite);
  const std::vector<ImageSizes> images = measure(suite, flags);
  if (flags.format == "json")
    write_json(suite.name, images);
  else
    write_table(suite.name, images);
  std::cout.flush();
  const bool all_ok = std::all_of(images.begin(), images.end(),
                                  [](const ImageSizes& i) { return i.sizes.has_value(); });
  return all_ok ? kExitOk : kExitFailure;
}

}  // namespace

void register_size_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<SizeFlags>();
  auto* cmd = app.add_subcommand(
      "size", "Build the suite's firmware images and show flash and RAM per component");
  cmd->add_option("suite", flags->suite,
                  "Suite name (in suites/) or path to a suite .toml file; default: default");
  cmd->add_option("--config", flags->configurations, "Only these configurations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--board", flags->boards,
                  "Build for these boards instead of the suite's (repeatable; see fathom list)")
      ->expected(1, -1);
  auto* format = cmd->add_option("--format", flags->format, "Output format: table, json")
                     ->check(CLI::IsMember({"table", "json"}));
  state.json_errors.add(*cmd, *format);
  cmd->add_option("-j,--jobs", flags->jobs,
                  "Images built at once (default: the number of online CPUs; 1 = one after "
                  "another)")
      ->check(CLI::Range(1, 1024));
  cmd->callback([flags, &state] { state.exit_code = size(*flags); });
}

}  // namespace fathom::cli
