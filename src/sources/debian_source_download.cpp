#include "sources/debian_source_download.h"

#include <fmt/core.h>
#include <unistd.h>

#include <fstream>

#include "util/subprocess.h"

namespace fathom::sources {
namespace {

constexpr const char* kKeyring = "/usr/share/keyrings/debian-archive-keyring.gpg";

std::string list_dir(const std::filesystem::path& dir) {
  std::string names;
  std::error_code ec;
  for (const auto& item : std::filesystem::directory_iterator(dir, ec)) {
    if (!names.empty()) names += ", ";
    names += item.path().filename().string();
  }
  return names.empty() ? "nothing" : names;
}

}  // namespace

std::string debian_source_list(const DebianMirror& mirror, const std::string& suite) {
  std::string text =
      fmt::format("deb-src [signed-by={}] {} {} main\n", kKeyring, mirror.archive_uri, suite);
  if (!mirror.security_uri.empty()) {
    text += fmt::format("deb-src [signed-by={}] {} {}-security main\n", kKeyring,
                        mirror.security_uri, suite);
  }
  return text;
}

util::Result<std::filesystem::path> download_debian_source(const SourceEntry& entry,
                                                           const DownloadDirs& dirs,
                                                           const std::filesystem::path& apt_etc) {
  const std::string override_hint = fmt::format("set {}=/path/to/{}", entry.env, entry.unpacks_to);
  auto mirror = discover_debian_mirror(apt_etc);
  if (!mirror)
    return util::fail(fmt::format("{}; add one or {}", mirror.error().message, override_hint));

  // A private apt state per suite: lists, caches and the source list live in the cache.
  const auto state = dirs.state_dir / ("apt-" + entry.suite);
  std::error_code ec;
  for (const auto& dir : {state / "lists" / "partial", state / "cache" / "archives" / "partial"}) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return util::fail(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  }
  const auto source_list = state / "sources.list";
  {
    std::ofstream out(source_list, std::ios::trunc);
    out << debian_source_list(*mirror, entry.suite);
    if (!out) return util::fail("cannot write " + source_list.string());
  }

  std::vector<std::string> apt = {
      "apt-get", "-q",
      "-o",      "Dir::Etc::SourceList=" + source_list.string(),
      "-o",      "Dir::Etc::SourceParts=/dev/null",
      "-o",      "Dir::State::Lists=" + (state / "lists").string(),
      "-o",      "Dir::Cache=" + (state / "cache").string(),
      "-o",      "Debug::NoLocking=1",
  };
  if (::geteuid() == 0) {
    // As root, apt drops to the _apt user to download; that user usually cannot enter a home
    // directory cache (e.g. /root/.cache). The files are verified by hash afterwards anyway.
    apt.insert(apt.end(), {"-o", "APT::Sandbox::User=root"});
  }
  auto download_failed = [&](const std::string& step, const util::ProcessOutput& out) {
    std::string why = util::last_line(out.stderr_text);
    if (why.empty()) why = util::last_line(out.stdout_text);
    return util::fail(
        fmt::format("could not download {} from the Debian archive ({} failed: {}); "
                    "check network access (and that {} still has {}={}) or {}",
                    entry.label(), step, why, entry.suite, entry.package, entry.package_version,
                    override_hint));
  };

  auto update_argv = apt;
  update_argv.push_back("update");
  auto update = util::run_process(update_argv);
  if (!update) return util::fail(update.error().message);
  if (update->exit_code != 0) return download_failed("apt-get update", *update);

  auto source_argv = apt;
  source_argv.insert(source_argv.end(), {"source", "--download-only", "--only-source",
                                         entry.package + "=" + entry.package_version});
  auto source = util::run_process(source_argv, {.working_directory = dirs.work_dir});
  if (!source) return util::fail(source.error().message);
  if (source->exit_code != 0) return download_failed("apt-get source", *source);

  const auto archive = dirs.work_dir / entry.archive;
  if (!std::filesystem::is_regular_file(archive)) {
    return util::fail(fmt::format(
        "apt-get source {}={} did not produce {} (it produced: {}); "
        "check 'archive' for {} in sources.lock",
        entry.package, entry.package_version, entry.archive, list_dir(dirs.work_dir), entry.name));
  }
  return archive;
}

}  // namespace fathom::sources
