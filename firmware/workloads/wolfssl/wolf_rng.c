/* fathom: the wolfCrypt random generator shared by the wolfSSL workloads (wolf_util.h). */
#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/random.h>
#include <wolfssl/wolfcrypt/wc_port.h>

#include "wolf_util.h"

WC_RNG wl_rng;
static int wl_rng_initialized;

int wl_rng_ready(void) {
  if (wl_rng_initialized) return 0;
  int ret = wolfCrypt_Init();
  if (ret == 0) ret = wc_InitRng(&wl_rng);
  wl_rng_initialized = ret == 0;
  return ret;
}
