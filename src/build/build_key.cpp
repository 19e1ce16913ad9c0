#include "build/build_key.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

#include "build/ninja_file.h"
#include "util/sha256.h"

namespace fathom::build {
namespace fs = std::filesystem;

namespace {

constexpr const char* kManifestName = "image.manifest";
constexpr const char* kManifestHeader = "fathom image manifest 1";

// Appends one length-prefixed, labelled field: "label <size>\n<text>\n".
void field(std::string& out, std::string_view label, std::string_view text) {
  out += fmt::format("{} {}\n", label, text.size());
  out += text;
  out += '\n';
}

bool hidden(const fs::path& relative) {
  for (const auto& part : relative)
    if (!part.empty() && part.string().front() == '.') return true;
  return false;
}

}  // namespace

std::string relocate(std::string text, const std::vector<RelocatableRoot>& roots) {
  for (const auto& root : roots) {
    std::string from = root.path.lexically_normal().string();
    while (from.size() > 1 && from.back() == '/') from.pop_back();
    if (from.empty() || from == "/") continue;
    std::string out;
    size_t start = 0;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
      const size_t end = at + from.size();
      if (end == text.size() || text[end] == '/') {
        out.append(text, start, at - start);
        out += root.label;
        start = end;
      }
      at = end;
    }
    out.append(text, start, std::string::npos);
    text = std::move(out);
  }
  return text;
}

util::Result<std::string> build_key(const BuildKeyInputs& in) {
  std::string text;
  field(text, "toolchain", in.toolchain_version);
  for (const auto& [name, flags] : in.flags) {
    field(text, "flags", name);
    field(text, "count", std::to_string(flags.size()));
    for (const auto& f : flags) field(text, "flag", relocate(f, in.roots));
  }
  for (const auto& [name, content] : in.generated_files) {
    field(text, "generated", name);
    field(text, "content", relocate(NinjaFile::unquoted(content), in.roots));
  }
  field(text, "library-source", in.library_source_identity);
  // Ordered by the names the key records, not by the paths: a tree that sorts before the
  // build cache in one checkout and after it in another must list its files the same way.
  std::vector<std::pair<std::string, fs::path>> files;
  for (const auto& f : in.files) files.emplace_back(relocate(f.string(), in.roots), f);
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  for (const auto& [name, f] : files) {
    auto digest = util::sha256_file(f);
    if (!digest)
      return util::fail(fmt::format("cannot read '{}' for the build key: {}", f.string(),
                                    digest.error().message));
    field(text, "file", name);
    field(text, "sha256", *digest);
  }
  return util::sha256_hex(text);
}

std::vector<fs::path> files_below(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  // Linked directories are followed: a FATHOM_HOME view made of links to a tree's directories
  // lists the tree's files under the view's names (the same key once relocated).
  for (auto it = fs::recursive_directory_iterator(
           dir, fs::directory_options::follow_directory_symlink, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path relative = it->path().lexically_relative(dir);
    if (hidden(relative)) {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> firmware_key_files(const fs::path& firmware_dir,
                                         const fs::path& board_directory) {
  // A board description is read by fathom, never by the compiler: what a build takes from it
  // (flags, defines, sources, linker script, memory map, stack) is in the generated files.
  auto description = [&](const fs::path& f) {
    if (f.extension() != ".toml") return false;
    const fs::path dir = f.parent_path().lexically_normal();
    return dir == board_directory.lexically_normal() ||
           (f.filename() == "board.toml" &&
            dir.parent_path() == (firmware_dir / "boards").lexically_normal());
  };
  std::vector<fs::path> out;
  auto add = [&](const fs::path& dir) {
    for (auto& f : files_below(dir))
      if (!description(f.lexically_normal())) out.push_back(std::move(f));
  };
  add(firmware_dir);
  const fs::path board = board_directory.lexically_normal();
  const fs::path fw = firmware_dir.lexically_normal();
  const auto rel = board.lexically_relative(fw);
  if (rel.empty() || rel.begin()->string() == "..") add(board_directory);  // a board from --board FILE
  return out;
}

util::Result<std::string> source_tree_digest(const fs::path& root) {
  std::string text;
  for (const auto& f : files_below(root)) {
    auto digest = util::sha256_file(f);
    if (!digest)
      return util::fail(fmt::format("cannot read '{}' to identify the source tree {}: {}",
                                    f.string(), root.string(), digest.error().message));
    field(text, "file", f.lexically_relative(root).string());
    field(text, "sha256", *digest);
  }
  return util::sha256_hex(text);
}

bool write_manifest(const fs::path& image_dir, const ImageManifest& manifest) {
  const fs::path tmp = image_dir / (std::string(kManifestName) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << kManifestHeader << "\nkey " << manifest.key << "\nelf_sha256 " << manifest.elf_sha256
        << '\n';
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(tmp, image_dir / kManifestName, ec);
  return !ec;
}

std::optional<ImageManifest> read_manifest(const fs::path& image_dir) {
  std::ifstream in(image_dir / kManifestName, std::ios::binary);
  if (!in) return std::nullopt;
  std::string header, key_word, elf_word;
  ImageManifest m;
  if (!std::getline(in, header) || header != kManifestHeader) return std::nullopt;
  if (!(in >> key_word >> m.key >> elf_word >> m.elf_sha256)) return std::nullopt;
  if (key_word != "key" || elf_word != "elf_sha256" || !util::is_sha256_hex(m.key) ||
      !util::is_sha256_hex(m.elf_sha256))
    return std::nullopt;
  return m;
}

bool manifest_matches(const fs::path& image_dir, const std::string& key, const fs::path& elf) {
  const auto manifest = read_manifest(image_dir);
  if (!manifest || manifest->key != key) return false;
  const auto digest = util::sha256_file(elf);
  return digest && *digest == manifest->elf_sha256;
}

void remove_manifest(const fs::path& image_dir) {
  std::error_code ec;
  fs::remove(image_dir / kManifestName, ec);
}

}  // namespace fathom::build
