/* fathom workloads: TLS 1.3 with Mbed TLS 3.6.6's own TLS stack (docs/TLS.md). A client and a
 * server in this image, connected by two in-memory byte queues (firmware/libs/tls/tls_pipe.h),
 * each with its own configuration, as two devices would have; the server holds the committed
 * P-256 chain's server certificate and key, the client trusts its CA and checks the server's
 * name (firmware/workloads/vectors/tls13_p256_chain.h).
 *
 *   tls13_handshake_<group>_<suite>
 *       one full handshake, both sides: a connection set up on each side (mbedtls_ssl_setup),
 *       both state machines stepped in turn until both are done, the connections freed. ECDHE
 *       on the group, the server's certificate chain verified by the client, CertificateVerify
 *       signed by the server (ECDSA P-256) and verified by the client, both Finished.
 *       Each side's steps run in its own functions (tls_client_*, tls_server_*), so the
 *       simulator's primitive share (firmware/libs/tls-mbedtls/library.toml) splits the cycles
 *       by side and by phase from outside, at no cost to the firmware.
 *   tls13_handshake_hrr_p256_aes128
 *       the same, but the client's key share is for x25519 and the server accepts only
 *       secp256r1: a HelloRetryRequest, then the handshake on secp256r1 (its own operation, so
 *       its cost is never averaged into a 1-RTT handshake's).
 *   tls13_appdata_<suite>_<size>
 *       <size> bytes of application data from the client to the server through the record
 *       layer (encrypt, frame, queue, parse, decrypt) on a connection set up beforehand: the
 *       record layer's cost per byte.
 *
 * Known answers, before any timing counts: RFC 8448's key schedule through the library's own
 * HKDF-Expand-Label / Derive-Secret; a handshake that completes, with the ServerHello read off
 * the wire saying TLS 1.3, the expected suite and group, and whether it was a
 * HelloRetryRequest; both sides' exported traffic secrets equal; application data echoed
 * intact across records delivered in small pieces at odd offsets; and a bad certificate and a
 * suite mismatch failing with the alerts they must raise. A failed handshake is a failed
 * vector named after the alert, never a timing. The KAT also measures each side's peak stack and
 * heap (BYTES records client_peak_stack etc.) and the bytes of each direction and flight. */
/* The key schedule's known answers call the library's internal HKDF functions
 * (library/ssl_tls13_keys.h), whose headers read private fields, as its own tests do. */
#define MBEDTLS_ALLOW_PRIVATE_ACCESS

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fathom_harness.h"
#include "mbedtls/pk.h"
#include "mbedtls/psa_util.h"
#include "mbedtls/ssl.h"
#include "mbedtls/x509_crt.h"
#include "psa/crypto.h"
#include "ssl_misc.h"
#include "ssl_tls13_keys.h"
#include "tls_hello.h"
#include "tls_kat.h"
#include "tls_pipe.h"
#include "../vectors/tls13_p256_chain.h"
#include "../vectors/tls13_rfc8448.h"

/* A step that makes no progress on both sides this many times in a row is a stuck handshake. */
#define TLS_MAX_STEPS 400

typedef struct tls_case {
  int suite;        /* MBEDTLS_TLS1_3_* */
  uint16_t group;   /* the server's only group */
  uint16_t client_first_group; /* the group the client sends a key share for */
} tls_case;

/* The two devices' long-lived state: configurations, the server's certificate and key, the
 * client's trust anchor. Set up once (tls_devices_setup), as at boot. */
static mbedtls_ssl_config client_conf, server_conf;
static mbedtls_x509_crt ca_cert, server_cert;
static mbedtls_pk_context server_key;
static int devices_ready;
static int client_suites[2], server_suites[2];
static uint16_t client_groups[3], server_groups[2];

/* One connection: a context per side and the queues between them. */
static mbedtls_ssl_context client_ssl, server_ssl;
static tls_pipe pipe;

static int send_cb(void *ctx, const unsigned char *buf, size_t len, int direction) {
  (void)ctx;
  const size_t n = tls_pipe_write(&pipe, direction, buf, len);
  return n == 0 ? MBEDTLS_ERR_SSL_WANT_WRITE : (int)n;
}
static int recv_cb(unsigned char *buf, size_t len, int direction) {
  const size_t n = tls_pipe_read(&pipe, direction, buf, len);
  return n == 0 ? MBEDTLS_ERR_SSL_WANT_READ : (int)n;
}
static int client_send(void *ctx, const unsigned char *buf, size_t len) {
  return send_cb(ctx, buf, len, TLS_PIPE_CLIENT_TO_SERVER);
}
static int client_recv(void *ctx, unsigned char *buf, size_t len) {
  (void)ctx;
  return recv_cb(buf, len, TLS_PIPE_SERVER_TO_CLIENT);
}
static int server_send(void *ctx, const unsigned char *buf, size_t len) {
  return send_cb(ctx, buf, len, TLS_PIPE_SERVER_TO_CLIENT);
}
static int server_recv(void *ctx, unsigned char *buf, size_t len) {
  (void)ctx;
  return recv_cb(buf, len, TLS_PIPE_CLIENT_TO_SERVER);
}

static void conf_common(mbedtls_ssl_config *conf) {
  mbedtls_ssl_conf_min_tls_version(conf, MBEDTLS_SSL_VERSION_TLS1_3);
  mbedtls_ssl_conf_max_tls_version(conf, MBEDTLS_SSL_VERSION_TLS1_3);
  mbedtls_ssl_conf_rng(conf, mbedtls_psa_get_random, MBEDTLS_PSA_RANDOM_STATE);
  mbedtls_ssl_conf_tls13_key_exchange_modes(conf,
                                            MBEDTLS_SSL_TLS1_3_KEY_EXCHANGE_MODE_EPHEMERAL);
}

/* The server's configuration with `cert` (and the server key) as its only certificate
 * (mbedtls_ssl_conf_own_cert appends to a list, so the configuration starts afresh). */
static int server_conf_setup(mbedtls_x509_crt *cert) {
  mbedtls_ssl_config_free(&server_conf);
  mbedtls_ssl_config_init(&server_conf);
  int r = mbedtls_ssl_config_defaults(&server_conf, MBEDTLS_SSL_IS_SERVER,
                                      MBEDTLS_SSL_TRANSPORT_STREAM, MBEDTLS_SSL_PRESET_DEFAULT);
  if (r != 0) return r;
  conf_common(&server_conf);
  return mbedtls_ssl_conf_own_cert(&server_conf, cert, &server_key);
}

/* Both devices, once: PSA, the parsed certificates and key (what each device keeps). */
static int tls_devices_setup(void) {
  if (devices_ready) return 0;
  int r = (int)psa_crypto_init();
  if (r != 0) return r;
  mbedtls_x509_crt_init(&ca_cert);
  mbedtls_x509_crt_init(&server_cert);
  mbedtls_pk_init(&server_key);
  if ((r = mbedtls_x509_crt_parse_der(&ca_cert, tls13_ca_cert_der, sizeof tls13_ca_cert_der)) ||
      (r = mbedtls_x509_crt_parse_der(&server_cert, tls13_server_cert_der,
                                      sizeof tls13_server_cert_der)) ||
      (r = mbedtls_pk_parse_key(&server_key, tls13_server_key_der, sizeof tls13_server_key_der,
                                NULL, 0, mbedtls_psa_get_random, MBEDTLS_PSA_RANDOM_STATE)))
    return r;
  mbedtls_ssl_config_init(&client_conf);
  if ((r = mbedtls_ssl_config_defaults(&client_conf, MBEDTLS_SSL_IS_CLIENT,
                                       MBEDTLS_SSL_TRANSPORT_STREAM, MBEDTLS_SSL_PRESET_DEFAULT)))
    return r;
  conf_common(&client_conf);
  mbedtls_ssl_conf_authmode(&client_conf, MBEDTLS_SSL_VERIFY_REQUIRED);
  mbedtls_ssl_conf_ca_chain(&client_conf, &ca_cert, NULL);
  mbedtls_ssl_config_init(&server_conf);
  if ((r = server_conf_setup(&server_cert))) return r;
  devices_ready = 1;
  return 0;
}

/* The suite and groups each device offers for `c`. */
static void tls_configure(const tls_case *c) {
  client_suites[0] = server_suites[0] = c->suite;
  client_suites[1] = server_suites[1] = 0;
  mbedtls_ssl_conf_ciphersuites(&client_conf, client_suites);
  mbedtls_ssl_conf_ciphersuites(&server_conf, server_suites);
  client_groups[0] = c->client_first_group;
  client_groups[1] = c->client_first_group == c->group ? MBEDTLS_SSL_IANA_TLS_GROUP_NONE : c->group;
  client_groups[2] = MBEDTLS_SSL_IANA_TLS_GROUP_NONE;
  server_groups[0] = c->group;
  server_groups[1] = MBEDTLS_SSL_IANA_TLS_GROUP_NONE;
  mbedtls_ssl_conf_groups(&client_conf, client_groups);
  mbedtls_ssl_conf_groups(&server_conf, server_groups);
}

/* ---- each side's part of a connection (the primitive share's "client" and "server")
 *
 * Each is a real call (noinline) that stays on the call path while the library works: the
 * empty asm after the library call keeps GCC from turning it into a tail call, which would
 * leave the side's frame before the library runs. */

#define TLS_SIDE_RETURN(expr) \
  do {                        \
    const int r_ = (expr);    \
    __asm volatile("");       \
    return r_;                \
  } while (0)

static __attribute__((noinline)) int tls_client_open(void) {
  mbedtls_ssl_init(&client_ssl);
  int r = mbedtls_ssl_setup(&client_ssl, &client_conf);
  if (r == 0) r = mbedtls_ssl_set_hostname(&client_ssl, TLS13_SERVER_NAME);
  mbedtls_ssl_set_bio(&client_ssl, NULL, client_send, client_recv, NULL);
  return r;
}
static __attribute__((noinline)) int tls_server_open(void) {
  mbedtls_ssl_init(&server_ssl);
  int r = mbedtls_ssl_setup(&server_ssl, &server_conf);
  mbedtls_ssl_set_bio(&server_ssl, NULL, server_send, server_recv, NULL);
  return r;
}
static __attribute__((noinline)) int tls_client_step(void) {
  TLS_SIDE_RETURN(mbedtls_ssl_handshake_step(&client_ssl));
}
static __attribute__((noinline)) int tls_server_step(void) {
  TLS_SIDE_RETURN(mbedtls_ssl_handshake_step(&server_ssl));
}
static __attribute__((noinline)) void tls_client_close(void) {
  mbedtls_ssl_free(&client_ssl);
  __asm volatile("");
}
static __attribute__((noinline)) void tls_server_close(void) {
  mbedtls_ssl_free(&server_ssl);
  __asm volatile("");
}
/* Bytes written or read (> 0), 0 when the side must wait, else Mbed TLS's error (tls_kat.h). */
static int io_result(int r) {
  return r == MBEDTLS_ERR_SSL_WANT_READ || r == MBEDTLS_ERR_SSL_WANT_WRITE ? 0 : r;
}
static __attribute__((noinline)) int tls_client_write(const uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(mbedtls_ssl_write(&client_ssl, buf, len)));
}
static __attribute__((noinline)) int tls_server_read(uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(mbedtls_ssl_read(&server_ssl, buf, len)));
}
static __attribute__((noinline)) int tls_server_write(const uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(mbedtls_ssl_write(&server_ssl, buf, len)));
}
static __attribute__((noinline)) int tls_client_read(uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(mbedtls_ssl_read(&client_ssl, buf, len)));
}
static const tls_connection_io connection_io = {tls_client_write, tls_server_read,
                                                tls_server_write, tls_client_read};

static int would_block(int r) {
  return r == MBEDTLS_ERR_SSL_WANT_READ || r == MBEDTLS_ERR_SSL_WANT_WRITE;
}

/* Result of a handshake: 0, or the first side's error, with which side failed. */
typedef struct handshake_result {
  int rc;
  int client_rc, server_rc;
} handshake_result;

/* Opens both sides and steps them in turn until both are done; the connections stay open. */
static handshake_result tls_handshake(tls_side_memory mem[2]) {
  handshake_result res = {0, 0, 0};
  res.client_rc = tls_measured_step(tls_client_open, mem ? &mem[0] : NULL);
  res.server_rc = tls_measured_step(tls_server_open, mem ? &mem[1] : NULL);
  if (res.client_rc || res.server_rc) {
    res.rc = res.client_rc ? res.client_rc : res.server_rc;
    return res;
  }
  for (int i = 0; i < TLS_MAX_STEPS; ++i) {
    const int client_done = mbedtls_ssl_is_handshake_over(&client_ssl);
    const int server_done = mbedtls_ssl_is_handshake_over(&server_ssl);
    if (client_done && server_done) return res;
    if (!client_done) {
      const int r = tls_measured_step(tls_client_step, mem ? &mem[0] : NULL);
      if (r != 0 && !would_block(r)) res.client_rc = r;
    }
    if (!server_done && res.client_rc == 0) {
      const int r = tls_measured_step(tls_server_step, mem ? &mem[1] : NULL);
      if (r != 0 && !would_block(r)) res.server_rc = r;
    }
    if (res.client_rc || res.server_rc) {
      /* Let the other side read the alert the failing side sent. */
      if (res.client_rc && res.server_rc == 0) {
        const int r = tls_server_step();
        if (r != 0 && !would_block(r)) res.server_rc = r;
      } else if (res.server_rc && res.client_rc == 0) {
        const int r = tls_client_step();
        if (r != 0 && !would_block(r)) res.client_rc = r;
      }
      res.rc = res.client_rc ? res.client_rc : res.server_rc;
      return res;
    }
  }
  res.rc = -1; /* stuck */
  return res;
}

static void tls_close(void) {
  tls_client_close();
  tls_server_close();
}

/* The alert a side received, after it failed with MBEDTLS_ERR_SSL_FATAL_ALERT_MESSAGE. */
static int received_alert(mbedtls_ssl_context *ssl, int rc) {
  if (rc != MBEDTLS_ERR_SSL_FATAL_ALERT_MESSAGE) return -1;
  return ssl->MBEDTLS_PRIVATE(in_msg)[1];
}

/* The alert a side that failed sent, read off the wire when it went in plaintext (its last
 * write); else the type Mbed TLS keeps of a fatal alert it pended (alerts it sends directly,
 * such as a certificate verification's, leave no such trace). -1 if the side did not fail,
 * or failed because it received one. */
static int sent_alert(mbedtls_ssl_context *ssl, int rc) {
  if (rc == 0 || rc == MBEDTLS_ERR_SSL_FATAL_ALERT_MESSAGE) return -1;
  const tls_pipe_queue *q =
      &pipe.q[ssl == &client_ssl ? TLS_PIPE_CLIENT_TO_SERVER : TLS_PIPE_SERVER_TO_CLIENT];
  const int on_wire = tls_plaintext_alert(q->last, q->last_len);
  if (on_wire >= 0) return on_wire;
  const int type = ssl->MBEDTLS_PRIVATE(alert_type);
  return type != 0 ? type : -1;
}

/* The alert the client (`by_client`) or the server raised: what it sent, else what its peer
 * received from it. -1 if none. */
static int alert_by(int by_client, const handshake_result *res) {
  mbedtls_ssl_context *self = by_client ? &client_ssl : &server_ssl;
  mbedtls_ssl_context *peer = by_client ? &server_ssl : &client_ssl;
  const int self_rc = by_client ? res->client_rc : res->server_rc;
  const int peer_rc = by_client ? res->server_rc : res->client_rc;
  const int sent = sent_alert(self, self_rc);
  return sent >= 0 ? sent : received_alert(peer, peer_rc);
}

/* Reports a failed handshake as a failed vector that names what went wrong (tls_kat.h). */
static void report_failed_handshake(const char *what, const handshake_result *res) {
  tls_report_failed_handshake(what, alert_by(1, res), alert_by(0, res), res->client_rc,
                              res->server_rc, 1);
}

/* ---- exported secrets: both sides must derive the same traffic secrets */

typedef struct exported {
  uint8_t secret[4][48];
  size_t len[4];
} exported;
static exported exported_secrets[2]; /* [client, server] */

static void export_cb(void *ctx, mbedtls_ssl_key_export_type type, const unsigned char *secret,
                      size_t len, const unsigned char client_random[32],
                      const unsigned char server_random[32], mbedtls_tls_prf_types prf) {
  (void)client_random;
  (void)server_random;
  (void)prf;
  exported *e = ctx;
  int i = -1;
  switch (type) {
    case MBEDTLS_SSL_KEY_EXPORT_TLS1_3_CLIENT_HANDSHAKE_TRAFFIC_SECRET: i = 0; break;
    case MBEDTLS_SSL_KEY_EXPORT_TLS1_3_SERVER_HANDSHAKE_TRAFFIC_SECRET: i = 1; break;
    case MBEDTLS_SSL_KEY_EXPORT_TLS1_3_CLIENT_APPLICATION_TRAFFIC_SECRET: i = 2; break;
    case MBEDTLS_SSL_KEY_EXPORT_TLS1_3_SERVER_APPLICATION_TRAFFIC_SECRET: i = 3; break;
    default: return;
  }
  if (len > sizeof e->secret[i]) return;
  memcpy(e->secret[i], secret, len);
  e->len[i] = len;
}

/* ---- known answers */

/* RFC 8448 section 3's key schedule through the library's HKDF functions (SHA-256). */
static void key_schedule_kat(void) {
  const psa_algorithm_t sha256 = PSA_ALG_SHA_256;
  uint8_t early[32], handshake[32], client_hs[32], server_hs[32], key[16], iv[12];
  int ok = mbedtls_ssl_tls13_evolve_secret(sha256, NULL, NULL, 0, early) == 0;
  fathom_kat_check("rfc8448-early-secret", ok ? early : NULL, rfc8448_early_secret, 32);
  ok = ok && mbedtls_ssl_tls13_evolve_secret(sha256, early, rfc8448_ecdhe, 32, handshake) == 0;
  fathom_kat_check("rfc8448-handshake-secret", ok ? handshake : NULL, rfc8448_handshake_secret,
                   32);
  const int c_ok = ok && mbedtls_ssl_tls13_derive_secret(
                             sha256, handshake, 32,
                             MBEDTLS_SSL_TLS1_3_LBL_WITH_LEN(c_hs_traffic), rfc8448_hello_hash,
                             32, MBEDTLS_SSL_TLS1_3_CONTEXT_HASHED, client_hs, 32) == 0;
  fathom_kat_check("rfc8448-client-hs-traffic", c_ok ? client_hs : NULL,
                   rfc8448_client_hs_traffic, 32);
  const int s_ok = ok && mbedtls_ssl_tls13_derive_secret(
                             sha256, handshake, 32,
                             MBEDTLS_SSL_TLS1_3_LBL_WITH_LEN(s_hs_traffic), rfc8448_hello_hash,
                             32, MBEDTLS_SSL_TLS1_3_CONTEXT_HASHED, server_hs, 32) == 0;
  fathom_kat_check("rfc8448-server-hs-traffic", s_ok ? server_hs : NULL,
                   rfc8448_server_hs_traffic, 32);
  const struct {
    const char *name;
    const uint8_t *secret;
    int secret_ok;
    int is_key;
    const uint8_t *expected;
  } derived[] = {
      {"rfc8448-server-hs-key", server_hs, s_ok, 1, rfc8448_server_hs_key},
      {"rfc8448-server-hs-iv", server_hs, s_ok, 0, rfc8448_server_hs_iv},
      {"rfc8448-client-hs-key", client_hs, c_ok, 1, rfc8448_client_hs_key},
      {"rfc8448-client-hs-iv", client_hs, c_ok, 0, rfc8448_client_hs_iv},
  };
  for (size_t i = 0; i < sizeof derived / sizeof derived[0]; ++i) {
    const size_t len = derived[i].is_key ? sizeof key : sizeof iv;
    uint8_t *out = derived[i].is_key ? key : iv;
    const int r = derived[i].secret_ok &&
                  (derived[i].is_key
                       ? mbedtls_ssl_tls13_hkdf_expand_label(
                             sha256, derived[i].secret, 32, MBEDTLS_SSL_TLS1_3_LBL_WITH_LEN(key),
                             NULL, 0, out, len)
                       : mbedtls_ssl_tls13_hkdf_expand_label(
                             sha256, derived[i].secret, 32, MBEDTLS_SSL_TLS1_3_LBL_WITH_LEN(iv),
                             NULL, 0, out, len)) == 0;
    fathom_kat_check(derived[i].name, r ? out : NULL, derived[i].expected, len);
  }
}

/* The handshake's known answers for `c` (expect_hrr: the case makes a HelloRetryRequest), and
 * its memory and bytes. */
static void handshake_kat(const tls_case *c, int expect_hrr, const char *name) {
  tls_configure(c);
  tls_pipe_reset(&pipe, 0);
  memset(exported_secrets, 0, sizeof exported_secrets);
  tls_side_memory mem[2];
  memset(mem, 0, sizeof mem);
  handshake_result res = tls_handshake(mem);
  if (res.rc != 0) {
    report_failed_handshake(name, &res);
    tls_close();
    return;
  }
  fathom_kat_expect("handshake-completes", 1);
  tls_check_server_hello(&pipe, (uint16_t)c->suite, c->group, expect_hrr);
  fathom_kat_expect("client-negotiated-suite",
                    mbedtls_ssl_get_ciphersuite_id_from_ssl(&client_ssl) == c->suite);
  fathom_kat_expect("server-negotiated-suite",
                    mbedtls_ssl_get_ciphersuite_id_from_ssl(&server_ssl) == c->suite);
  /* Bytes and memory of this handshake (deterministic: every run makes the same). */
  tls_report_handshake(&pipe, mem);
  tls_close();

  /* Again with both sides' secrets exported and the bytes delivered 7 at a time, then
   * application data echoed through records read in odd pieces. (Opened here, not by
   * tls_handshake, to set the export callbacks on these two connections only.) */
  tls_pipe_reset(&pipe, 7);
  res.client_rc = tls_client_open();
  res.server_rc = tls_server_open();
  mbedtls_ssl_set_export_keys_cb(&client_ssl, export_cb, &exported_secrets[0]);
  mbedtls_ssl_set_export_keys_cb(&server_ssl, export_cb, &exported_secrets[1]);
  int ok = res.client_rc == 0 && res.server_rc == 0;
  for (int i = 0; ok && i < TLS_MAX_STEPS; ++i) {
    const int client_done = mbedtls_ssl_is_handshake_over(&client_ssl);
    const int server_done = mbedtls_ssl_is_handshake_over(&server_ssl);
    if (client_done && server_done) break;
    int r = client_done ? 0 : tls_client_step();
    if (r != 0 && !would_block(r)) ok = 0;
    r = server_done ? 0 : tls_server_step();
    if (r != 0 && !would_block(r)) ok = 0;
  }
  ok = ok && mbedtls_ssl_is_handshake_over(&client_ssl) &&
       mbedtls_ssl_is_handshake_over(&server_ssl);
  fathom_kat_expect("handshake-in-7-byte-pieces", ok);
  int same = ok;
  for (int i = 0; i < 4; ++i)
    same = same && exported_secrets[0].len[i] != 0 &&
           exported_secrets[0].len[i] == exported_secrets[1].len[i] &&
           memcmp(exported_secrets[0].secret[i], exported_secrets[1].secret[i],
                  exported_secrets[0].len[i]) == 0;
  fathom_kat_expect("traffic-secrets-agree", same);
  tls_echo_kat(&connection_io, ok);
  tls_close();
}

/* Passes vector `what` if `as_expected`; otherwise fails it and names what happened instead
 * (the alert, or the error codes). */
static void expect_failure(const char *what, int as_expected, const handshake_result *res) {
  if (as_expected) {
    fathom_kat_expect(what, 1);
    return;
  }
  if (res->rc == 0) {
    char name[64];
    snprintf(name, sizeof name, "%s-but-handshake-completed", what);
    fathom_kat_expect(name, 0);
    return;
  }
  report_failed_handshake(what, res);
}

/* A bad certificate and a suite mismatch fail with the alerts RFC 8446 names. */
static void failure_kats(const tls_case *c) {
  /* The server presents a certificate whose signature does not verify under the CA. */
  static uint8_t bad_der[sizeof tls13_server_cert_der];
  memcpy(bad_der, tls13_server_cert_der, sizeof bad_der);
  bad_der[sizeof bad_der - 8] ^= 0x01; /* inside the signature's last integer */
  mbedtls_x509_crt bad;
  mbedtls_x509_crt_init(&bad);
  int ok = mbedtls_x509_crt_parse_der(&bad, bad_der, sizeof bad_der) == 0 &&
           server_conf_setup(&bad) == 0;
  tls_configure(c);
  tls_pipe_reset(&pipe, 0);
  handshake_result res = tls_handshake(NULL);
  /* RFC 8446 6.2 leaves the alert to the verifier: bad_certificate for a signature that does
   * not verify, unknown_ca when no chain to a trust anchor is found (Mbed TLS's choice). */
  const int alert = alert_by(1, &res);
  expect_failure("bad-certificate-rejected",
                 ok && res.client_rc == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED &&
                     (alert == MBEDTLS_SSL_ALERT_MSG_BAD_CERT ||
                      alert == MBEDTLS_SSL_ALERT_MSG_UNKNOWN_CA),
                 &res);
  tls_close();
  mbedtls_x509_crt_free(&bad);
  fathom_kat_expect("server-configuration-restored", server_conf_setup(&server_cert) == 0);

  /* The client offers only AES-128-GCM, the server only ChaCha20-Poly1305. */
  tls_configure(c);
  static int mismatch[2] = {MBEDTLS_TLS1_3_CHACHA20_POLY1305_SHA256, 0};
  if (c->suite == MBEDTLS_TLS1_3_CHACHA20_POLY1305_SHA256)
    mismatch[0] = MBEDTLS_TLS1_3_AES_128_GCM_SHA256;
  mbedtls_ssl_conf_ciphersuites(&server_conf, mismatch);
  tls_pipe_reset(&pipe, 0);
  res = tls_handshake(NULL);
  expect_failure("suite-mismatch-rejected",
                 res.server_rc != 0 &&
                     alert_by(0, &res) == MBEDTLS_SSL_ALERT_MSG_HANDSHAKE_FAILURE,
                 &res);
  tls_close();
  tls_configure(c);
}

/* ---- the operations */

static const tls_case case_p256_aes128 = {MBEDTLS_TLS1_3_AES_128_GCM_SHA256,
                                          MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1,
                                          MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1};
static const tls_case case_p256_aes256 = {MBEDTLS_TLS1_3_AES_256_GCM_SHA384,
                                          MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1,
                                          MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1};
static const tls_case case_p256_chacha = {MBEDTLS_TLS1_3_CHACHA20_POLY1305_SHA256,
                                          MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1,
                                          MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1};
static const tls_case case_x25519_aes128 = {MBEDTLS_TLS1_3_AES_128_GCM_SHA256,
                                            MBEDTLS_SSL_IANA_TLS_GROUP_X25519,
                                            MBEDTLS_SSL_IANA_TLS_GROUP_X25519};
static const tls_case case_hrr_p256_aes128 = {MBEDTLS_TLS1_3_AES_128_GCM_SHA256,
                                              MBEDTLS_SSL_IANA_TLS_GROUP_SECP256R1,
                                              MBEDTLS_SSL_IANA_TLS_GROUP_X25519};

/* One timed handshake of `c`. The devices are configured for it inside the run (a few stores),
 * so that on a target without isolation, where every operation's setup runs before the first
 * is timed, each handshake still offers its own suite and groups. */
static int handshake_run(const tls_case *c) {
  tls_configure(c);
  tls_pipe_reset(&pipe, 0);
  const handshake_result res = tls_handshake(NULL);
  tls_close();
  return res.rc != 0;
}

static int handshake_setup(const tls_case *c) {
  (void)c;
  return tls_devices_setup();
}

static void handshake_kats(const tls_case *c, int hrr, int failures, const char *name) {
  key_schedule_kat();
  handshake_kat(c, hrr, name);
  if (failures) failure_kats(c);
}

/* Each operation spelled out: `fathom list` reads the literal `.name = "..."`. */
static int p256_aes128_setup(void) { return handshake_setup(&case_p256_aes128); }
static void p256_aes128_kat(void) { handshake_kats(&case_p256_aes128, 0, 1, "tls13-handshake-p256-aes128"); }
static int p256_aes128_run(void) { return handshake_run(&case_p256_aes128); }
static const fathom_op op_tls13_handshake_p256_aes128 = {
    .name = "tls13_handshake_p256_aes128",
    .setup = p256_aes128_setup,
    .kat = p256_aes128_kat,
    .run = p256_aes128_run,
};
FATHOM_REGISTER_OP(op_tls13_handshake_p256_aes128);

static int p256_aes256_setup(void) { return handshake_setup(&case_p256_aes256); }
static void p256_aes256_kat(void) { handshake_kats(&case_p256_aes256, 0, 0, "tls13-handshake-p256-aes256"); }
static int p256_aes256_run(void) { return handshake_run(&case_p256_aes256); }
static const fathom_op op_tls13_handshake_p256_aes256 = {
    .name = "tls13_handshake_p256_aes256",
    .setup = p256_aes256_setup,
    .kat = p256_aes256_kat,
    .run = p256_aes256_run,
};
FATHOM_REGISTER_OP(op_tls13_handshake_p256_aes256);

static int p256_chacha_setup(void) { return handshake_setup(&case_p256_chacha); }
static void p256_chacha_kat(void) { handshake_kats(&case_p256_chacha, 0, 0, "tls13-handshake-p256-chacha"); }
static int p256_chacha_run(void) { return handshake_run(&case_p256_chacha); }
static const fathom_op op_tls13_handshake_p256_chacha = {
    .name = "tls13_handshake_p256_chacha",
    .setup = p256_chacha_setup,
    .kat = p256_chacha_kat,
    .run = p256_chacha_run,
};
FATHOM_REGISTER_OP(op_tls13_handshake_p256_chacha);

static int x25519_aes128_setup(void) { return handshake_setup(&case_x25519_aes128); }
static void x25519_aes128_kat(void) { handshake_kats(&case_x25519_aes128, 0, 0, "tls13-handshake-x25519-aes128"); }
static int x25519_aes128_run(void) { return handshake_run(&case_x25519_aes128); }
static const fathom_op op_tls13_handshake_x25519_aes128 = {
    .name = "tls13_handshake_x25519_aes128",
    .setup = x25519_aes128_setup,
    .kat = x25519_aes128_kat,
    .run = x25519_aes128_run,
};
FATHOM_REGISTER_OP(op_tls13_handshake_x25519_aes128);

static int hrr_p256_aes128_setup(void) { return handshake_setup(&case_hrr_p256_aes128); }
static void hrr_p256_aes128_kat(void) { handshake_kats(&case_hrr_p256_aes128, 1, 0, "tls13-handshake-hrr-p256-aes128"); }
static int hrr_p256_aes128_run(void) { return handshake_run(&case_hrr_p256_aes128); }
static const fathom_op op_tls13_handshake_hrr_p256_aes128 = {
    .name = "tls13_handshake_hrr_p256_aes128",
    .setup = hrr_p256_aes128_setup,
    .kat = hrr_p256_aes128_kat,
    .run = hrr_p256_aes128_run,
};
FATHOM_REGISTER_OP(op_tls13_handshake_hrr_p256_aes128);

/* ---- application data: one direction, on a connection made in setup
 *
 * The operations share one connection (two would not fit the heap beside a handshake's): each
 * setup closes the one before and connects with its own suite. With isolation (the simulator)
 * every operation's runs follow its own setup. Without it (a board), every setup runs before the
 * first operation is timed, so only the last set up holds the connection: the others' runs
 * fail (run-failed) rather than measure another suite's records. Select one application-data
 * operation per run there (fathom run --op). */

static const tls_case *connected_case; /* whose suite the open connection has; NULL if none */

static void appdata_disconnect(void) {
  if (connected_case != NULL) tls_close();
  connected_case = NULL;
}

static int appdata_setup(const tls_case *c, size_t len) {
  int r = tls_devices_setup();
  if (r != 0) return r;
  appdata_disconnect();
  tls_configure(c);
  tls_fill_appdata();
  tls_pipe_reset(&pipe, 0);
  const handshake_result res = tls_handshake(NULL);
  if (res.rc != 0) {
    tls_close();
    return res.rc;
  }
  connected_case = c;
  fathom_report_bytes("payload", (uint32_t)len);
  return 0;
}

/* `len` bytes from the client, received by the server. */
static int appdata_run(const tls_case *c, size_t len) {
  if (connected_case != c) return -2; /* the connection is another operation's */
  return tls_send_to_server(&connection_io, len);
}

static void appdata_kat(const tls_case *c, size_t len) {
  memset(tls_appdata_in, 0, len);
  fathom_kat_expect("appdata-suite",
                    connected_case == c &&
                        mbedtls_ssl_get_ciphersuite_id_from_ssl(&client_ssl) == c->suite &&
                        mbedtls_ssl_get_ciphersuite_id_from_ssl(&server_ssl) == c->suite);
  const int r = appdata_run(c, len);
  fathom_kat_expect("appdata-arrives", r == 0);
  fathom_kat_expect("appdata-intact", r == 0 && memcmp(tls_appdata_in, tls_appdata_out, len) == 0);
}

static int appdata_aes128_16_setup(void) { return appdata_setup(&case_p256_aes128, 16); }
static void appdata_aes128_16_kat(void) { appdata_kat(&case_p256_aes128, 16); }
static int appdata_aes128_16_run(void) { return appdata_run(&case_p256_aes128, 16); }
static const fathom_op op_tls13_appdata_aes128_16 = {
    .name = "tls13_appdata_aes128_16",
    .setup = appdata_aes128_16_setup,
    .kat = appdata_aes128_16_kat,
    .run = appdata_aes128_16_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_aes128_16);

static int appdata_aes128_1k_setup(void) { return appdata_setup(&case_p256_aes128, 1024); }
static void appdata_aes128_1k_kat(void) { appdata_kat(&case_p256_aes128, 1024); }
static int appdata_aes128_1k_run(void) { return appdata_run(&case_p256_aes128, 1024); }
static const fathom_op op_tls13_appdata_aes128_1k = {
    .name = "tls13_appdata_aes128_1k",
    .setup = appdata_aes128_1k_setup,
    .kat = appdata_aes128_1k_kat,
    .run = appdata_aes128_1k_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_aes128_1k);

static int appdata_aes128_16k_setup(void) { return appdata_setup(&case_p256_aes128, 16384); }
static void appdata_aes128_16k_kat(void) { appdata_kat(&case_p256_aes128, 16384); }
static int appdata_aes128_16k_run(void) { return appdata_run(&case_p256_aes128, 16384); }
static const fathom_op op_tls13_appdata_aes128_16k = {
    .name = "tls13_appdata_aes128_16k",
    .setup = appdata_aes128_16k_setup,
    .kat = appdata_aes128_16k_kat,
    .run = appdata_aes128_16k_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_aes128_16k);

static int appdata_aes256_1k_setup(void) { return appdata_setup(&case_p256_aes256, 1024); }
static void appdata_aes256_1k_kat(void) { appdata_kat(&case_p256_aes256, 1024); }
static int appdata_aes256_1k_run(void) { return appdata_run(&case_p256_aes256, 1024); }
static const fathom_op op_tls13_appdata_aes256_1k = {
    .name = "tls13_appdata_aes256_1k",
    .setup = appdata_aes256_1k_setup,
    .kat = appdata_aes256_1k_kat,
    .run = appdata_aes256_1k_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_aes256_1k);

static int appdata_aes256_16k_setup(void) { return appdata_setup(&case_p256_aes256, 16384); }
static void appdata_aes256_16k_kat(void) { appdata_kat(&case_p256_aes256, 16384); }
static int appdata_aes256_16k_run(void) { return appdata_run(&case_p256_aes256, 16384); }
static const fathom_op op_tls13_appdata_aes256_16k = {
    .name = "tls13_appdata_aes256_16k",
    .setup = appdata_aes256_16k_setup,
    .kat = appdata_aes256_16k_kat,
    .run = appdata_aes256_16k_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_aes256_16k);

static int appdata_chacha_1k_setup(void) { return appdata_setup(&case_p256_chacha, 1024); }
static void appdata_chacha_1k_kat(void) { appdata_kat(&case_p256_chacha, 1024); }
static int appdata_chacha_1k_run(void) { return appdata_run(&case_p256_chacha, 1024); }
static const fathom_op op_tls13_appdata_chacha_1k = {
    .name = "tls13_appdata_chacha_1k",
    .setup = appdata_chacha_1k_setup,
    .kat = appdata_chacha_1k_kat,
    .run = appdata_chacha_1k_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_chacha_1k);

static int appdata_chacha_16k_setup(void) { return appdata_setup(&case_p256_chacha, 16384); }
static void appdata_chacha_16k_kat(void) { appdata_kat(&case_p256_chacha, 16384); }
static int appdata_chacha_16k_run(void) { return appdata_run(&case_p256_chacha, 16384); }
static const fathom_op op_tls13_appdata_chacha_16k = {
    .name = "tls13_appdata_chacha_16k",
    .setup = appdata_chacha_16k_setup,
    .kat = appdata_chacha_16k_kat,
    .run = appdata_chacha_16k_run,
    .teardown = appdata_disconnect,
};
FATHOM_REGISTER_OP(op_tls13_appdata_chacha_16k);
