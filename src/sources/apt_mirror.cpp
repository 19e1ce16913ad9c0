#include "sources/apt_mirror.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <sstream>

namespace fathom::sources {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    std::size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) words.emplace_back(s.substr(start, i - start));
  }
  return words;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool contains(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string strip_trailing_slash(std::string uri) {
  while (uri.size() > 1 && uri.back() == '/') uri.pop_back();
  return uri;
}

bool is_security_suite(std::string_view suite) {
  auto ends_with = [&](std::string_view tail) {
    return suite.size() > tail.size() && suite.substr(suite.size() - tail.size()) == tail;
  };
  return ends_with("-security") || ends_with("/updates");
}

// A Debian archive is signed by Debian's keyring; a third-party repository that happens to use
// a Debian codename as its suite is signed by its own key.
bool signed_like_debian(const AptSourceEntry& entry) {
  return entry.signed_by.empty() || entry.signed_by.find("debian-archive") != std::string::npos;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::vector<AptSourceEntry> parse_deb822_sources(std::string_view text) {
  std::vector<AptSourceEntry> entries;
  std::vector<std::pair<std::string, std::string>> fields;  // lower-case name, value

  auto finish_stanza = [&] {
    if (fields.empty()) return;
    AptSourceEntry entry;
    bool enabled = true;
    for (const auto& [name, value] : fields) {
      if (name == "types") entry.types = split_words(value);
      if (name == "uris") entry.uris = split_words(value);
      if (name == "suites") entry.suites = split_words(value);
      if (name == "components") entry.components = split_words(value);
      if (name == "signed-by") entry.signed_by = std::string(trim(value));
      if (name == "enabled") enabled = lower(trim(value)) != "no";
    }
    fields.clear();
    if (enabled && !entry.types.empty() && !entry.uris.empty() && !entry.suites.empty()) {
      entries.push_back(std::move(entry));
    }
  };

  for (std::string_view line : split_lines(text)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() == '#') continue;  // comments never end a stanza
    if (trim(line).empty()) {
      finish_stanza();
    } else if (line.front() == ' ' || line.front() == '\t') {
      if (!fields.empty()) {  // continuation of the previous field
        fields.back().second += ' ';
        fields.back().second += trim(line);
      }
    } else if (auto colon = line.find(':'); colon != std::string_view::npos) {
      fields.emplace_back(lower(trim(line.substr(0, colon))),
                          std::string(trim(line.substr(colon + 1))));
    }
  }
  finish_stanza();
  return entries;
}

std::vector<AptSourceEntry> parse_one_line_sources(std::string_view text) {
  std::vector<AptSourceEntry> entries;
  for (std::string_view line : split_lines(text)) {
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    // Options may be written "[a=b c=d]" or "[ a=b ]"; pull them out before splitting.
    std::string rest(trim(line));
    std::string options;
    if (auto open = rest.find('['); open != std::string::npos) {
      auto close = rest.find(']', open);
      if (close == std::string::npos) continue;
      options = rest.substr(open + 1, close - open - 1);
      rest = rest.substr(0, open) + " " + rest.substr(close + 1);
    }
    auto words = split_words(rest);
    if (words.size() < 3 || (words[0] != "deb" && words[0] != "deb-src")) continue;
    AptSourceEntry entry;
    entry.types = {words[0]};
    entry.uris = {words[1]};
    entry.suites = {words[2]};
    entry.components.assign(words.begin() + 3, words.end());
    for (const auto& option : split_words(options)) {
      if (option.rfind("signed-by=", 0) == 0) entry.signed_by = option.substr(10);
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

bool is_debian_release_suite(std::string_view suite) {
  static constexpr std::array<std::string_view, 26> kReleases = {
      "buzz",     "rex",      "bo",       "hamm",      "slink",       "potato", "woody",
      "sarge",    "etch",     "lenny",    "squeeze",   "wheezy",      "jessie", "stretch",
      "buster",   "bullseye", "bookworm", "trixie",    "forky",       "duke",   "sid",
      "unstable", "testing",  "stable",   "oldstable", "oldoldstable"};
  return std::find(kReleases.begin(), kReleases.end(), suite) != kReleases.end();
}

std::optional<DebianMirror> find_debian_mirror(const std::vector<AptSourceEntry>& entries) {
  std::optional<DebianMirror> mirror;
  std::string security;
  for (const auto& entry : entries) {
    if (entry.uris.empty() || !signed_like_debian(entry)) continue;
    for (const auto& suite : entry.suites) {
      if (!mirror && is_debian_release_suite(suite) && contains(entry.components, "main")) {
        mirror = DebianMirror{strip_trailing_slash(entry.uris.front()), ""};
      }
      if (security.empty() && is_security_suite(suite)) {
        security = strip_trailing_slash(entry.uris.front());
      }
    }
  }
  if (mirror) mirror->security_uri = security;
  return mirror;
}

util::Result<DebianMirror> discover_debian_mirror(const std::filesystem::path& apt_etc) {
  std::vector<AptSourceEntry> entries;
  const auto main_list = apt_etc / "sources.list";
  if (std::filesystem::is_regular_file(main_list)) {
    entries = parse_one_line_sources(read_file(main_list));
  }
  std::vector<std::filesystem::path> parts;
  std::error_code ec;
  for (const auto& item : std::filesystem::directory_iterator(apt_etc / "sources.list.d", ec)) {
    const auto ext = item.path().extension();
    if (item.is_regular_file() && (ext == ".list" || ext == ".sources")) {
      parts.push_back(item.path());
    }
  }
  std::sort(parts.begin(), parts.end());  // apt reads them in alphanumeric order
  for (const auto& part : parts) {
    auto more = part.extension() == ".sources" ? parse_deb822_sources(read_file(part))
                                               : parse_one_line_sources(read_file(part));
    entries.insert(entries.end(), more.begin(), more.end());
  }
  if (auto mirror = find_debian_mirror(entries)) return *mirror;
  return util::fail("no Debian mirror found in " + main_list.string() + "{,.d}");
}

}  // namespace fathom::sources
