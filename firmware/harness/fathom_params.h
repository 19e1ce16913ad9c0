/* The run parameters the host writes into an image (docs/PROTOCOL.md "Run parameters"; the
 * host's encoder is src/target/run_parameters.h, whose tests read its bytes through this very
 * struct). Plain fixed-width fields, no padding: the same bytes on the target and the host. */
#ifndef FATHOM_PARAMS_H
#define FATHOM_PARAMS_H

#include <stdint.h>

#define FATHOM_PARAMS_MAGIC 0x34485446u /* "FTH4" little-endian: names this layout */
#define FATHOM_MAX_OPS 64
#define FATHOM_ONLY_OPS_BYTES 512

/* Measure stack and heap in the last timed run instead of an extra untimed run: set by the host
 * for a simulated target, whose counts a painted stack cannot change (docs/PROTOCOL.md). */
#define FATHOM_PARAM_MEMORY_IN_TIMED_RUN 1u
/* `fathom ct`: an operation with a `secret` hook gets variant secret_first + r of its secret
 * before timed run r (warm-up w: variant secret_first + w), its public inputs fixed (run index 0
 * throughout), and its runs are announced by a SECRETS record; the other operations run as
 * usual. */
#define FATHOM_PARAM_SECRET_VARIANTS 2u
/* With FATHOM_PARAM_SECRET_VARIANTS: every run gets variant secret_first (the control run of
 * `fathom ct`: what varies with the secret fixed). */
#define FATHOM_PARAM_SECRET_FIXED 4u

/* A board image uses the compiled-in defaults; the host overwrites the object in the image
 * (found by its symbol) to change runs or select operations without rebuilding. `only_ops` is
 * a comma-separated list of operation names, NUL-padded; empty means all. `op_runs[i]`, if
 * non-zero, is the timed runs of the operation at registry index i instead of `runs` (the host
 * gives an operation whose input is fixed fewer runs on a deterministic target). `flags` holds
 * FATHOM_PARAM_* bits; `secret_first` the first secret variant (FATHOM_PARAM_SECRET_VARIANTS). */
typedef struct {
  uint32_t magic;
  uint32_t runs;
  uint32_t warmup;
  char only_ops[FATHOM_ONLY_OPS_BYTES];
  uint32_t op_runs[FATHOM_MAX_OPS];
  uint32_t flags;
  uint32_t secret_first;
} fathom_params_t;

#ifdef __cplusplus
static_assert(sizeof(fathom_params_t) == 12 + FATHOM_ONLY_OPS_BYTES + 4 * FATHOM_MAX_OPS + 8,
              "fathom_params_t has padding");
#else
_Static_assert(sizeof(fathom_params_t) == 12 + FATHOM_ONLY_OPS_BYTES + 4 * FATHOM_MAX_OPS + 8,
               "fathom_params_t has padding");
#endif

#endif /* FATHOM_PARAMS_H */
