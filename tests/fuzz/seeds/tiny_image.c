/* A tiny fathom-shaped Cortex-M image of our own (no C library), the seed of the ELF fuzz
 * target: a vector table, an operation registry like the harness's (.fathom_ops between
 * __start_fathom_ops and __stop_fathom_ops, each entry pointing at a struct whose first field
 * is the name and fourth the run function), Thumb code with a literal pool, an inlined function
 * and an assembly label, so that every query of ElfImage and DebugInfo has something to find.
 * Built by tests/fuzz/make_corpus.py. */
typedef unsigned int u32;

typedef struct fuzz_op {
  const char *name;
  int (*setup)(void);
  void (*kat)(void);
  int (*run)(void);
  void (*teardown)(void);
  u32 min_runs;
} fuzz_op;

volatile u32 sink;
u32 table[4] = {1, 2, 3, 4};

static inline __attribute__((always_inline)) u32 mix(u32 a, u32 b) { return (a << 5) ^ (b >> 3); }

static void kat_add(void) { sink = mix(table[0], table[1]); }
static int run_add(void) { sink = mix(sink, 0x12345678u); return 0; }
static void kat_mul(void) { sink = table[2] * table[3]; }
static int run_mul(void) { sink = sink * 0x9e3779b9u; return 0; }

static const fuzz_op op_add = {"tiny_add", 0, kat_add, run_add, 0, 0};
static const fuzz_op op_mul = {"tiny_mul", 0, kat_mul, run_mul, 0, 3};
__attribute__((used, section(".fathom_ops"))) const fuzz_op *const ops[] = {&op_add, &op_mul};

extern const fuzz_op *const __start_fathom_ops[], *const __stop_fathom_ops[];

void reset_handler(void) {
  for (const fuzz_op *const *p = __start_fathom_ops; p < __stop_fathom_ops; ++p) {
    (*p)->kat();
    (*p)->run();
  }
  __asm__ volatile("spin:\n\tb spin");
}

extern u32 __stack_top;
__attribute__((used, section(".vectors"))) const void *const vectors[2] = {&__stack_top,
                                                                           reset_handler};
