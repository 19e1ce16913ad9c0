#include "profile/profile_file.h"

#include <fmt/core.h>

#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fathom::profile {
namespace {

constexpr std::string_view kHeader = "fathom-profile 1";

// The fields after each record's kind (profile_file.h).
const std::map<std::string_view, size_t> kFieldCounts = {
    {"end", 0},     {"set", 5},  {"frame", 6}, {"profile", 7}, {"node", 8},
    {"address", 6}, {"nodeaddr", 4}, {"edge", 8}, {"event", 4}, {"exec", 1}};

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::optional<std::string> unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i == s.size()) return std::nullopt;
    if (s[i] == '\\') out += '\\';
    else if (s[i] == 't') out += '\t';
    else if (s[i] == 'n') out += '\n';
    else return std::nullopt;
  }
  return out;
}

template <typename T>
std::optional<T> number(std::string_view s) {
  T v{};
  if (s.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<bool> flag(std::string_view s) {
  if (s == "0") return false;
  if (s == "1") return true;
  return std::nullopt;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  for (size_t pos = 0;;) {
    const size_t tab = line.find('\t', pos);
    out.push_back(line.substr(pos, tab == std::string_view::npos ? tab : tab - pos));
    if (tab == std::string_view::npos) return out;
    pos = tab + 1;
  }
}

// A short, printable rendering of a bad line for an error message.
std::string quoted(std::string_view line) {
  std::string out;
  for (char c : line.substr(0, 80)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (line.size() > 80) out += "...";
  return out;
}

}  // namespace

void write_profile_file(const ProfileSet& set, std::ostream& out) {
  out << kHeader << '\n';
  out << fmt::format("set\t{}\t{}\t{}\t{}\t{}\n", set.clock_hz, escape(set.source),
                     escape(set.object), escape(set.board), escape(set.timing_model));
  for (const Frame& f : set.frames)
    out << fmt::format("frame\t{}\t{}\t{:d}\t{:d}\t{}\t{}\n", f.address, f.line, f.inlined,
                       f.exception_handler, escape(f.name), escape(f.file));
  for (const Profile& p : set.profiles) {
    out << fmt::format("profile\t{}\t{}\t{}\t{:d}\t{}\t{}\t{}\n", p.start_cycles, p.total_cycles,
                       p.total_instructions, p.trace_truncated, p.trace_event_limit,
                       p.peak_stack_bytes, escape(p.name));
    for (const CallNode& n : p.nodes) {
      std::string children;
      for (uint32_t c : n.children) children += (children.empty() ? "" : ",") + std::to_string(c);
      out << fmt::format("node\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", n.frame, n.parent, n.calls,
                         n.inclusive_cycles, n.exclusive_cycles, n.inclusive_instructions,
                         n.exclusive_instructions, children.empty() ? "-" : children);
    }
    for (const AddressCost& a : p.addresses)
      out << fmt::format("address\t{}\t{}\t{}\t{}\t{}\t{}\n", a.frame, a.address, a.line,
                         a.cycles, a.instructions, escape(a.file));
    for (const NodeAddressCost& a : p.node_addresses)
      out << fmt::format("nodeaddr\t{}\t{}\t{}\t{}\n", a.node, a.address, a.cycles,
                         a.instructions);
    for (const CallEdge& e : p.edges)
      out << fmt::format("edge\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", e.caller_frame, e.callee_frame,
                         e.call_address, e.call_line, e.calls, e.inclusive_cycles,
                         e.inclusive_instructions, escape(e.call_file));
    for (const TraceEvent& e : p.events)
      out << fmt::format("event\t{}\t{}\t{}\t{}\n", e.kind == TraceEvent::Kind::kEnter ? 'E' : 'L',
                         e.frame, e.at_cycles, e.stack_bytes);
    for (uint64_t c : p.execution_cycles) out << fmt::format("exec\t{}\n", c);
  }
  out << "end\n";
}

util::Result<ProfileSet> parse_profile_file(std::string_view text) {
  ProfileSet set;
  bool header = false, have_set = false, ended = false;
  size_t line_number = 0;
  for (size_t pos = 0; pos < text.size();) {
    const size_t newline = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
    pos = newline == std::string_view::npos ? text.size() : newline + 1;
    ++line_number;
    auto bad = [&](std::string_view what) {
      return util::fail(
          fmt::format("profile file line {}: {} ('{}')", line_number, what, quoted(line)));
    };
    if (ended) return bad("text after the end line");
    if (!header) {
      if (line != kHeader) return bad(fmt::format("expected '{}'", kHeader));
      header = true;
      continue;
    }
    const std::vector<std::string_view> f = split_tabs(line);
    const std::string_view kind = f[0];
    // Every record has a fixed number of fields after its kind: checked once, here.
    const auto count = kFieldCounts.find(kind);
    if (count == kFieldCounts.end()) return bad("unknown record");
    if (f.size() != count->second + 1)
      return bad(fmt::format("malformed {} line ({} fields, {} expected)", kind, f.size() - 1,
                             count->second));
    Profile* p = set.profiles.empty() ? nullptr : &set.profiles.back();
    auto frame_ok = [&](std::optional<uint32_t> v) { return v && *v < set.frames.size(); };
    if (kind == "end") {
      ended = true;
    } else if (kind == "set") {
      auto clock = number<uint64_t>(f[1]);
      auto source = unescape(f[2]);
      auto object = unescape(f[3]);
      auto board = unescape(f[4]);
      auto model = unescape(f[5]);
      if (have_set || !clock || !source || !object || !board || !model)
        return bad(have_set ? "a second set line" : "malformed set line");
      set.clock_hz = *clock, set.source = *source, set.object = *object, set.board = *board;
      set.timing_model = *model;
      have_set = true;
    } else if (kind == "frame") {
      auto address = number<uint32_t>(f[1]);
      auto line_no = number<uint32_t>(f[2]);
      auto inlined = flag(f[3]);
      auto handler = flag(f[4]);
      auto name = unescape(f[5]);
      auto file = unescape(f[6]);
      if (p) return bad("a frame after the first profile");
      if (!address || !line_no || !inlined || !handler || !name || !file)
        return bad("malformed frame line");
      set.frames.push_back({*name, *file, *line_no, *address, *inlined, *handler});
    } else if (kind == "profile") {
      Profile np;
      auto start = number<uint64_t>(f[1]);
      auto total = number<uint64_t>(f[2]);
      auto insns = number<uint64_t>(f[3]);
      auto truncated = flag(f[4]);
      auto limit = number<size_t>(f[5]);
      auto stack = number<uint32_t>(f[6]);
      auto name = unescape(f[7]);
      if (!start || !total || !insns || !truncated || !limit || !stack || !name)
        return bad("malformed profile line");
      np.name = *name, np.start_cycles = *start, np.total_cycles = *total;
      np.total_instructions = *insns, np.trace_truncated = *truncated;
      np.trace_event_limit = *limit, np.peak_stack_bytes = *stack;
      set.profiles.push_back(std::move(np));
    } else if (!p && (kind == "node" || kind == "address" || kind == "nodeaddr" ||
                      kind == "edge" || kind == "event" || kind == "exec")) {
      return bad(fmt::format("a '{}' record before the first profile line", kind));
    } else if (kind == "node") {
      CallNode n;
      auto frame = number<uint32_t>(f[1]);
      auto parent = number<int32_t>(f[2]);
      auto calls = number<uint64_t>(f[3]);
      auto ic = number<uint64_t>(f[4]);
      auto ec = number<uint64_t>(f[5]);
      auto ii = number<uint64_t>(f[6]);
      auto ei = number<uint64_t>(f[7]);
      if (!frame_ok(frame) || !parent || !calls || !ic || !ec || !ii || !ei)
        return bad("malformed node line, or a frame index out of range");
      const int32_t index = static_cast<int32_t>(p->nodes.size());
      // The root alone has no parent; every other node's parent came before it.
      if (index == 0 ? *parent != -1 : (*parent < 0 || *parent >= index))
        return bad("a node's parent is not an earlier node");
      n.frame = *frame, n.parent = *parent, n.calls = *calls, n.inclusive_cycles = *ic;
      n.exclusive_cycles = *ec, n.inclusive_instructions = *ii, n.exclusive_instructions = *ei;
      if (f[8] != "-")
        for (size_t at = 0;;) {
          const size_t comma = f[8].find(',', at);
          auto child = number<uint32_t>(f[8].substr(at, comma == std::string_view::npos ? comma : comma - at));
          // Children come after their parent (checked again when the child's line arrives).
          if (!child || static_cast<int64_t>(*child) <= index) return bad("a bad child index");
          n.children.push_back(*child);
          if (comma == std::string_view::npos) break;
          at = comma + 1;
        }
      p->nodes.push_back(std::move(n));
    } else if (kind == "address") {
      auto frame = number<uint32_t>(f[1]);
      auto address = number<uint32_t>(f[2]);
      auto line_no = number<uint32_t>(f[3]);
      auto cycles = number<uint64_t>(f[4]);
      auto insns = number<uint64_t>(f[5]);
      auto file = unescape(f[6]);
      if (!frame_ok(frame) || !address || !line_no || !cycles || !insns || !file)
        return bad("malformed address line, or a frame index out of range");
      p->addresses.push_back({*frame, *address, *file, *line_no, *cycles, *insns});
    } else if (kind == "nodeaddr") {
      auto node = number<uint32_t>(f[1]);
      auto address = number<uint32_t>(f[2]);
      auto cycles = number<uint64_t>(f[3]);
      auto insns = number<uint64_t>(f[4]);
      if (!node || *node >= p->nodes.size() || !address || !cycles || !insns)
        return bad("malformed nodeaddr line, or a node index out of range");
      p->node_addresses.push_back({*node, *address, *cycles, *insns});
    } else if (kind == "edge") {
      auto caller = number<uint32_t>(f[1]);
      auto callee = number<uint32_t>(f[2]);
      auto at = number<uint32_t>(f[3]);
      auto line_no = number<uint32_t>(f[4]);
      auto calls = number<uint64_t>(f[5]);
      auto ic = number<uint64_t>(f[6]);
      auto ii = number<uint64_t>(f[7]);
      auto file = unescape(f[8]);
      if (!frame_ok(caller) || !frame_ok(callee) || !at || !line_no || !calls || !ic || !ii ||
          !file)
        return bad("malformed edge line, or a frame index out of range");
      p->edges.push_back({*caller, *callee, *at, *file, *line_no, *calls, *ic, *ii});
    } else if (kind == "event") {
      auto frame = number<uint32_t>(f[2]);
      auto at = number<uint64_t>(f[3]);
      auto stack = number<uint32_t>(f[4]);
      if ((f[1] != "E" && f[1] != "L") || !frame_ok(frame) || !at || !stack)
        return bad("malformed event line, or a frame index out of range");
      p->events.push_back({f[1] == "E" ? TraceEvent::Kind::kEnter : TraceEvent::Kind::kLeave,
                           *frame, *at, *stack});
    } else if (kind == "exec") {
      auto cycles = number<uint64_t>(f[1]);
      if (!cycles) return bad("malformed exec line");
      p->execution_cycles.push_back(*cycles);
    }
  }
  if (!header) return util::fail("profile file: empty (no 'fathom-profile 1' header)");
  if (!ended)
    return util::fail(fmt::format("profile file: no end line after line {} (the file was cut "
                                  "short)",
                                  line_number));
  if (!have_set) return util::fail("profile file: no set line");
  // Parents and children agree: every listed child exists and names that parent, and every
  // node but the root is listed by its parent exactly once.
  for (const Profile& p : set.profiles) {
    std::vector<uint32_t> listed(p.nodes.size(), 0);
    for (size_t i = 0; i < p.nodes.size(); ++i)
      for (uint32_t c : p.nodes[i].children) {
        if (c >= p.nodes.size() || p.nodes[c].parent != static_cast<int32_t>(i))
          return util::fail(fmt::format("profile file: profile '{}': node {} lists node {} as "
                                        "a child, which is not its child",
                                        p.name, i, c));
        ++listed[c];
      }
    for (size_t i = 1; i < p.nodes.size(); ++i)
      if (listed[i] != 1)
        return util::fail(fmt::format("profile file: profile '{}': node {} is listed by its "
                                      "parent {} times",
                                      p.name, i, listed[i]));
  }
  return set;
}

}  // namespace fathom::profile
