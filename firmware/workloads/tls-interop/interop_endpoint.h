/* fathom workloads: one library's TLS 1.3 endpoint for the interop operations (tls13_interop.c,
 * docs/TLS.md "Interop"). An image holds Mbed TLS's endpoint (interop_mbedtls.c) and wolfSSL's
 * (interop_wolfssl.c), each able to be the client or the server of a connection over one pair
 * of in-memory queues (interop_pipe), so that an operation connects one library's client to the
 * other's server. The two libraries' headers never meet in one file. */
#ifndef FATHOM_TLS_INTEROP_ENDPOINT_H
#define FATHOM_TLS_INTEROP_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "tls_pipe.h"

enum { INTEROP_CLIENT = 0, INTEROP_SERVER = 1 };

/* IANA numbers, as on the wire (RFC 8446 B.4, 4.2.7). */
#define INTEROP_TLS_AES_128_GCM_SHA256 0x1301
#define INTEROP_TLS_CHACHA20_POLY1305_SHA256 0x1303
#define INTEROP_GROUP_SECP256R1 23
#define INTEROP_GROUP_X25519 29

/* The traffic secrets an endpoint derived: client and server handshake traffic secrets, then
 * client and server application traffic secrets (len 0: not derived). */
typedef struct interop_secrets {
  uint8_t secret[4][48];
  size_t len[4];
} interop_secrets;

typedef struct interop_endpoint {
  const char *library;
  /* Once per image: the library, the server's certificate and key, the client's trust anchor
   * (the committed P-256 chain). 0 when ready, else the library's error. */
  int (*setup)(void);
  /* Opens `role`'s connection on interop_pipe, offering only `suite` and `group`; the
   * connection's traffic secrets are recorded into `secrets` as they are derived. 0 or the
   * library's error (nonzero). */
  int (*open)(int role, uint16_t suite, uint16_t group, interop_secrets *secrets);
  /* One step of `role`'s handshake: 0 when it is done, 1 when it must be called again (it
   * progressed or waits for its peer), else the library's error (negative). */
  int (*step)(int role);
  /* Application data: bytes written or read (> 0), 0 when it must wait, else the library's
   * error (negative), as tls_connection_io (tls_kat.h) expects. */
  int (*write)(int role, const uint8_t *buf, size_t len);
  int (*read)(int role, uint8_t *buf, size_t len);
  /* The suite `role`'s connection negotiated (IANA), 0 if none. */
  uint16_t (*suite)(int role);
  void (*close)(int role);
} interop_endpoint;

extern tls_pipe interop_pipe;
extern const interop_endpoint interop_mbedtls, interop_wolfssl;

#endif /* FATHOM_TLS_INTEROP_ENDPOINT_H */
