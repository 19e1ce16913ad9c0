#pragma once
// Finding the machine's Debian mirror in its apt configuration, so that source packages are
// fetched from the same place its binary packages come from (no host name is ever built in).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace fathom::sources {

// One apt source as written in either format.
struct AptSourceEntry {
  std::vector<std::string> types;       // "deb", "deb-src"
  std::vector<std::string> uris;        // e.g. "http://mirror.example/debian"
  std::vector<std::string> suites;      // e.g. "bookworm", "bookworm-security"
  std::vector<std::string> components;  // e.g. "main"
  std::string signed_by;                // the Signed-By / signed-by= value, or ""
};

// The archive to fetch Debian source packages from.
struct DebianMirror {
  std::string archive_uri;   // the main archive, e.g. "http://mirror.example/debian"
  std::string security_uri;  // the security archive, or "" if the machine has none
};

// Parses deb822 text (a *.sources file). Disabled stanzas (`Enabled: no`) are skipped.
// Malformed stanzas (no Types/URIs/Suites) are skipped too: apt itself would reject them, and
// here they only mean "not a usable mirror".
std::vector<AptSourceEntry> parse_deb822_sources(std::string_view text);

// Parses one-line-format text (sources.list, *.list). Comments and malformed lines are skipped.
std::vector<AptSourceEntry> parse_one_line_sources(std::string_view text);

// True if `suite` names a Debian release itself ("bookworm", "trixie", "stable", "sid", ...),
// not an add-on suite ("bookworm-updates", "bookworm-security").
bool is_debian_release_suite(std::string_view suite);

// The first entry (in apt's reading order) that looks like a Debian archive — a Debian
// release suite, component "main", signed by the Debian archive keyring or by nothing in
// particular — and the first security archive (suite "<release>-security" or "<release>/updates").
// nullopt if there is no main archive.
std::optional<DebianMirror> find_debian_mirror(const std::vector<AptSourceEntry>& entries);

// Reads `<apt_etc>/sources.list` and `<apt_etc>/sources.list.d/*.{list,sources}` (in apt's
// order) and finds the Debian mirror. Fails with "no Debian mirror found in ..." if none.
util::Result<DebianMirror> discover_debian_mirror(
    const std::filesystem::path& apt_etc = "/etc/apt");

}  // namespace fathom::sources
