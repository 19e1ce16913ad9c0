/* fathom: the few hostap os_* functions the SAE code needs, for a bare-metal image (hostap's
 * os_none.c is a stub set that returns errors, and os_unix.c needs an OS). With hostap's
 * defaults (OS_NO_C_LIB_DEFINES unset) os_malloc/os_free/os_memcpy/... are the C library's
 * functions (src/utils/os.h); what remains is here:
 *   os_get_random  the harness's deterministic generator (fathom_random_bytes), so every run of
 *                  an image draws the same values: SAE's rand and mask, the blinding values of
 *                  the Hunting-and-Pecking loop and the back ends' scalar-multiplication
 *                  blinding. Never fails.
 *   os_get_time / os_get_reltime  no wall clock on the target: a fixed time 0.
 *   os_zalloc, os_memdup, os_memcmp_const, os_strlcpy  as hostap's os_unix.c defines them. */
#include "includes.h"

#include "common.h"
#include "fathom_harness.h"
#include "os.h"

int os_get_random(unsigned char *buf, size_t len) {
  fathom_random_bytes(buf, len);
  return 0;
}

unsigned long os_random(void) {
  unsigned long value;
  fathom_random_bytes((unsigned char *)&value, sizeof value);
  return value;
}

int os_get_time(struct os_time *t) {
  t->sec = 0;
  t->usec = 0;
  return 0;
}

int os_get_reltime(struct os_reltime *t) {
  t->sec = 0;
  t->usec = 0;
  return 0;
}

void *os_zalloc(size_t size) { return calloc(1, size); }

void *os_memdup(const void *src, size_t len) {
  void *r = os_malloc(len);
  if (r && src) os_memcpy(r, src, len);
  return r;
}

int os_memcmp_const(const void *a, const void *b, size_t len) {
  const u8 *aa = a;
  const u8 *bb = b;
  u8 res = 0;
  for (size_t i = 0; i < len; i++) res |= aa[i] ^ bb[i];
  return res;
}

/* Copies at most siz - 1 bytes, always terminates (siz > 0), returns strlen(src). */
size_t os_strlcpy(char *dest, const char *src, size_t siz) {
  const size_t len = strlen(src);
  if (siz > 0) {
    const size_t n = len < siz - 1 ? len : siz - 1;
    memcpy(dest, src, n);
    dest[n] = '\0';
  }
  return len;
}
