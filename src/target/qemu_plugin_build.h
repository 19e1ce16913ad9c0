#pragma once
// Builds fathom's QEMU TCG plugin (src/target/qemu_plugin/fathom_probe_plugin.c) with the host
// C compiler against QEMU's plugin API header (include/qemu/qemu-plugin.h of the pinned `qemu`
// source, sources.lock), into the cache like a firmware image: keyed by the SHA-256 of the
// plugin source and the header, so an unchanged plugin is built once.
#include <filesystem>
#include <string>

#include "util/error.h"

namespace fathom::target {

struct QemuPlugin {
  std::filesystem::path library;  // the shared object to pass to `qemu-system-arm -plugin`
  std::string sha256;             // of the plugin source and header (the cache key)
};

struct QemuPluginBuild {
  std::filesystem::path plugin_source;      // fathom_probe_plugin.c
  std::filesystem::path qemu_source_root;   // the unpacked qemu source (has include/qemu/)
  std::filesystem::path cache_root;         // builds go to <cache_root>/qemu-plugin/<sha256>/
  std::string compiler = "cc";
};

// The plugin's source in this fathom's source tree.
std::filesystem::path default_plugin_source();

// The cached plugin, built first if needed. Errors: no qemu source (says to run `fathom sources
// --fetch`), an unreadable plugin source, or a compiler failure (its last line).
util::Result<QemuPlugin> build_qemu_plugin(const QemuPluginBuild& build);

}  // namespace fathom::target
