/* fathom on-target harness: the operation registry and the services operations use.
 * Identical on every board; see docs/PROTOCOL.md for what it prints. */
#ifndef FATHOM_HARNESS_H
#define FATHOM_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One measurable operation. `run` is what is timed; everything it needs is prepared by `setup`
 * (outside any measurement). Return 0 for success from each hook.
 *
 * Initialise with designated initialisers: fields added later default to 0, and `fathom list`
 * reads the literal `.name = "..."` from the source. */
typedef struct fathom_op {
  const char *name;        /* e.g. "ecdsa_p256_sign"; [a-z0-9_] only */
  int (*setup)(void);      /* optional (NULL): once, before the KAT */
  void (*kat)(void);       /* runs every known-answer vector via fathom_kat_check() */
  int (*run)(void);        /* one timed execution of the operation */
  void (*teardown)(void);  /* optional (NULL): after the last run */
  /* 0 (the default): every run repeats the same input, and the harness makes the requested
   * number of timed runs. Non-zero: `run` derives a distinct input from fathom_run_index()
   * (an operation whose time depends on its input, e.g. ML-DSA signing), and the harness makes
   * max(requested runs, min_runs) timed runs and announces them with an INPUTS record, so the
   * samples form a distribution over that many distinct inputs. */
  uint32_t min_runs;
  /* Optional (NULL): for `fathom ct` (docs/CT.md), writes secret variant `variant` into the
   * operation's secret inputs (a private key, a MAC tag to check, a plaintext), leaving every
   * public input as setup made it; variant 0 is what setup made. Called outside the timed window
   * before each run when the host asks for secret variants (a different variant per run); never
   * in a plain run. Return 0 for success. */
  int (*secret)(uint32_t variant);
} fathom_op;

/* Registers an operation: places a pointer to it in the .fathom_ops section the harness walks.
 * Operations run in link order of their translation units, then definition order. */
#define FATHOM_REGISTER_OP(var)                                                         \
  __attribute__((used, section(".fathom_ops"))) const fathom_op *const fathom_op_ptr_##var = &(var)

/* Compares `got` with `expected` (`len` bytes) for known-answer vector `vector` of the current
 * operation, reports a KAT record, and returns 1 if they match. A vector that cannot produce
 * output (an API error) should call this with got = NULL, which counts as a failure. */
int fathom_kat_check(const char *vector, const void *got, const void *expected, size_t len);

/* Taint tracking (`fathom ct`, docs/CT.md): the secret hook declares where the secret it wrote
 * lives, so that the simulator follows those bytes through every instruction of the timed runs.
 * fathom_ct_secret marks `len` bytes at `p` secret (call it after writing them, before a copy
 * that should be followed, e.g. into a key store); fathom_ct_public marks bytes public again
 * (a public output computed from a secret); fathom_ct_public_value returns `v`, declared public
 * (a MAC check's verdict, which the caller may branch on). Empty functions the simulator
 * recognises by address: they cost a call on a board and change nothing. */
void fathom_ct_secret(const void *p, size_t len);
void fathom_ct_public(const void *p, size_t len);
uint32_t fathom_ct_public_value(uint32_t v);

/* Reports a boolean known-answer result (e.g. "verify rejects a corrupted signature"). */
int fathom_kat_expect(const char *vector, int condition);

/* 0-based index of the current run of the current operation, for an operation with
 * `min_runs` != 0 to derive a distinct input per timed run: timed run r has index r; warm-up
 * run w has index w (it repeats the first timed inputs); the untimed memory run has index 0;
 * setup, the KAT and teardown see 0. */
uint32_t fathom_run_index(void);

/* Reports the size in bytes of an object the current operation produces or consumes
 * (a BYTES record), for the device workflow report: what goes over the wire and what the
 * device stores. `what` is [a-z0-9_]+, one of "public_key", "secret_key", "ciphertext",
 * "shared_secret", "signature" or a similar name; report each `what` once per operation.
 * Call it from the operation's setup or KAT hook with the library's own size constant
 * (e.g. CRYPTO_PUBLICKEYBYTES), never a typed-in number. */
void fathom_report_bytes(const char *what, uint32_t bytes);

/* Deterministic random bytes: the harness's test generator, seeded identically in every run of
 * an image, so runs are reproducible. Not a cryptographic generator: use it only as the
 * entropy source a library's own DRBG is seeded from. */
void fathom_random_bytes(uint8_t *out, size_t len);

/* Memory of a part of an operation (one side of a handshake), measured in its KAT hook:
 * fathom_memory_mark() paints the stack below the caller's frame and restarts the heap peak,
 * and returns the mark; fathom_memory_since(mark) gives the deepest stack use below the mark,
 * and the heap's peak and change since it, in bytes. Painting takes time: never in a run. */
typedef struct fathom_memory_use {
  uint32_t peak_stack_bytes;
  uint32_t heap_peak_bytes;   /* highest heap in use above the mark's */
  int32_t heap_change_bytes;  /* heap in use now minus at the mark */
} fathom_memory_use;
uint32_t fathom_memory_mark(void);
fathom_memory_use fathom_memory_since(uint32_t mark);

#ifdef __cplusplus
}
#endif
#endif /* FATHOM_HARNESS_H */
