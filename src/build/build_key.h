#pragma once
// The content-hash key of a firmware image and the manifest that records a finished build.
//
// An image's key is a SHA-256 over everything that decides its bytes: the toolchain's version
// line, the final compiler and linker flag vectors, the generated files (configuration header,
// memory map), the library's pinned source identity and the content of every firmware file the
// build may read. Two builds with the same key produce the same image, so an image directory
// whose manifest holds that key and whose ELF still has the recorded SHA-256 is reused without
// running ninja at all (image_builder.cpp). Ninja still does the actual building (and keeps a
// changed input's rebuild incremental).
//
// The key does not depend on where fathom's tree is checked out: the compiler maps the tree's
// path out of the image (-ffile-prefix-map), and the key sees it as a label (RelocatableRoot).
// So a clean clone elsewhere reuses the images another clone built, and they are the same bytes.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "util/error.h"

namespace fathom::build {

// A directory whose location does not reach an image's bytes, because every compilation maps
// it away (-ffile-prefix-map=<path>/=): in the key, its path stands for `label`.
struct RelocatableRoot {
  std::filesystem::path path;
  std::string label;
};

// `text` with each root's path, where it is followed by '/' or ends the text, replaced by the
// root's label. A root that is empty or "/" is left alone.
std::string relocate(std::string text, const std::vector<RelocatableRoot>& roots);

// Everything an image's bytes depend on, in the order it is hashed. Each part is hashed with
// its length and a label, so moving text from one part to the next changes the key.
struct BuildKeyInputs {
  std::string toolchain_version;               // first line of `gcc --version`
  // Named flag vectors as they reach the tools ("library cflags", "image cflags", "ldflags").
  // Pass the final vectors: whatever is added to them enters the key on its own.
  std::vector<std::pair<std::string, std::vector<std::string>>> flags;
  // Named generated texts ("memory.ld", the build.ninja files), by content, read as the tools
  // read them (NinjaFile::unquoted: no ninja escapes or shell quotes, so a root that needs
  // them, like "/ci/run:2/a b", relocates as any other).
  std::vector<std::pair<std::string, std::string>> generated_files;
  // The library's source identity: the lock's archive SHA-256 for a pinned source, or
  // source_tree_digest() of an override tree.
  std::string library_source_identity;
  // Files read by the build (firmware/ sources, headers, vectors, linker scripts, board.toml):
  // hashed by path and content. The order does not matter (they are sorted by their relocated
  // names first, so it does not depend on where a root lies beside other directories).
  std::vector<std::filesystem::path> files;
  // Applied (relocate()) to every flag, generated text and file path above; not to the
  // contents of `files`.
  std::vector<RelocatableRoot> roots;
};

// The key: 64 lower-case hex digits. Fails if one of `inputs.files` cannot be read (the build
// would fail too; the message names the file).
util::Result<std::string> build_key(const BuildKeyInputs& inputs);

// Every regular file below `dir` (recursively, sorted), for BuildKeyInputs::files. Hidden
// entries (".git", editor swap files) are skipped. A missing directory gives an empty list.
std::vector<std::filesystem::path> files_below(const std::filesystem::path& dir);

// The firmware files an image's key hashes: every file below `firmware_dir` and, for a board
// described outside it (--board FILE), below `board_directory`, except the board descriptions
// (boards/<name>/board.toml, the .toml files in `board_directory`). Everything a build takes from
// a board description reaches the key through the generated files (build.ninja, memory.ld), so
// a board's run-time settings ([serial], [qemu], clock, timing) or another board's edits do not
// rebuild images.
std::vector<std::filesystem::path> firmware_key_files(const std::filesystem::path& firmware_dir,
                                                      const std::filesystem::path& board_directory);

// A SHA-256 over the relative paths and contents of every file below `root` (hidden entries
// skipped): the identity of a source tree that has no pinned archive (an env override).
util::Result<std::string> source_tree_digest(const std::filesystem::path& root);

// What a successful build leaves in its image directory (`image.manifest`).
struct ImageManifest {
  std::string key;          // build_key() of the inputs it was built from
  std::string elf_sha256;   // SHA-256 of image.elf as it was checked
};

// Writes `manifest` into `image_dir` atomically (a temporary file, then a rename), so a
// crashed or concurrent writer never leaves half a manifest. Returns false on an I/O error.
bool write_manifest(const std::filesystem::path& image_dir, const ImageManifest& manifest);

// Reads `image_dir`'s manifest; nullopt if it is missing or malformed (never an error: a bad
// manifest only means "build again").
std::optional<ImageManifest> read_manifest(const std::filesystem::path& image_dir);

// True if `image_dir` holds a complete image for `key`: its manifest records `key` and `elf`
// still has the recorded SHA-256 (a truncated or edited ELF is built again).
bool manifest_matches(const std::filesystem::path& image_dir, const std::string& key,
                      const std::filesystem::path& elf);

// Removes `image_dir`'s manifest (before a build starts, so an interrupted build never looks
// complete).
void remove_manifest(const std::filesystem::path& image_dir);

}  // namespace fathom::build
