/* The harness main loop: known-answer tests for every selected operation first, then, for each
 * operation whose KATs passed, in the order the host selected them: warm-up and timed runs,
 * with stack and heap measured in the first timed run on a simulated target, else in one more,
 * untimed run. Where the board can snapshot (the simulator), every
 * operation's runs start from the state right after boot (docs/PROTOCOL.md "Isolation"), so a
 * figure does not depend on which operations ran before it. Everything is reported as records
 * (docs/PROTOCOL.md); nothing here allocates. */
#include "fathom_harness.h"

#include <stdint.h>
#include <string.h>

#include "fathom_board.h"
#include "fathom_memory.h"
#include "fathom_params.h"
#include "fathom_protocol.h"

#if !defined(FATHOM_CYCLE_COUNTER_HEADER)
#error "FATHOM_CYCLE_COUNTER_HEADER must name the board's cycle counter header (board.toml cycle_counter)"
#endif

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

/* Explicitly in .rodata: GCC would put a const volatile object in .data, where the startup
 * code's copy from flash would overwrite what the simulator wrote. */
__attribute__((used, section(".rodata.fathom_params"))) const volatile fathom_params_t
    fathom_params = {
    FATHOM_PARAMS_MAGIC, FATHOM_DEFAULT_RUNS, FATHOM_DEFAULT_WARMUP, "", {0}, 0, 0};

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

/* Set while an operation's setup runs again after an isolation restore: its BYTES records
 * were sent by the first setup, in the KAT phase. */
static int replaying_setup;

/* What the KAT phase decided and the failures so far: kept across isolation restores. */
FATHOM_PERSIST static uint8_t kat_ok[FATHOM_MAX_OPS];
FATHOM_PERSIST static uint32_t kat_failures;

/* The registry indices of the selected operations in the order of `only_ops` (registry order
 * when it is empty), each once; returns how many. */
static size_t selection_order(size_t n_ops, uint8_t order[FATHOM_MAX_OPS]) {
  const volatile char *list = fathom_params.only_ops;
  size_t count = 0;
  if (list[0] == '\0') {
    for (size_t i = 0; i < n_ops && i < FATHOM_MAX_OPS; ++i) order[count++] = (uint8_t)i;
    return count;
  }
  size_t at = 0;
  while (at < sizeof fathom_params.only_ops && list[at] != '\0') {
    size_t end = at;
    while (end < sizeof fathom_params.only_ops && list[end] != '\0' && list[end] != ',') ++end;
    for (size_t i = 0; i < n_ops && i < FATHOM_MAX_OPS; ++i) {
      const char *name = __start_fathom_ops[i]->name;
      size_t j = 0;
      while (at + j < end && name[j] != '\0' && list[at + j] == name[j]) ++j;
      if (at + j != end || name[j] != '\0') continue;
      int seen = 0;
      for (size_t k = 0; k < count; ++k) seen |= order[k] == i;
      if (!seen && count < FATHOM_MAX_OPS) order[count++] = (uint8_t)i;
      break;
    }
    at = end < sizeof fathom_params.only_ops && list[end] == ',' ? end + 1 : end;
  }
  return count;
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
  if (replaying_setup) return;
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

/* Paints the stack from its bottom up to 64 bytes below `sp` (the painting loop itself runs
 * above that, in a frame just below `sp`) and resets the heap peak. */
static void paint_memory(uint32_t sp) {
  volatile uint32_t *p = __stack_bottom;
  volatile uint32_t *const paint_end = (volatile uint32_t *)(sp - 64);
  while (p < paint_end) *p++ = STACK_PAINT;
  fathom_heap_reset_peak();
}

/* Peak stack since paint_memory(sp): `sp` minus the lowest word the operation overwrote. */
static uint32_t painted_peak(uint32_t sp) {
  volatile uint32_t *p = __stack_bottom;
  volatile uint32_t *const paint_end = (volatile uint32_t *)(sp - 64);
  while (p < paint_end && *p == STACK_PAINT) ++p;
  return sp - (uint32_t)(uintptr_t)p;
}

/* noinline: the mark is this frame's SP, just below the caller's frame. */
__attribute__((noinline)) uint32_t fathom_memory_mark(void) {
  const uint32_t sp = current_sp();
  paint_memory(sp);
  return sp;
}

__attribute__((noinline)) fathom_memory_use fathom_memory_since(uint32_t mark) {
  const fathom_heap_stats heap = fathom_heap_stats_get();
  fathom_memory_use use;
  use.peak_stack_bytes = painted_peak(mark);
  use.heap_peak_bytes = heap.peak_bytes - heap.start_bytes;
  use.heap_change_bytes = (int32_t)(heap.in_use_bytes - heap.start_bytes);
  return use;
}

/* The stack measurement of the timed run that makes one (FATHOM_PARAM_MEMORY_IN_TIMED_RUN). */
static uint32_t measured_sp, measured_peak_stack;

/* timed_run's steps before and after its timed window, out of line: with no branch of its own,
 * timed_run is one straight sequence that every timed run executes identically (a branch
 * around the painting would let the compiler duplicate the window into differently aligned
 * copies, and reach the first counter read by different paths: a cycle apart). They keep
 * their state in statics, so that timed_run has few values to keep in registers. */
static __attribute__((noinline)) void memory_before(int measure_memory, uint32_t sp) {
  measured_sp = sp;
  if (measure_memory) paint_memory(sp);
}

/* Returns `rc`, so the run's result stays in the register it came back in: nothing is copied
 * between the run's return and the second counter read. */
static __attribute__((noinline)) int memory_after(int rc, int measure_memory) {
  if (measure_memory) measured_peak_stack = painted_peak(measured_sp);
  return rc;
}

/* The taint tracker's hooks (fathom_harness.h): recognised by their address, so they must stay
 * out-of-line functions that keep their arguments in r0/r1 (noipa: no inlining, no clones). */
__attribute__((noipa, used)) void fathom_ct_secret(const void *p, size_t len) {
  __asm__ volatile("" : : "r"(p), "r"(len) : "memory");
}
__attribute__((noipa, used)) void fathom_ct_public(const void *p, size_t len) {
  __asm__ volatile("" : : "r"(p), "r"(len) : "memory");
}
__attribute__((noipa, used)) uint32_t fathom_ct_public_value(uint32_t v) {
  __asm__ volatile("" : "+r"(v));
  return v;
}
/* Opens (1) and closes (0) the window in which the taint tracker reports findings: the timed
 * runs of an operation run with secret variants (not its secret hook, KAT or memory run). */
__attribute__((noipa, used)) void fathom_ct_window(int open) {
  __asm__ volatile("" : : "r"(open) : "memory");
}

/* One timed run: the operation between two cycle-counter reads, into `sample` (t0, t1). Every
 * timed run goes through this one function, so the code between the reads is the same for all
 * of them, and only the call of the operation is between them: the run function's address is
 * loaded before the first read, its result handed on after the second (instruction scheduling
 * is off here so that the compiler moves neither into the window). 8-byte aligned, so the
 * window's instructions sit at the same offsets in a word in every image (an instruction's
 * fetch depends on it). With `measure_memory` the stack below this frame is painted (and the
 * heap peak reset) before the first read and scanned after the second, so the run is also the
 * stack and heap measurement (measured_peak_stack; on a simulated target only:
 * FATHOM_PARAM_MEMORY_IN_TIMED_RUN). */
static __attribute__((noinline, aligned(8), optimize("no-schedule-insns", "no-schedule-insns2")))
int timed_run(const fathom_op *op, int measure_memory, uint32_t sample[2]) {
  memory_before(measure_memory, current_sp());
  int (*run)(void) = op->run;
  __asm volatile("" : "+r"(run)); /* the address is in a register before the first read */
  const uint32_t start = fathom_cycles_read();
  int rc = run();
  const uint32_t end = fathom_cycles_read();
  rc = memory_after(rc, measure_memory);
  sample[0] = start;
  sample[1] = end;
  return rc;
}

/* One untimed run with the stack painted below the current frame and the heap peak reset
 * (a board: painting the stack may change what a cache holds for the timed runs). */
static __attribute__((noinline)) int memory_run(const fathom_op *op, uint32_t *peak_stack_bytes) {
  const uint32_t sp = current_sp();
  paint_memory(sp);
  const int rc = op->run();
  *peak_stack_bytes = painted_peak(sp);
  return rc;
}

#ifdef FATHOM_TEST_FAULT_OP
/* Test hook: read from an address no board maps, to prove a faulting image is reported. */
static void test_fault(const char *name) {
  if (strcmp(name, FATHOM_TEST_FAULT_OP) == 0) (void)*(volatile uint32_t *)0x7FFFFFF0u;
}
#endif

/* Phase 1: every selected operation's setup and known-answer vectors, before any timing. */
static void kat_phase(const uint8_t *order, size_t n_order) {
  for (size_t p = 0; p < n_order; ++p) {
    const size_t i = order[p];
    const fathom_op *op = __start_fathom_ops[i];
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
}

/* Phase 2 for one operation: warm-up, timed runs and the memory measurement, only if its vectors all
 * passed in this image. After an isolation restore (`replay_setup`) the machine is in its
 * post-boot state again, so the operation's setup runs once more, silently. */
static void time_operation(size_t i, uint32_t runs, uint32_t warmup, int replay_setup) {
  const fathom_op *op = __start_fathom_ops[i];
  if (!kat_ok[i]) {
    skip(op->name, "kat-failed");
    return;
  }
  current_op = op;
  current_run_index = 0;
  if (replay_setup && op->setup != NULL) {
    replaying_setup = 1;
    const int rc = op->setup();
    replaying_setup = 0;
    if (rc != 0) {
      current_op = NULL;
      skip(op->name, "setup-failed");
      kat_failures++;
      return;
    }
  }
#ifdef FATHOM_TEST_FAULT_OP
  test_fault(op->name);
#endif
  /* The host may ask for another count for this operation than HELLO's runs: announced
   * (RUNS) before the samples, so the host expects that many. */
  const uint32_t asked = fathom_params.magic == FATHOM_PARAMS_MAGIC && fathom_params.op_runs[i] != 0
                             ? fathom_params.op_runs[i]
                             : runs;
  if (asked != runs) {
    fathom_rec_begin("RUNS");
    fathom_rec_str(op->name);
    fathom_rec_u32(asked);
    fathom_rec_end();
  }
  /* An operation over distinct inputs gets at least its min_runs timed runs, announced
   * before the samples so the host expects that many. The FATHOM_TEST_MIN_RUNS_CAP test hook
   * lowers that minimum, for a test that compares figures rather than distributions
   * (tests/e2e/test_isolation.sh); the operation still draws a distinct input per run. */
#ifdef FATHOM_TEST_MIN_RUNS_CAP
  const uint32_t min_runs =
      op->min_runs > FATHOM_TEST_MIN_RUNS_CAP ? FATHOM_TEST_MIN_RUNS_CAP : op->min_runs;
#else
  const uint32_t min_runs = op->min_runs;
#endif
  /* Secret variants (`fathom ct`): one run per variant of the secret, the public inputs of
   * run index 0 in every run, exactly the runs asked for. */
  const int secret_variants = fathom_params.magic == FATHOM_PARAMS_MAGIC &&
                              (fathom_params.flags & FATHOM_PARAM_SECRET_VARIANTS) != 0 &&
                              op->secret != NULL;
  const uint32_t op_runs = !secret_variants && min_runs > asked ? min_runs : asked;
  /* The control (FATHOM_PARAM_SECRET_FIXED): variant secret_first in every run, so that what
   * varies besides the secret (a library's own random blinding) shows on its own. */
  const uint32_t secret_step = (fathom_params.flags & FATHOM_PARAM_SECRET_FIXED) != 0 ? 0u : 1u;
  if (secret_variants) {
    fathom_rec_begin("SECRETS");
    fathom_rec_str(op->name);
    fathom_rec_u32(op_runs);
    fathom_rec_end();
  } else if (min_runs != 0) {
    fathom_rec_begin("INPUTS");
    fathom_rec_str(op->name);
    fathom_rec_u32(op_runs);
    fathom_rec_end();
  }
  int failed = 0;
  for (uint32_t w = 0; w < warmup && !failed; ++w) {
    current_run_index = secret_variants ? 0 : w;
    failed = (secret_variants && op->secret(fathom_params.secret_first + secret_step * w) != 0) ||
             op->run() != 0;
  }
  /* On a simulated target the first timed run (run index 0, as the memory run's) measures
   * stack and heap too, so no extra run is needed; its heap counters are taken right after. */
  const int in_timed_run = fathom_params.magic == FATHOM_PARAMS_MAGIC &&
                           (fathom_params.flags & FATHOM_PARAM_MEMORY_IN_TIMED_RUN) != 0;
  uint32_t peak_stack = 0;
  fathom_heap_stats heap = {0};
  for (uint32_t r = 0; r < op_runs && !failed; ++r) {
    current_run_index = secret_variants ? 0 : r;
    if (secret_variants && op->secret(fathom_params.secret_first + secret_step * r) != 0) {
      failed = 1;
      break;
    }
    uint32_t sample[2] = {0, 0};
    if (secret_variants) fathom_ct_window(1);
    const int rc = timed_run(op, in_timed_run && r == 0, sample);
    if (secret_variants) fathom_ct_window(0);
    if (rc != 0) {
      failed = 1;
      break;
    }
    if (in_timed_run && r == 0) {
      peak_stack = measured_peak_stack;
      heap = fathom_heap_stats_get();
    }
    fathom_rec_begin("SAMPLE");
    fathom_rec_str(op->name);
    fathom_rec_u32(r);
    fathom_rec_u32(sample[0]);
    fathom_rec_u32(sample[1]);
    fathom_rec_end();
  }
  if (!failed && !in_timed_run) {
    current_run_index = 0;
    failed = memory_run(op, &peak_stack) != 0;
    heap = fathom_heap_stats_get();
  }
  if (failed) {
    skip(op->name, "run-failed");
    kat_failures++;
  } else {
    fathom_rec_begin("MEM");
    fathom_rec_str(op->name);
    fathom_rec_u32(peak_stack);
    fathom_rec_u32(heap.peak_bytes - heap.start_bytes);
    fathom_rec_u32(heap.allocations);
    fathom_rec_u32(heap.start_bytes);
    fathom_rec_end();
  }
  if (op->teardown != NULL) op->teardown();
  current_op = NULL;
}

int main(void) {
  const size_t n_ops = (size_t)(__stop_fathom_ops - __start_fathom_ops);
  const uint32_t runs = fathom_params.magic == FATHOM_PARAMS_MAGIC ? fathom_params.runs : 1;
  const uint32_t warmup = fathom_params.magic == FATHOM_PARAMS_MAGIC ? fathom_params.warmup : 0;
  static uint8_t order[FATHOM_MAX_OPS];
  const size_t n_order = selection_order(n_ops, order);

  fathom_cycles_enable();

  /* The isolation point: slot 0 is the KAT phase, slot k >= 1 times the k-th selected
   * operation. With a snapshot, each slot starts from this very state and ends by restoring
   * it for the next slot; without one, the slots run one after another. */
  uint32_t slot = fathom_board_isolation_point();
  const int isolated = slot != FATHOM_ISOLATION_NONE;

  if (!isolated || slot == 0) {
    fathom_rec_begin("HELLO");
    fathom_rec_u32(FATHOM_PROTOCOL_VERSION);
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

    fathom_rec_begin("ISOLATION");
    fathom_rec_str(fathom_board_isolation_method(slot));
    fathom_rec_end();

    kat_phase(order, n_order);
    if (isolated) fathom_board_isolation_restart(1);
    slot = 1;
  }

  for (size_t p = slot - 1; p < n_order; ++p) {
    time_operation(order[p], runs, warmup, isolated);
    if (isolated) fathom_board_isolation_restart((uint32_t)p + 2);
  }

  const uint32_t records = fathom_rec_count();
  fathom_rec_begin("END");
  fathom_rec_u32(kat_failures);
  fathom_rec_u32(records);
  fathom_rec_end();
  fathom_board_exit(kat_failures ? 1 : 0);
}
