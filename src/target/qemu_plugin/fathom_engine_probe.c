/* PROTOTYPE (issue 15 item 2 groundwork; docs/QEMU-ENGINE.md). Not used by fathom itself: no
 * fathom code builds or loads it. It measures what a TCG-plugin measurement engine on QEMU 10
 * (plugin API version 4) can see and what it costs, on real fathom QEMU-board images.
 *
 * Per executed translation block it calls a C function (on_block) that counts the block's
 * instructions and reads PC, SP and r0 through the register API (qemu_plugin_read_register,
 * which QEMU 7.2's API lacks); per guest memory access a memory callback (on_memory) records
 * loads and stores (address, size, value). Its `out` file has exactly the format of
 * fathom_probe_plugin.c (the QEMU target's plugin), so fathom's QEMU target can decode it:
 *   fathom-qemu-probes 1
 *   probe <instructions_before> <console_bytes_before>      (one per load from `probe`)
 *   total <instructions> <console_bytes>
 * An instruction at index k of a block of n runs when `executed - n + k` instructions retired
 * before it (on_block adds n when the block starts), as in fathom_probe_plugin.c.
 *
 * Arguments (-plugin file.so,out=PATH,console=ADDR[,probe=ADDR][,stats=PATH][,mode=M]):
 *   out      probe file written at exit (format above); in modes count and block it has no
 *            probe lines (there are no memory callbacks to see the probe loads)
 *   console  address of the console's DATA register (CMSDK UART base), hex or decimal
 *   probe    counter address; default 0xE0001004 (DWT_CYCCNT)
 *   stats    optional second file: the vCPU's register names and what the callbacks saw
 *   mode     what is instrumented, for the cost measurements in docs/QEMU-ENGINE.md:
 *              count   one inline add per block (no C call at all)
 *              inline  fathom_probe_plugin.c's shape: inline add per block and a memory
 *                      callback on every access (probes and console bytes)
 *              block   per-block C callback reading PC, SP, r0; no memory callbacks
 *              full    (default) per-block C callback reading PC, SP, r0 plus a memory
 *                      callback on every access
 * One guest CPU (the MPS2 machines have one): plain counters, no locking.
 * Build: cc -shared -fPIC -O2 $(pkg-config --cflags glib-2.0) -I<qemu-10 src>/include/qemu */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum Mode { MODE_COUNT, MODE_INLINE, MODE_BLOCK, MODE_FULL };

typedef struct {
  uint64_t before;
  uint64_t console_bytes;
} Probe;

static enum Mode mode = MODE_FULL;
static uint64_t probe_address = 0xE0001004u;
static uint64_t console_address;
static char *out_path, *stats_path;

static uint64_t executed;      /* instructions retired (inline or by on_block) */
static uint64_t blocks;        /* on_block calls */
static uint64_t console_bytes; /* stores to the console DATA register */
static Probe *probes;
static size_t n_probes, cap_probes;
static int out_of_memory;

/* Register handles, looked up once the vCPU exists (vcpu_init). */
static struct qemu_plugin_register *reg_pc, *reg_sp, *reg_r0;
static GByteArray *reg_buf;
static GString *register_names;
static uint64_t pc_mismatches; /* on_block's PC != the block's start address */
static uint64_t read_failures;
static uint32_t min_sp = UINT32_MAX, max_sp;
static uint64_t r0_xor;

/* What the memory callbacks saw. */
static uint64_t loads, stores, load_bytes, store_bytes, value_xor;
static uint64_t probe_values_nonzero; /* the probe's value as loaded: QEMU models no CYCCNT */

/* The inline counter lives in a scoreboard (API version 2 removed the plain-pointer inline
 * ops); one entry per vCPU. */
static struct qemu_plugin_scoreboard *score;

static void *pack(uint32_t index, uint32_t n) {
  return (void *)(uintptr_t)(((uint64_t)index << 32) | n);
}

static uint32_t read_u32(struct qemu_plugin_register *reg) {
  g_byte_array_set_size(reg_buf, 0);
  const int size = qemu_plugin_read_register(reg, reg_buf);
  if (size != 4) {
    ++read_failures;
    return 0;
  }
  uint32_t v;
  memcpy(&v, reg_buf->data, 4); /* target byte order: little-endian Arm on an x86-64 host */
  return v;
}

/* Per translated block (on_block's udata): its start address and length, made at
 * translation. */
typedef struct {
  uint64_t vaddr;
  uint32_t n;
  uint64_t insn_vaddr[]; /* each instruction's address */
} BlockInfo;

/* Per instrumented instruction (on_memory's udata in modes block and full). */
typedef struct {
  const BlockInfo *block;
  uint32_t index;
} InsnInfo;

static const BlockInfo *last_block; /* the block whose on_block ran last */
static uint64_t last_block_start;   /* `executed` before last_block's instructions */
static uint64_t io_restarts, io_restarts_unmatched;

static void on_block(unsigned int vcpu, void *udata) {
  (void)vcpu;
  const BlockInfo *b = udata;
  last_block = b;
  last_block_start = executed;
  executed += b->n;
  ++blocks;
  const uint32_t pc = read_u32(reg_pc), sp = read_u32(reg_sp), r0 = read_u32(reg_r0);
  if (pc != (uint32_t)b->vaddr) ++pc_mismatches;
  if (sp < min_sp) min_sp = sp;
  if (sp > max_sp) max_sp = sp;
  r0_xor ^= r0;
}

static void on_memory(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                      void *udata) {
  uint64_t before; /* instructions retired before this one */
  if (mode == MODE_INLINE) {
    /* TB-start counting, as fathom_probe_plugin.c: not exact on QEMU 10 (see below). */
    const uint64_t packed = (uint64_t)(uintptr_t)udata;
    before = qemu_plugin_u64_get(qemu_plugin_scoreboard_u64(score), vcpu) -
             (packed & 0xffffffffu) + (packed >> 32);
  } else {
    const InsnInfo *insn = udata;
    if (insn->block != last_block) {
      /* An access from a block whose on_block never ran: QEMU 10 allows MMIO only in a
       * block's last instruction. An MMIO access earlier in a block aborts the block before
       * that instruction (the ones before it have retired) and re-runs the instruction alone
       * in a one-off block instrumented for memory only (cpu_io_recompile, CF_MEMI_ONLY); the
       * rest of the block then runs as a new block. on_block counted the aborted block's n
       * instructions, so take back those from this one on and count this one here. */
      ++io_restarts;
      const uint64_t pc = insn->block->insn_vaddr[insn->index];
      uint32_t k = 0;
      while (last_block != NULL && k < last_block->n && last_block->insn_vaddr[k] != pc) ++k;
      if (last_block != NULL && k < last_block->n) {
        executed = last_block_start + k + 1;
        last_block = insn->block; /* a second access of the same instruction: no change */
        last_block_start = executed - 1 - insn->index;
      } else {
        ++io_restarts_unmatched;
      }
      before = executed - 1;
    } else {
      before = last_block_start + insn->index;
    }
  }
  const unsigned size = 1u << qemu_plugin_mem_size_shift(info);
  const qemu_plugin_mem_value value = qemu_plugin_mem_get_value(info);
  const uint64_t v = value.type == QEMU_PLUGIN_MEM_VALUE_U8    ? value.data.u8
                     : value.type == QEMU_PLUGIN_MEM_VALUE_U16 ? value.data.u16
                     : value.type == QEMU_PLUGIN_MEM_VALUE_U32 ? value.data.u32
                                                               : value.data.u64;
  value_xor ^= v;
  if (qemu_plugin_mem_is_store(info)) {
    ++stores;
    store_bytes += size;
    if (vaddr == console_address) ++console_bytes;
    return;
  }
  ++loads;
  load_bytes += size;
  if (vaddr != probe_address) return;
  if (v != 0) ++probe_values_nonzero;
  if (n_probes == cap_probes) {
    const size_t cap = cap_probes ? cap_probes * 2 : 4096;
    Probe *grown = realloc(probes, cap * sizeof *probes);
    if (grown == NULL) {
      out_of_memory = 1;
      return;
    }
    probes = grown;
    cap_probes = cap;
  }
  probes[n_probes].before = before;
  probes[n_probes].console_bytes = console_bytes;
  ++n_probes;
}


static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  if (mode == MODE_COUNT || mode == MODE_INLINE) {
    qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                                      qemu_plugin_scoreboard_u64(score), n);
  } else {
    /* Lives as long as QEMU (blocks are re-translated rarely; the prototype never frees). */
    BlockInfo *b = g_malloc(sizeof *b + n * sizeof b->insn_vaddr[0]);
    b->vaddr = qemu_plugin_tb_vaddr(tb);
    b->n = (uint32_t)n;
    for (size_t i = 0; i < n; ++i)
      b->insn_vaddr[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_R_REGS, b);
    if (mode == MODE_FULL) {
      for (size_t i = 0; i < n; ++i) {
        InsnInfo *info = g_new(InsnInfo, 1);
        info->block = b;
        info->index = (uint32_t)i;
        qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_memory,
                                         QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, info);
      }
    }
  }
  if (mode == MODE_INLINE) {
    for (size_t i = 0; i < n; ++i)
      qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), on_memory,
                                       QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                       pack((uint32_t)i, (uint32_t)n));
  }
}

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu) {
  (void)id;
  (void)vcpu;
  GArray *regs = qemu_plugin_get_registers();
  register_names = g_string_new("");
  for (guint i = 0; i < regs->len; ++i) {
    const qemu_plugin_reg_descriptor *r = &g_array_index(regs, qemu_plugin_reg_descriptor, i);
    g_string_append_printf(register_names, "%s%s", i ? " " : "", r->name);
    if (strcmp(r->name, "pc") == 0) reg_pc = r->handle;
    if (strcmp(r->name, "sp") == 0) reg_sp = r->handle;
    if (strcmp(r->name, "r0") == 0) reg_r0 = r->handle;
  }
  g_array_free(regs, TRUE);
}

static void write_at_exit(qemu_plugin_id_t id, void *p) {
  (void)id;
  (void)p;
  if (mode == MODE_COUNT || mode == MODE_INLINE)
    executed = qemu_plugin_u64_sum(qemu_plugin_scoreboard_u64(score));
  FILE *f = fopen(out_path, "w");
  if (f == NULL) {
    fprintf(stderr, "fathom engine probe: cannot write %s\n", out_path);
    return;
  }
  fprintf(f, "fathom-qemu-probes 1\n");
  if (out_of_memory) fprintf(f, "error out of memory for probes\n");
  for (size_t i = 0; i < n_probes; ++i)
    fprintf(f, "probe %" PRIu64 " %" PRIu64 "\n", probes[i].before, probes[i].console_bytes);
  fprintf(f, "total %" PRIu64 " %" PRIu64 "\n", executed, console_bytes);
  fclose(f);
  if (stats_path == NULL) return;
  FILE *s = fopen(stats_path, "w");
  if (s == NULL) {
    fprintf(stderr, "fathom engine probe: cannot write %s\n", stats_path);
    return;
  }
  static const char *const names[] = {"count", "inline", "block", "full"};
  fprintf(s, "mode %s\n", names[mode]);
  fprintf(s, "registers %s\n", register_names ? register_names->str : "");
  fprintf(s, "instructions %" PRIu64 "\n", executed);
  fprintf(s, "blocks %" PRIu64 "\n", blocks);
  fprintf(s, "pc_mismatches %" PRIu64 "\n", pc_mismatches);
  fprintf(s, "register_read_failures %" PRIu64 "\n", read_failures);
  fprintf(s, "sp_min 0x%08" PRIx32 "\n", blocks ? min_sp : 0);
  fprintf(s, "sp_max 0x%08" PRIx32 "\n", max_sp);
  fprintf(s, "r0_xor 0x%016" PRIx64 "\n", r0_xor);
  fprintf(s, "loads %" PRIu64 " bytes %" PRIu64 "\n", loads, load_bytes);
  fprintf(s, "stores %" PRIu64 " bytes %" PRIu64 "\n", stores, store_bytes);
  fprintf(s, "value_xor 0x%016" PRIx64 "\n", value_xor);
  fprintf(s, "io_restarts %" PRIu64 " unmatched %" PRIu64 "\n", io_restarts,
          io_restarts_unmatched);
  fprintf(s, "probes %zu nonzero_values %" PRIu64 "\n", n_probes, probe_values_nonzero);
  fclose(s);
}

static int parse_address(const char *text, uint64_t *out) {
  char *end = NULL;
  const unsigned long long v = strtoull(text, &end, 0);
  if (end == text || *end != '\0') return 0;
  *out = v;
  return 1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv) {
  (void)info;
  int have_console = 0;
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i];
    if (strncmp(arg, "out=", 4) == 0) {
      out_path = strdup(arg + 4);
    } else if (strncmp(arg, "stats=", 6) == 0) {
      stats_path = strdup(arg + 6);
    } else if (strncmp(arg, "console=", 8) == 0 && parse_address(arg + 8, &console_address)) {
      have_console = 1;
    } else if (strncmp(arg, "probe=", 6) == 0 && parse_address(arg + 6, &probe_address)) {
    } else if (strcmp(arg, "mode=count") == 0) {
      mode = MODE_COUNT;
    } else if (strcmp(arg, "mode=inline") == 0) {
      mode = MODE_INLINE;
    } else if (strcmp(arg, "mode=block") == 0) {
      mode = MODE_BLOCK;
    } else if (strcmp(arg, "mode=full") == 0) {
      mode = MODE_FULL;
    } else {
      fprintf(stderr, "fathom engine probe: unknown or bad argument '%s'\n", arg);
      return -1;
    }
  }
  if (out_path == NULL || !have_console) {
    fprintf(stderr, "fathom engine probe: needs out=FILE and console=ADDRESS\n");
    return -1;
  }
  reg_buf = g_byte_array_new();
  score = qemu_plugin_scoreboard_new(sizeof(uint64_t));
  qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, write_at_exit, NULL);
  return 0;
}
