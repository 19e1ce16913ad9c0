#include "profile/export/folded_writer.h"

#include <fmt/core.h>
#include <fmt/ostream.h>

#include <map>

#include "profile/export/profile_views.h"

namespace fathom::profile {
namespace {

// ';' separates frames and the last blank separates the count: neither may hide in a name.
std::string safe_frame(std::string name) {
  if (name.empty()) return "???";
  for (char& c : name) {
    if (c == ';') c = '_';
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return name;
}

}  // namespace

std::vector<FoldedStack> folded_stacks(const ProfileSet& set, bool prefix_operation) {
  // Names made safe once per frame; index frames.size() is the "unknown frame".
  std::vector<std::string> names;
  names.reserve(set.frames.size() + 1);
  for (uint32_t i = 0; i <= set.frames.size(); ++i) names.push_back(safe_frame(frame_name(set, i)));

  // The root frame names of every profile: an operation's prefix is left out when it would only
  // repeat its own root frame ("crypto_kem_keypair;crypto_kem_keypair;..."), unless another
  // profile's stacks start with that name too (they would then merge).
  std::map<std::string, size_t> roots;
  for (const Profile& profile : set.profiles)
    if (!profile.nodes.empty()) {
      const uint32_t root = profile.nodes[0].frame;
      ++roots[names[root < set.frames.size() ? root : set.frames.size()]];
    }
  std::vector<FoldedStack> lines;
  std::map<std::string, size_t> index_of;
  for (size_t p = 0; p < set.profiles.size(); ++p) {
    const Profile& profile = set.profiles[p];
    std::string prefix =
        profile.name.empty() ? fmt::format("profile {}", p + 1) : safe_frame(profile.name);
    if (prefix_operation && !profile.nodes.empty()) {
      const uint32_t root = profile.nodes[0].frame;
      const std::string& root_name = names[root < set.frames.size() ? root : set.frames.size()];
      if (root_name == prefix && roots[root_name] == 1) prefix.clear();
    }
    for (const CallStack& stack : exclusive_stacks(profile, set.frames.size())) {
      std::string text = prefix_operation ? prefix : std::string();
      for (uint32_t frame : stack.frames) {
        if (!text.empty()) text += ';';
        text += names[frame];
      }
      auto [it, inserted] = index_of.try_emplace(text, lines.size());
      if (inserted) lines.push_back({std::move(text), 0});
      lines[it->second].cycles += stack.exclusive_cycles;
    }
  }
  return lines;
}

void FoldedWriter::write(const ProfileSet& set, std::ostream& out) const {
  for (const FoldedStack& line : folded_stacks(set, set.profiles.size() > 1))
    fmt::print(out, "{} {}\n", line.stack, line.cycles);
}

void write_folded_diff(const ProfileSet& before, const ProfileSet& after, std::ostream& out) {
  const bool prefix = before.profiles.size() > 1 || after.profiles.size() > 1;
  struct Counts {
    uint64_t before = 0;
    uint64_t after = 0;
  };
  std::vector<std::pair<std::string, Counts>> rows;
  std::map<std::string, size_t> index_of;
  auto add = [&](const ProfileSet& set, uint64_t Counts::*side) {
    for (FoldedStack& line : folded_stacks(set, prefix)) {
      auto [it, inserted] = index_of.try_emplace(line.stack, rows.size());
      if (inserted) rows.push_back({std::move(line.stack), Counts{}});
      rows[it->second].second.*side += line.cycles;
    }
  };
  add(before, &Counts::before);
  add(after, &Counts::after);
  for (const auto& [stack, counts] : rows)
    fmt::print(out, "{} {} {}\n", stack, counts.before, counts.after);
}

}  // namespace fathom::profile
