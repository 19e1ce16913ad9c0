/* fathom TLS workloads: what the server's first record says, read from the bytes on the wire
 * (RFC 8446 4.1.3), independently of the library under test: the negotiated version, cipher
 * suite and key-exchange group, and whether it is a HelloRetryRequest; and a plaintext alert. */
#ifndef FATHOM_TLS_HELLO_H
#define FATHOM_TLS_HELLO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* IANA numbers (RFC 8446 B.4, 4.2.7). */
#define TLS_SUITE_AES_128_GCM_SHA256 0x1301u
#define TLS_SUITE_AES_256_GCM_SHA384 0x1302u
#define TLS_SUITE_CHACHA20_POLY1305_SHA256 0x1303u
#define TLS_GROUP_SECP256R1 0x0017u
#define TLS_GROUP_X25519 0x001du

typedef struct tls_server_hello {
  int hello_retry;       /* the ServerHello is a HelloRetryRequest (its special random) */
  uint16_t version;      /* supported_versions' selected_version (0x0304 for TLS 1.3) */
  uint16_t cipher_suite;
  uint16_t group;        /* key_share's group (the HelloRetryRequest's selected_group) */
} tls_server_hello;

/* Parses the ServerHello at the start of `wire` (`len` bytes: the server's first bytes on the
 * wire, starting with its record header). Returns 0 and fills `out`, or -1 if the bytes are not
 * a whole, well-formed TLS 1.3 ServerHello record (bounds-checked throughout). */
int tls_parse_server_hello(const uint8_t *wire, size_t len, tls_server_hello *out);

/* The description of the fatal alert in `record` (`len` bytes from the start of a record) if it
 * is a plaintext alert record (RFC 8446 6: content type 21, level 2); -1 otherwise (another
 * record, or an alert encrypted under the traffic keys). */
int tls_plaintext_alert(const uint8_t *record, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* FATHOM_TLS_HELLO_H */
