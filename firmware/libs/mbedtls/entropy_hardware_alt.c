/* fathom: the entropy source Mbed TLS polls under MBEDTLS_ENTROPY_HARDWARE_ALT.
 *
 * THIS IS A DETERMINISTIC TEST ENTROPY SOURCE, NOT A SECURE ONE. It hands out bytes from the
 * harness's test generator (fathom_random_bytes), which is seeded identically in every run of
 * an image. The PSA DRBG seeded from it therefore produces the same stream every run, so key
 * generation, randomized signatures and every cycle count are reproducible from run to run.
 * Never reuse this file in a product. */
#include <stddef.h>
#include <stdint.h>

#include "fathom_harness.h"

/* The prototype Mbed TLS expects (mbedtls_config.h, MBEDTLS_ENTROPY_HARDWARE_ALT). It lives in
 * the private header library/entropy_poll.h; include that too when it is on the include path
 * so the compiler checks the two agree. */
#if defined(__has_include)
#if __has_include("entropy_poll.h")
#include "entropy_poll.h"
#endif
#endif
int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

/* Fills all `len` bytes of `output` and reports them in `*olen`; `data` is unused (the source
 * is registered with NULL). Never fails. */
int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen) {
  (void)data;
  fathom_random_bytes(output, len);
  *olen = len;
  return 0;
}
