/* fathom: the clock wolfSSL's TLS layer asks for under USER_TICKS (suites/tls.toml). The target
 * has no clock: session lifetimes and ticket ages, the only uses in a handshake without session
 * resumption, see a constant time, so every run makes the same handshake. */
#include <stdint.h>

uint32_t LowResTimer(void);
uint32_t LowResTimer(void) { return 0; }
