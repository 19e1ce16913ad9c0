/* The harness main loop: known-answer tests for every selected operation first, then warm-up
 * and timed runs of the operations whose KATs passed, then one untimed run for stack and heap.
 * Everything is reported as records (docs/PROTOCOL.md); nothing here allocates. */
#include "fathom_harness.h"

#include <stdint.h>
#include <string.h>

#include "fathom_board.h"
#include "fathom_memory.h"
#include "fathom_protocol.h"

#ifndef FATHOM_DEFAULT_RUNS
#define FATHOM_DEFAULT_RUNS 10
#endif
#ifndef FATHOM_DEFAULT_WARMUP
#define FATHOM_DEFAULT_WARMUP 1
#endif
#ifndef FATHOM_CONFIG_NAME
#define FATHOM_CONFIG_NAME "unnamed"
#endif
#ifndef FATHOM_BOARD_NAME
#define FATHOM_BOARD_NAME "unknown"
#endif
#ifndef FATHOM_LIBRARY_NAME
#define FATHOM_LIBRARY_NAME "none"
#endif
#ifndef FATHOM_LIBRARY_VERSION
#define FATHOM_LIBRARY_VERSION "unknown"
#endif

#define FATHOM_PARAMS_MAGIC 0x50485446u /* "FTHP" little-endian */
#define FATHOM_MAX_OPS 64

/* Run parameters. A board image uses the compiled-in defaults; the simulator overwrites this
 * object in the loaded image (found by its symbol) to change runs or select operations without
 * rebuilding. `only_ops` is a comma-separated list of operation names; empty means all. */
typedef struct {
  uint32_t magic;
  uint32_t runs;
  uint32_t warmup;
  char only_ops[512];
} fathom_params_t;

/* Explicitly in .rodata: GCC would put a const volatile object in .data, where the startup
 * code's copy from flash would overwrite what the simulator wrote. */
__attribute__((used, section(".rodata.fathom_params"))) const volatile fathom_params_t
    fathom_params = {
    FATHOM_PARAMS_MAGIC, FATHOM_DEFAULT_RUNS, FATHOM_DEFAULT_WARMUP, ""};

extern const fathom_op *const __start_fathom_ops[];
extern const fathom_op *const __stop_fathom_ops[];
extern uint32_t __stack_bottom[]; /* lowest address of the main stack (linker script) */

#define STACK_PAINT 0xC5C5C5C5u

/* The operation whose setup, KAT or runs are in progress (for BYTES records), and the index of
 * its current run (fathom_run_index). */
static const fathom_op *current_op;
static uint32_t current_run_index;

/* Known-answer bookkeeping for the operation whose KAT is running. */
static const fathom_op *kat_op;
static uint32_t kat_passed, kat_total, kat_first_vector_done;

static int selected(const char *name) {
  const volatile char *list = fathom_params.only_ops;
  if (list[0] == '\0') return 1;
  size_t n = strlen(name);
  size_t i = 0;
  while (list[i] != '\0' && i < sizeof fathom_params.only_ops) {
    size_t j = 0;
    while (j < n && list[i + j] == name[j]) ++j;
    if (j == n && (list[i + j] == ',' || list[i + j] == '\0')) return 1;
    while (list[i] != '\0' && list[i] != ',') ++i;
    if (list[i] == ',') ++i;
  }
  return 0;
}

static void kat_report(const char *vector, int pass) {
  fathom_rec_begin("KAT");
  fathom_rec_str(kat_op ? kat_op->name : "?");
  fathom_rec_str(vector);
  fathom_rec_str(pass ? "PASS" : "FAIL");
  fathom_rec_end();
  kat_total++;
  if (pass) kat_passed++;
}

/* Records one vector's outcome. With the FATHOM_TEST_BREAK_KAT test hook, the first vector of
 * that operation is made to fail, to prove that a KAT failure suppresses its timing. */
static int kat_finish(const char *vector, int pass) {
#ifdef FATHOM_TEST_BREAK_KAT
  if (kat_op != NULL && strcmp(kat_op->name, FATHOM_TEST_BREAK_KAT) == 0 &&
      !kat_first_vector_done)
    pass = 0;
#endif
  kat_first_vector_done = 1;
  kat_report(vector, pass);
  return pass;
}

int fathom_kat_check(const char *vector, const void *got, const void *expected, size_t len) {
  return kat_finish(vector, got != NULL && memcmp(got, expected, len) == 0);
}

int fathom_kat_expect(const char *vector, int condition) {
  return kat_finish(vector, condition != 0);
}

uint32_t fathom_run_index(void) { return current_run_index; }

void fathom_report_bytes(const char *what, uint32_t bytes) {
  fathom_rec_begin("BYTES");
  fathom_rec_str(current_op ? current_op->name : "?");
  fathom_rec_str(what);
  fathom_rec_u32(bytes);
  fathom_rec_end();
}

static void skip(const char *op, const char *reason) {
  fathom_rec_begin("SKIP");
  fathom_rec_str(op);
  fathom_rec_str(reason);
  fathom_rec_end();
}

static inline uint32_t current_sp(void) {
  uint32_t sp;
  __asm volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

/* One untimed run with the stack painted below the current frame and the heap peak reset.
 * Peak stack = this frame's SP minus the lowest word the operation overwrote. */
static __attribute__((noinline)) int memory_run(const fathom_op *op, uint32_t *peak_stack_bytes) {
  const uint32_t sp = current_sp();
  /* Leave 64 bytes under SP unpainted: the loop below runs in this frame only. */
  volatile uint32_t *p = __stack_bottom;
  volatile uint32_t *const paint_end = (volatile uint32_t *)(sp - 64);
  while (p < paint_end) *p++ = STACK_PAINT;
  fathom_heap_reset_peak();
  int rc = op->run();
  p = __stack_bottom;
  while (p < paint_end && *p == STACK_PAINT) ++p;
  *peak_stack_bytes = sp - (uint32_t)(uintptr_t)p;
  return rc;
}

#ifdef FATHOM_TEST_FAULT_OP
/* Test hook: read from an address no board maps, to prove a faulting image is reported. */
static void test_fault(const char *name) {
  if (strcmp(name, FATHOM_TEST_FAULT_OP) == 0) (void)*(volatile uint32_t *)0x7FFFFFF0u;
}
#endif

int main(void) {
  static uint8_t kat_ok[FATHOM_MAX_OPS];
  const size_t n_ops = (size_t)(__stop_fathom_ops - __start_fathom_ops);
  const uint32_t runs = fathom_params.magic == FATHOM_PARAMS_MAGIC ? fathom_params.runs : 1;
  const uint32_t warmup = fathom_params.magic == FATHOM_PARAMS_MAGIC ? fathom_params.warmup : 0;

  fathom_cycles_enable();

  fathom_rec_begin("HELLO");
  fathom_rec_u32(1);
  fathom_rec_str(FATHOM_BOARD_NAME);
  fathom_rec_str(FATHOM_CONFIG_NAME);
  fathom_rec_str(FATHOM_LIBRARY_NAME);
  fathom_rec_str(FATHOM_LIBRARY_VERSION);
  fathom_rec_u32(runs);
  fathom_rec_u32(warmup);
  fathom_rec_end();

  /* Probe overhead: the smallest difference between two back-to-back reads. */
  uint32_t cal_t0 = 0, cal_t1 = 0, best = UINT32_MAX;
  for (int i = 0; i < 8; ++i) {
    uint32_t t0 = fathom_cycles_read();
    __asm volatile("" ::: "memory");
    uint32_t t1 = fathom_cycles_read();
    if (t1 - t0 < best) {
      best = t1 - t0;
      cal_t0 = t0;
      cal_t1 = t1;
    }
  }
  fathom_rec_begin("CAL");
  fathom_rec_u32(cal_t0);
  fathom_rec_u32(cal_t1);
  fathom_rec_end();

  uint32_t kat_failures = 0;

  /* Phase 1: every selected operation's known-answer vectors, before any timing. */
  for (size_t i = 0; i < n_ops && i < FATHOM_MAX_OPS; ++i) {
    const fathom_op *op = __start_fathom_ops[i];
    if (!selected(op->name)) continue;
    current_op = op;
    current_run_index = 0;
    if (op->setup != NULL && op->setup() != 0) {
      current_op = NULL;
      skip(op->name, "setup-failed");
      kat_failures++;
      continue;
    }
    kat_op = op;
    kat_passed = kat_total = kat_first_vector_done = 0;
    op->kat();
    kat_op = NULL;
    current_op = NULL;
    fathom_rec_begin("KATSUM");
    fathom_rec_str(op->name);
    fathom_rec_u32(kat_passed);
    fathom_rec_u32(kat_total);
    fathom_rec_end();
    kat_ok[i] = kat_total > 0 && kat_passed == kat_total;
    if (!kat_ok[i]) kat_failures++;
  }

  /* Phase 2: timing, only for operations whose vectors all passed in this image. */
  for (size_t i = 0; i < n_ops && i < FATHOM_MAX_OPS; ++i) {
    const fathom_op *op = __start_fathom_ops[i];
    if (!selected(op->name)) continue;
    if (!kat_ok[i]) {
      skip(op->name, "kat-failed");
      continue;
    }
#ifdef FATHOM_TEST_FAULT_OP
    test_fault(op->name);
#endif
    /* An operation over distinct inputs gets at least its min_runs timed runs, announced
     * before the samples so the host expects that many. */
    const uint32_t op_runs = op->min_runs > runs ? op->min_runs : runs;
    if (op->min_runs != 0) {
      fathom_rec_begin("INPUTS");
      fathom_rec_str(op->name);
      fathom_rec_u32(op_runs);
      fathom_rec_end();
    }
    current_op = op;
    int failed = 0;
    for (uint32_t w = 0; w < warmup && !failed; ++w) {
      current_run_index = w;
      failed = op->run() != 0;
    }
    for (uint32_t r = 0; r < op_runs && !failed; ++r) {
      current_run_index = r;
      const uint32_t t0 = fathom_cycles_read();
      const int rc = op->run();
      const uint32_t t1 = fathom_cycles_read();
      if (rc != 0) {
        failed = 1;
        break;
      }
      fathom_rec_begin("SAMPLE");
      fathom_rec_str(op->name);
      fathom_rec_u32(r);
      fathom_rec_u32(t0);
      fathom_rec_u32(t1);
      fathom_rec_end();
    }
    uint32_t peak_stack = 0;
    current_run_index = 0;
    if (!failed) failed = memory_run(op, &peak_stack) != 0;
    if (failed) {
      skip(op->name, "run-failed");
      kat_failures++;
    } else {
      const fathom_heap_stats heap = fathom_heap_stats_get();
      fathom_rec_begin("MEM");
      fathom_rec_str(op->name);
      fathom_rec_u32(peak_stack);
      fathom_rec_u32(heap.peak_bytes);
      fathom_rec_u32(heap.allocations);
      fathom_rec_end();
    }
    if (op->teardown != NULL) op->teardown();
    current_op = NULL;
  }

  const uint32_t records = fathom_rec_count();
  fathom_rec_begin("END");
  fathom_rec_u32(kat_failures);
  fathom_rec_u32(records);
  fathom_rec_end();
  fathom_board_exit(kat_failures ? 1 : 0);
}
