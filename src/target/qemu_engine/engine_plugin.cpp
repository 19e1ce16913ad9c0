// fathom's QEMU engine: a TCG plugin (QEMU 10, plugin API 4) that carries fathom's timing model
// (sim::TcgTiming) inside qemu-system-arm. QEMU executes the guest; the plugin charges every
// instruction to the board's core model and records, at each DWT_CYCCNT read, the count the
// simulator's CYCCNT would return there. docs/QEMU-ENGINE.md.
//
// Arguments (-plugin libfathom_qemu_engine.so,ARG=VALUE,...):
//   out=PATH        the probe file written at exit (format below)
//   console=ADDR    the console's DATA register (CMSDK UART base)
//   core=NAME       cortex-m33, cortex-m4, cortex-m3, cortex-m0plus
//   vtor=ADDR       the boot address (VTOR out of reset)
//   prefetch=0|1 icache=0|1 refinements=0|1 multiplier=fast|small
//   region=KIND:ORIGIN:LENGTH:WAIT_STATES   one per memory region (KIND flash or ram)
//   elf=PATH        the image: with it the simulator's memory watch runs too (profile::
//                   MemoryWatch: stack from SP, heap at the allocator), one "watch" line per
//                   operation execution
//   groups=PATH     with elf=: the primitive groups ("<group>\t<pattern>" lines); the
//                   primitive-share call tracker runs too, one "share" line per operation
//                   and group
//   profile=PATH    with elf=: `fathom profile`'s call tracker runs too (profile::CallTracker
//                   with profile::tracker_options_for the image); its ProfileSet is written
//                   to PATH at exit (profile/profile_file.h)
//
// Output ("fathom-qemu-probes 2", target/qemu_probe_file.h):
//   probe <instructions_before> <console_bytes_before> <cyccnt>     one per CYCCNT read
//   stat <name> <value>
//   watch <operation> <call_address> <returned> <peak_stack> <deepest_pc> <unwritten_bytes>
//         <heap_start> <heap_peak> <allocations>                 with elf=
//   share<TAB><operation><TAB><group><TAB><share><TAB><calls per execution>   with groups=
//   total <instructions> <console_bytes> <cycles>
// The MPS2 machines have one vCPU; the callbacks run on it, one at a time.
#include <glib.h>

extern "C" {
#include <qemu/qemu-plugin.h>
}

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "profile/memory_watch.h"
#include "profile/primitive_share.h"
#include "profile/profile_file.h"
#include "profile/tracker_options.h"
#include "sim/observer_fanout.h"
#include "sim/tcg_timing.h"
#include "sim/timing/core_timing_model.h"

namespace fathom::sim::timing {
util::Result<std::unique_ptr<CoreTimingModel>> make_timing_model(const model::Board& board);
}

namespace {

using fathom::sim::TcgTiming;

// udata of an instruction callback: its block and index. Kept for QEMU's lifetime.
struct InstructionRef {
  TcgTiming::Block* block;
  size_t index;
};

// Everything the callbacks share. Allocated once and never freed: QEMU calls the atexit
// callback from its own exit handler, after the plugin's static destructors have run.
struct Engine {
  std::unique_ptr<TcgTiming> timing;
  std::string out_path;
  // The simulator's memory watch (stack from SP, heap at the allocator), with `elf=PATH`.
  std::unique_ptr<fathom::elf::ElfImage> image;
  std::unique_ptr<fathom::profile::MemoryWatch> watch;
  std::vector<std::string> operation_names;  // the watch's operation indices
  // The primitive-share call tracker (as every `fathom run` on the simulator), with groups=.
  std::unique_ptr<fathom::profile::PrimitiveShareRecorder> share;
  // `fathom profile`'s call tracker, with profile=PATH.
  std::unique_ptr<fathom::profile::CallTracker> profiler;
  std::string profile_path;
  fathom::sim::ObserverFanout observers;
  // Per block, its instructions' refs (a block translated again reuses them).
  std::unordered_map<const TcgTiming::Block*, std::vector<std::unique_ptr<InstructionRef>>> refs;
};
Engine* engine = nullptr;
TcgTiming* timing = nullptr;              // engine->timing
qemu_plugin_scoreboard* score = nullptr;  // per vCPU: 1 once the running block's last
                                          // instruction started
qemu_plugin_register* core_registers[15] = {};  // r0..r12, sp, lr
qemu_plugin_register* xpsr_register = nullptr;
GByteArray* register_buffer = nullptr;
uint64_t register_failures = 0;

qemu_plugin_u64 done_flag() { return qemu_plugin_scoreboard_u64(score); }

// Core register `index` (0..14; anything above reads LR, as sim::Machine's operand reads do),
// or xPSR with `xpsr`.
uint32_t read_register(unsigned index, bool xpsr = false) {
  qemu_plugin_register* handle = xpsr ? xpsr_register : core_registers[index <= 14 ? index : 14];
  if (handle == nullptr) {
    ++register_failures;
    return 0;
  }
  g_byte_array_set_size(register_buffer, 0);
  if (qemu_plugin_read_register(handle, register_buffer) != 4) {
    ++register_failures;
    return 0;
  }
  uint32_t v;
  std::memcpy(&v, register_buffer->data, 4);  // target order: little-endian Arm, x86-64 host
  return v;
}

// The vCPU's done flag, looked up once: qemu_plugin_u64_get/_set search the scoreboard on
// every call (a tenth of the engine's time). QEMU moves a scoreboard only when it grows for a
// new vCPU, and the MPS2 machines have one, created before the first block runs.
uint64_t* done_entry(unsigned int vcpu) {
  static unsigned int cached_vcpu = UINT32_MAX;
  static uint64_t* cached = nullptr;
  if (vcpu != cached_vcpu) {
    cached = static_cast<uint64_t*>(qemu_plugin_scoreboard_find(score, vcpu));
    cached_vcpu = vcpu;
  }
  return cached;
}

// A word of guest memory (the memory watch's stack-paint check); nullopt if unreadable.
std::optional<uint32_t> read_word(uint32_t address) {
  GByteArray* buffer = g_byte_array_new();
  const bool ok = qemu_plugin_read_memory_vaddr(address, buffer, 4) && buffer->len == 4;
  uint32_t v = 0;
  if (ok) std::memcpy(&v, buffer->data, 4);
  g_byte_array_free(buffer, TRUE);
  if (!ok) return std::nullopt;
  return v;
}

void on_block(unsigned int vcpu, void* udata) {
  uint64_t* done = done_entry(vcpu);
  const bool completed = *done != 0;
  *done = 0;
  timing->enter(static_cast<TcgTiming::Block*>(udata), completed);
}

void on_operands(unsigned int, void* udata) {
  const auto* ref = static_cast<const InstructionRef*>(udata);
  const auto& insn = ref->block->instructions[ref->index];
  timing->operands(ref->block, ref->index, read_register(insn.operand_regs[0]),
                   read_register(insn.operand_regs[1]));
}

void on_flags(unsigned int, void* udata) {
  const auto* ref = static_cast<const InstructionRef*>(udata);
  timing->flags(ref->block, ref->index, read_register(0, /*xpsr=*/true));
}

void on_memory(unsigned int, qemu_plugin_meminfo_t info, uint64_t vaddr, void* udata) {
  const auto* ref = static_cast<const InstructionRef*>(udata);
  const qemu_plugin_mem_value value = qemu_plugin_mem_get_value(info);
  const uint64_t v = value.type == QEMU_PLUGIN_MEM_VALUE_U8    ? value.data.u8
                     : value.type == QEMU_PLUGIN_MEM_VALUE_U16 ? value.data.u16
                     : value.type == QEMU_PLUGIN_MEM_VALUE_U32 ? value.data.u32
                                                               : value.data.u64;
  timing->memory(ref->block, ref->index, static_cast<uint32_t>(vaddr),
                 qemu_plugin_mem_is_store(info), v);
}

void on_translate(qemu_plugin_id_t, qemu_plugin_tb* tb) {
  const size_t n = qemu_plugin_tb_n_insns(tb);
  if (n == 0) return;
  std::vector<uint8_t> bytes(n * 4);
  std::vector<TcgTiming::TranslatedInstruction> insns(n);
  for (size_t i = 0; i < n; ++i) {
    const qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    const size_t size = qemu_plugin_insn_data(insn, bytes.data() + 4 * i, 4);
    insns[i] = {static_cast<uint32_t>(qemu_plugin_insn_vaddr(insn)),
                std::span<const uint8_t>(bytes.data() + 4 * i, size)};
  }
  TcgTiming::Block* block = timing->translate(insns);
  // With the memory watch the block callback reads SP (after blocks that write it) and the
  // heap calls' arguments: it needs the registers.
  qemu_plugin_register_vcpu_tb_exec_cb(
      tb, on_block, engine->watch ? QEMU_PLUGIN_CB_R_REGS : QEMU_PLUGIN_CB_NO_REGS, block);
  qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(qemu_plugin_tb_get_insn(tb, n - 1),
                                                      QEMU_PLUGIN_INLINE_STORE_U64, done_flag(),
                                                      1);
  auto& refs = engine->refs[block];
  if (refs.empty())
    for (size_t i = 0; i < n; ++i)
      refs.push_back(std::make_unique<InstructionRef>(InstructionRef{block, i}));
  for (size_t i = 0; i < n; ++i) {
    const uint8_t kind = block->kinds[i];
    if (kind == 0) continue;
    qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
    InstructionRef* ref = refs[i].get();
    if (kind & TcgTiming::Block::kOperands)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_operands, QEMU_PLUGIN_CB_R_REGS, ref);
    if (kind & TcgTiming::Block::kFlags)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_flags, QEMU_PLUGIN_CB_R_REGS, ref);
    if (kind & TcgTiming::Block::kMemory)
      qemu_plugin_register_vcpu_mem_cb(insn, on_memory, QEMU_PLUGIN_CB_NO_REGS,
                                       QEMU_PLUGIN_MEM_RW, ref);
  }
}

void on_vcpu_init(qemu_plugin_id_t, unsigned int) {
  GArray* regs = qemu_plugin_get_registers();
  for (guint i = 0; i < regs->len; ++i) {
    const auto* r = &g_array_index(regs, qemu_plugin_reg_descriptor, i);
    const std::string_view name = r->name;
    for (unsigned k = 0; k <= 12; ++k)
      if (name == "r" + std::to_string(k)) core_registers[k] = r->handle;
    if (name == "sp") core_registers[13] = r->handle;
    if (name == "lr") core_registers[14] = r->handle;
    if (name == "xpsr") xpsr_register = r->handle;
  }
  g_array_free(regs, TRUE);
}

void write_at_exit(qemu_plugin_id_t, void*) {
  timing->finish();
  FILE* f = std::fopen(engine->out_path.c_str(), "w");
  if (f == nullptr) {
    std::fprintf(stderr, "fathom QEMU engine: cannot write %s\n", engine->out_path.c_str());
    return;
  }
  std::fprintf(f, "fathom-qemu-probes 2\n");
  for (const auto& p : timing->probes())
    std::fprintf(f, "probe %" PRIu64 " %" PRIu64 " %" PRIu32 "\n", p.instructions,
                 p.console_bytes, p.cyccnt);
  const auto& s = timing->stats();
  std::fprintf(f, "stat model %s\n", timing->model().name().c_str());
  std::fprintf(f, "stat blocks %" PRIu64 "\n", s.blocks);
  std::fprintf(f, "stat translations %" PRIu64 "\n", s.translations);
  std::fprintf(f, "stat memoized %" PRIu64 "\n", s.memoized);
  std::fprintf(f, "stat charged %" PRIu64 "\n", s.charged);
  std::fprintf(f, "stat memo_misses %" PRIu64 "\n", s.memo_misses);
  std::fprintf(f, "stat early_exits %" PRIu64 "\n", s.early_exits);
  std::fprintf(f, "stat unplaced %" PRIu64 "\n", s.unplaced + register_failures);
  if (engine->watch) {
    // One line per operation execution: name, call address, returned, peak stack, deepest pc,
    // unwritten stack bytes, heap at start, heap peak, allocations.
    for (const auto& e : engine->watch->executions())
      std::fprintf(f,
                   "watch %s %" PRIu32 " %d %" PRIu64 " %" PRIu32 " %" PRIu64 " %" PRIu64
                   " %" PRIu64 " %" PRIu64 "\n",
                   engine->operation_names[e.operation].c_str(), e.call_address,
                   e.returned ? 1 : 0, e.peak_stack_bytes(), e.deepest_pc, e.unwritten_bytes,
                   e.heap_start_bytes, e.heap_peak_bytes, e.allocations);
    if (engine->share)
      for (const auto& [op, figures] : engine->share->finish())
        for (const auto& [group, share] : figures.share) {
          const auto calls = figures.calls_per_execution.find(group);
          // Tab-separated (group names may hold spaces); %a: the doubles exactly.
          std::fprintf(f, "share\t%s\t%s\t%a\t%a\n", op.c_str(), group.c_str(), share,
                       calls != figures.calls_per_execution.end() ? calls->second : 0.0);
        }
    std::fprintf(f, "stat watch_inexact_sp %" PRIu64 "\n", engine->watch->inexact_sp_events());
    std::fprintf(f, "stat watch_unknown_frees %" PRIu64 "\n", engine->watch->unknown_frees());
  }
  std::fprintf(f, "total %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", timing->instructions(),
               timing->console_bytes(), timing->cycles());
  std::fclose(f);
  if (engine->profiler) {
    std::ofstream out(engine->profile_path, std::ios::binary | std::ios::trunc);
    fathom::profile::write_profile_file(engine->profiler->finish(), out);
    if (!out)
      std::fprintf(stderr, "fathom QEMU engine: cannot write %s\n", engine->profile_path.c_str());
  }
}

// The primitive groups file the QEMU target writes: "<group>\t<pattern>" per line.
fathom::util::Result<fathom::profile::PrimitiveGroups> read_groups(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (f == nullptr) return fathom::util::fail("cannot read the primitive groups file " + path);
  fathom::profile::PrimitiveGroups groups;
  char line[4096];
  int number = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    ++number;
    std::string text(line);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    const size_t tab = text.find('\t');
    if (tab == std::string::npos || tab == 0 || tab + 1 == text.size()) {
      std::fclose(f);
      return fathom::util::fail(path + ":" + std::to_string(number) +
                                ": expected '<group><TAB><pattern>'");
    }
    groups[text.substr(0, tab)].push_back(text.substr(tab + 1));
  }
  std::fclose(f);
  return groups;
}

// Decimal, or hexadecimal with 0x; nothing else (no sign, space or octal).
bool parse_u32(std::string_view text, uint32_t& out) {
  const bool hex = text.starts_with("0x") || text.starts_with("0X");
  const std::string s(hex ? text.substr(2) : text);
  if (s.empty() || s.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") !=
                       std::string::npos)
    return false;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, hex ? 16 : 10);
  if (*end != '\0' || v > UINT32_MAX) return false;
  out = static_cast<uint32_t>(v);
  return true;
}

bool parse_flag(std::string_view text, bool& out) {
  if (text != "0" && text != "1") return false;
  out = text == "1";
  return true;
}

// "KIND:ORIGIN:LENGTH:WAIT_STATES"
bool parse_region(std::string_view text, fathom::model::MemoryRegion& r) {
  std::vector<std::string_view> parts;
  for (size_t pos = 0;;) {
    const size_t colon = text.find(':', pos);
    parts.push_back(text.substr(pos, colon == std::string_view::npos ? colon : colon - pos));
    if (colon == std::string_view::npos) break;
    pos = colon + 1;
  }
  if (parts.size() != 4 || (parts[0] != "flash" && parts[0] != "ram")) return false;
  r.name = std::string(parts[0]);
  r.kind = parts[0] == "flash" ? fathom::model::MemoryKind::kFlash : fathom::model::MemoryKind::kRam;
  return parse_u32(parts[1], r.origin) && parse_u32(parts[2], r.length_bytes) &&
         parse_u32(parts[3], r.wait_states);
}

}  // namespace

extern "C" {

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t*, int argc,
                                           char** argv) {
  engine = new Engine;
  fathom::model::Board board;
  board.name = "qemu-engine";
  uint32_t console = 0, vtor = 0;
  std::string elf_path, groups_path;
  bool have_console = false;
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string_view key = arg.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
    bool ok = eq != std::string_view::npos;
    if (!ok) {
    } else if (key == "out") {
      engine->out_path = std::string(value);
    } else if (key == "elf") {
      elf_path = std::string(value);
    } else if (key == "groups") {
      groups_path = std::string(value);
    } else if (key == "profile") {
      engine->profile_path = std::string(value);
    } else if (key == "console") {
      ok = have_console = parse_u32(value, console);
    } else if (key == "vtor") {
      ok = parse_u32(value, vtor);
    } else if (key == "core") {
      board.core = std::string(value);
    } else if (key == "prefetch") {
      ok = parse_flag(value, board.prefetch);
    } else if (key == "icache") {
      ok = parse_flag(value, board.icache);
    } else if (key == "refinements") {
      ok = parse_flag(value, board.timing_refinements);
    } else if (key == "multiplier") {
      ok = value == "fast" || value == "small";
      board.multiplier = value == "small" ? fathom::model::Multiplier::kSmall
                                          : fathom::model::Multiplier::kFast;
    } else if (key == "region") {
      fathom::model::MemoryRegion r;
      ok = parse_region(value, r);
      board.memory.push_back(r);
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "fathom QEMU engine: unknown or bad argument '%s'\n", argv[i]);
      return -1;
    }
  }
  if (engine->out_path.empty() || !have_console || board.core.empty()) {
    std::fprintf(stderr, "fathom QEMU engine: needs out=FILE, console=ADDRESS and core=NAME\n");
    return -1;
  }
  auto model = fathom::sim::timing::make_timing_model(board);
  if (!model) {
    std::fprintf(stderr, "fathom QEMU engine: %s\n", model.error().message.c_str());
    return -1;
  }
  engine->timing = std::make_unique<TcgTiming>(std::move(*model), console, vtor);
  timing = engine->timing.get();
  if (!elf_path.empty()) {
    auto image = fathom::elf::ElfImage::load(elf_path);
    if (!image) {
      std::fprintf(stderr, "fathom QEMU engine: %s\n", image.error().message.c_str());
      return -1;
    }
    engine->image = std::make_unique<fathom::elf::ElfImage>(std::move(*image));
    auto options = fathom::profile::memory_watch_options(*engine->image);
    if (!options) {
      std::fprintf(stderr, "fathom QEMU engine: %s: %s\n", elf_path.c_str(),
                   options.error().message.c_str());
      return -1;
    }
    for (const auto& op : options->operations) engine->operation_names.push_back(op.name);
    options->registers_after_each_instruction = false;  // block mode, as the simulator's
    engine->watch = std::make_unique<fathom::profile::MemoryWatch>(
        *engine->image, std::move(*options), [](unsigned r) { return read_register(r); });
    engine->watch->set_memory_reader(read_word);
    engine->observers.add(engine->watch.get());
    if (!groups_path.empty()) {
      auto groups = read_groups(groups_path);
      if (!groups) {
        std::fprintf(stderr, "fathom QEMU engine: %s\n", groups.error().message.c_str());
        return -1;
      }
      auto recorder = fathom::profile::PrimitiveShareRecorder::create(*engine->image, *groups);
      if (!recorder) {
        std::fprintf(stderr, "fathom QEMU engine: %s\n", recorder.error().message.c_str());
        return -1;
      }
      engine->share = std::move(*recorder);
      engine->observers.add(engine->share->observer());
    }
    if (!engine->profile_path.empty()) {
      engine->profiler = std::make_unique<fathom::profile::CallTracker>(
          fathom::profile::tracker_options_for(*engine->image));
      engine->observers.add(engine->profiler.get());
    }
    timing->set_observer(engine->observers.get(), [] { return read_register(13); });
  } else if (!groups_path.empty() || !engine->profile_path.empty()) {
    std::fprintf(stderr, "fathom QEMU engine: groups= and profile= need elf=\n");
    return -1;
  }
  register_buffer = g_byte_array_new();
  score = qemu_plugin_scoreboard_new(sizeof(uint64_t));
  qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, write_at_exit, nullptr);
  return 0;
}

}  // extern "C"
