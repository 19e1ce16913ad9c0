/* fathom: the seed source of wolfCrypt's Hash_DRBG (CUSTOM_RAND_GENERATE_SEED, set in
 * fathom_wolfssl_settings.h).
 *
 * THIS IS A DETERMINISTIC TEST SEED, NOT A SECURE ONE. It hands out bytes from the harness's
 * test generator (fathom_random_bytes), which is seeded identically in every run of an image.
 * The DRBG seeded from it therefore produces the same stream every run, so key generation,
 * blinding and every cycle count are reproducible from run to run. Never reuse this file in a
 * product. */
#include <stddef.h>
#include <stdint.h>

#include "fathom_harness.h"

int fathom_wolfssl_seed(unsigned char *output, unsigned int len);

/* Fills all `len` bytes of `output`; returns 0 (success, as wolfCrypt expects). Never fails. */
int fathom_wolfssl_seed(unsigned char *output, unsigned int len) {
  fathom_random_bytes(output, len);
  return 0;
}
