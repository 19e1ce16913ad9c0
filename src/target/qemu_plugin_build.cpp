#include "target/qemu_plugin_build.h"

#include <fmt/core.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <system_error>

#include "util/sha256.h"
#include "util/subprocess.h"
#include "util/source_dir.h"

namespace fathom::target {
namespace fs = std::filesystem;
namespace {

util::Result<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return util::fail(fmt::format("cannot read {}", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

fs::path default_plugin_source() {
  return fs::path(fathom::util::source_dir()) / "src/target/qemu_plugin/fathom_probe_plugin.c";
}

util::Result<QemuPlugin> build_qemu_plugin(const QemuPluginBuild& build) {
  const fs::path include_dir = build.qemu_source_root / "include" / "qemu";
  const fs::path header = include_dir / "qemu-plugin.h";
  if (build.qemu_source_root.empty() || !fs::is_regular_file(header))
    return util::fail(fmt::format(
        "the QEMU target needs QEMU's plugin header ({}), from the pinned qemu source: run "
        "fathom sources --fetch",
        build.qemu_source_root.empty() ? std::string("include/qemu/qemu-plugin.h")
                                       : header.string()));
  auto source = read_file(build.plugin_source);
  if (!source) return tl::unexpected(source.error());
  auto header_text = read_file(header);
  if (!header_text) return tl::unexpected(header_text.error());

  QemuPlugin plugin;
  plugin.sha256 = util::sha256_hex(util::sha256_hex(*source) + util::sha256_hex(*header_text));
  const fs::path dir = build.cache_root / "qemu-plugin" / plugin.sha256;
  plugin.library = dir / "fathom_probe_plugin.so";
  if (fs::is_regular_file(plugin.library)) return plugin;

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return util::fail(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  // Built under a private name, then renamed: a concurrent fathom never sees half a library.
  const fs::path partial = dir / fmt::format("fathom_probe_plugin.so.{}.partial", ::getpid());
  auto cc = util::run_process({build.compiler, "-shared", "-fPIC", "-O2", "-std=gnu11", "-Wall",
                               "-Wextra", "-Werror", "-I" + include_dir.string(),
                               build.plugin_source.string(), "-o", partial.string()});
  if (!cc) return tl::unexpected(cc.error());
  if (cc->exit_code != 0) {
    fs::remove(partial, ec);
    return util::fail(fmt::format("building the QEMU plugin {} failed ({}): {}",
                                  build.plugin_source.string(), build.compiler,
                                  util::last_line(cc->stderr_text)));
  }
  fs::rename(partial, plugin.library, ec);
  if (ec)
    return util::fail(fmt::format("cannot move the QEMU plugin to {}: {}",
                                  plugin.library.string(), ec.message()));
  return plugin;
}

}  // namespace fathom::target
