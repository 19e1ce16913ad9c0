/* fathom's QEMU TCG plugin (plugin API version 1, QEMU 7.2): exact instruction counts for the
 * QEMU target (src/target/qemu_target.h, docs/BOARDS.md "QEMU target").
 *
 * QEMU models no cycle counter (DWT_CYCCNT reads 0), so the harness's counter reads carry no
 * cycles. This plugin counts every executed guest instruction and, at each load from the probe
 * address (DWT_CYCCNT, 0xE0001004), records how many instructions retired before that load and
 * how many console bytes the firmware had written by then (stores to the console's DATA
 * register). The host pairs each CAL/SAMPLE record with the two probes just before the record's
 * first byte (protocol/stream_decoder.h).
 *
 * Counting: each translated block adds its instruction count to `executed` inline when it
 * starts; an instruction at index k of a block of n therefore runs when `executed - n + k`
 * instructions retired before it.
 *
 * Arguments (-plugin file.so,out=PATH,console=ADDR[,probe=ADDR]):
 *   out      file written at exit (format below)
 *   console  address of the console's DATA register (CMSDK UART base), hex or decimal
 *   probe    counter address; default 0xE0001004
 * Output, one line each (text, decimal numbers):
 *   fathom-qemu-probes 1
 *   probe <instructions_before> <console_bytes_before>      (one per probe load, in order)
 *   total <instructions> <console_bytes>
 * Built by the host at run time (target/qemu_plugin_build.h); never linked into fathom. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

typedef struct {
  uint64_t before;
  uint64_t console_bytes;
} Probe;

/* One guest CPU (the MPS2 machines have one): plain counters, no locking. */
static uint64_t executed;
static uint64_t console_bytes;
static uint64_t probe_address = 0xE0001004u;
static uint64_t console_address;
static char *out_path;
static Probe *probes;
static size_t n_probes, cap_probes;
static int out_of_memory;

/* Per instruction: its index in its block and the block's length (packed into udata). */
static void *pack(uint32_t index, uint32_t n) {
  return (void *)(uintptr_t)(((uint64_t)index << 32) | n);
}

static void on_memory(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
                      void *udata) {
  (void)vcpu;
  if (qemu_plugin_mem_is_store(info)) {
    if (vaddr == console_address) ++console_bytes;
    return;
  }
  if (vaddr != probe_address) return;
  const uint64_t packed = (uint64_t)(uintptr_t)udata;
  const uint64_t index = packed >> 32, n = packed & 0xffffffffu;
  if (n_probes == cap_probes) {
    size_t cap = cap_probes ? cap_probes * 2 : 4096;
    Probe *grown = realloc(probes, cap * sizeof *probes);
    if (grown == NULL) {
      out_of_memory = 1;
      return;
    }
    probes = grown;
    cap_probes = cap;
  }
  probes[n_probes].before = executed - n + index;
  probes[n_probes].console_bytes = console_bytes;
  ++n_probes;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, n);
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    qemu_plugin_register_vcpu_mem_cb(insn, on_memory, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
                                     pack((uint32_t)i, (uint32_t)n));
  }
}

static void write_at_exit(qemu_plugin_id_t id, void *p) {
  (void)id;
  (void)p;
  FILE *f = fopen(out_path, "w");
  if (f == NULL) {
    fprintf(stderr, "fathom plugin: cannot write %s\n", out_path);
    return;
  }
  fprintf(f, "fathom-qemu-probes 1\n");
  if (out_of_memory) fprintf(f, "error out of memory for probes\n");
  for (size_t i = 0; i < n_probes; ++i)
    fprintf(f, "probe %" PRIu64 " %" PRIu64 "\n", probes[i].before, probes[i].console_bytes);
  fprintf(f, "total %" PRIu64 " %" PRIu64 "\n", executed, console_bytes);
  fclose(f);
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
    } else if (strncmp(arg, "console=", 8) == 0 && parse_address(arg + 8, &console_address)) {
      have_console = 1;
    } else if (strncmp(arg, "probe=", 6) == 0 && parse_address(arg + 6, &probe_address)) {
    } else {
      fprintf(stderr, "fathom plugin: unknown or bad argument '%s'\n", arg);
      return -1;
    }
  }
  if (out_path == NULL || !have_console) {
    fprintf(stderr, "fathom plugin: needs out=FILE and console=ADDRESS\n");
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, write_at_exit, NULL);
  return 0;
}
