/* fathom TLS workloads: ServerHello parsing (tls_hello.h). */
#include "tls_hello.h"

#include <string.h>

/* SHA-256("HelloRetryRequest"): the random of a HelloRetryRequest (RFC 8446 4.1.3). */
static const uint8_t hello_retry_random[32] = {
    0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
    0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c};

static uint32_t be(const uint8_t *p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}

int tls_parse_server_hello(const uint8_t *wire, size_t len, tls_server_hello *out) {
  memset(out, 0, sizeof *out);
  /* Record: type handshake (22), legacy version, length. */
  if (len < 5 || wire[0] != 22) return -1;
  const size_t record_len = be(wire + 3, 2);
  if (record_len > len - 5) return -1;
  const uint8_t *p = wire + 5, *end = p + record_len;
  /* Handshake: server_hello (2), 24-bit length. */
  if (end - p < 4 || p[0] != 2) return -1;
  const size_t body_len = be(p + 1, 3);
  p += 4;
  if ((size_t)(end - p) < body_len) return -1;
  end = p + body_len;
  /* legacy_version, random, legacy_session_id_echo, cipher_suite, compression. */
  if (end - p < 2 + 32 + 1) return -1;
  out->hello_retry = memcmp(p + 2, hello_retry_random, sizeof hello_retry_random) == 0;
  p += 2 + 32;
  const size_t session_id_len = p[0];
  p += 1;
  if ((size_t)(end - p) < session_id_len + 2 + 1 + 2) return -1;
  p += session_id_len;
  out->cipher_suite = (uint16_t)be(p, 2);
  p += 2 + 1;
  const size_t extensions_len = be(p, 2);
  p += 2;
  if ((size_t)(end - p) != extensions_len) return -1;
  while (p < end) {
    if (end - p < 4) return -1;
    const uint32_t type = be(p, 2);
    const size_t ext_len = be(p + 2, 2);
    p += 4;
    if ((size_t)(end - p) < ext_len) return -1;
    if (type == 43 && ext_len == 2) out->version = (uint16_t)be(p, 2); /* supported_versions */
    if (type == 51 && ext_len >= 2) out->group = (uint16_t)be(p, 2);   /* key_share */
    p += ext_len;
  }
  return out->version == 0 || out->group == 0 ? -1 : 0;
}

int tls_plaintext_alert(const uint8_t *record, size_t len) {
  if (len < 7 || record[0] != 21 || be(record + 3, 2) != 2 || record[5] != 2) return -1;
  return record[6];
}
