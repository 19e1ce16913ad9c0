/* fathom: forced-include prelude for hostap's sources on a bare-metal Cortex-M (newlib or
 * picolibc, no OS). hostap's src/utils/common.h takes the byte order and the byte-swap
 * functions from <endian.h>/<byteswap.h> on Linux only; give it the same names here, from the
 * compiler's own knowledge of the target. Included first by every file of the hostap libraries
 * (`cflags` in library.toml of firmware/libs/hostap-mbedtls and hostap-wolfssl) and by the image's files. */
#ifndef FATHOM_HOSTAP_PRELUDE_H
#define FATHOM_HOSTAP_PRELUDE_H

#ifndef __LITTLE_ENDIAN
#define __LITTLE_ENDIAN 1234
#endif
#ifndef __BIG_ENDIAN
#define __BIG_ENDIAN 4321
#endif
#ifndef __BYTE_ORDER
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define __BYTE_ORDER __LITTLE_ENDIAN
#else
#define __BYTE_ORDER __BIG_ENDIAN
#endif
#endif

#define bswap_16(x) __builtin_bswap16(x)
#define bswap_32(x) __builtin_bswap32(x)
#define bswap_64(x) __builtin_bswap64(x)

#endif /* FATHOM_HOSTAP_PRELUDE_H */
