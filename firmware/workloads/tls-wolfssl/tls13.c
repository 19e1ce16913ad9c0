/* fathom workloads: TLS 1.3 with wolfSSL 5.7.2's own TLS stack (docs/TLS.md). The same
 * operations, connection and known answers as the Mbed TLS port
 * (firmware/workloads/tls-mbedtls/tls13.c, which describes them): a client and a server in this
 * image over two in-memory byte queues (firmware/libs/tls/tls_pipe.h), each with its own
 * WOLFSSL_CTX, the committed P-256 chain (firmware/workloads/vectors/tls13_p256_chain.h); each
 * side's steps in its own functions (tls_client_*, tls_server_*) for the primitive share. The
 * RFC 8448 key schedule runs through wolfCrypt's TLS 1.3 HKDF (wc_Tls13_HKDF_Extract /
 * wc_Tls13_HKDF_Expand_Label), which the TLS layer derives every secret with. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fathom_harness.h"
#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/ssl.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/kdf.h>
#include "tls_hello.h"
#include "tls_kat.h"
#include "tls_pipe.h"
#include "../vectors/tls13_p256_chain.h"
#include "../vectors/tls13_rfc8448.h"

#define TLS_MAX_STEPS 400

/* RFC 8446 6.2 alert descriptions the failure KATs expect. */
#define ALERT_HANDSHAKE_FAILURE 40
#define ALERT_BAD_CERTIFICATE 42
#define ALERT_UNKNOWN_CA 48

typedef struct tls_case {
  const char *suite_name; /* wolfSSL's cipher list name */
  uint16_t suite;         /* IANA number, as the ServerHello carries it */
  int group;              /* the server's only group (WOLFSSL_ECC_*) */
  int client_first_group; /* the group the client sends a key share for */
} tls_case;

static WOLFSSL_CTX *client_ctx, *server_ctx;
static WOLFSSL *client_ssl, *server_ssl;
static tls_pipe pipe;

static int io_send(char *buf, int sz, int direction) {
  const size_t n = tls_pipe_write(&pipe, direction, (const uint8_t *)buf, (size_t)sz);
  return n == 0 ? WOLFSSL_CBIO_ERR_WANT_WRITE : (int)n;
}
static int io_recv(char *buf, int sz, int direction) {
  const size_t n = tls_pipe_read(&pipe, direction, (uint8_t *)buf, (size_t)sz);
  return n == 0 ? WOLFSSL_CBIO_ERR_WANT_READ : (int)n;
}
static int client_send(WOLFSSL *ssl, char *buf, int sz, void *ctx) {
  (void)ssl;
  (void)ctx;
  return io_send(buf, sz, TLS_PIPE_CLIENT_TO_SERVER);
}
static int client_recv(WOLFSSL *ssl, char *buf, int sz, void *ctx) {
  (void)ssl;
  (void)ctx;
  return io_recv(buf, sz, TLS_PIPE_SERVER_TO_CLIENT);
}
static int server_send(WOLFSSL *ssl, char *buf, int sz, void *ctx) {
  (void)ssl;
  (void)ctx;
  return io_send(buf, sz, TLS_PIPE_SERVER_TO_CLIENT);
}
static int server_recv(WOLFSSL *ssl, char *buf, int sz, void *ctx) {
  (void)ssl;
  (void)ctx;
  return io_recv(buf, sz, TLS_PIPE_CLIENT_TO_SERVER);
}

/* A server context presenting `cert` (DER) with the server key. */
static WOLFSSL_CTX *server_ctx_new(const uint8_t *cert, size_t cert_len) {
  WOLFSSL_CTX *ctx = wolfSSL_CTX_new(wolfTLSv1_3_server_method());
  if (ctx == NULL) return NULL;
  if (wolfSSL_CTX_use_certificate_buffer(ctx, cert, (long)cert_len, WOLFSSL_FILETYPE_ASN1) !=
          WOLFSSL_SUCCESS ||
      wolfSSL_CTX_use_PrivateKey_buffer(ctx, tls13_server_key_der,
                                        (long)sizeof tls13_server_key_der,
                                        WOLFSSL_FILETYPE_ASN1) != WOLFSSL_SUCCESS) {
    wolfSSL_CTX_free(ctx);
    return NULL;
  }
  wolfSSL_CTX_SetIORecv(ctx, server_recv);
  wolfSSL_CTX_SetIOSend(ctx, server_send);
  return ctx;
}

/* Both devices, once: the library, the client's trust anchor, the server's certificate. */
static int tls_devices_setup(void) {
  if (client_ctx != NULL && server_ctx != NULL) return 0;
  if (wolfSSL_Init() != WOLFSSL_SUCCESS) return 1;
  client_ctx = wolfSSL_CTX_new(wolfTLSv1_3_client_method());
  if (client_ctx == NULL) return 2;
  if (wolfSSL_CTX_load_verify_buffer(client_ctx, tls13_ca_cert_der,
                                     (long)sizeof tls13_ca_cert_der,
                                     WOLFSSL_FILETYPE_ASN1) != WOLFSSL_SUCCESS)
    return 3;
  wolfSSL_CTX_set_verify(client_ctx, WOLFSSL_VERIFY_PEER, NULL);
  wolfSSL_CTX_SetIORecv(client_ctx, client_recv);
  wolfSSL_CTX_SetIOSend(client_ctx, client_send);
  server_ctx = server_ctx_new(tls13_server_cert_der, sizeof tls13_server_cert_der);
  return server_ctx == NULL ? 4 : 0;
}

/* The suite and groups each device offers for `c`. */
static int tls_configure(const tls_case *c, WOLFSSL_CTX *server) {
  int client_groups[2] = {c->client_first_group, c->group};
  int server_groups[1] = {c->group};
  const int n_client = c->client_first_group == c->group ? 1 : 2;
  return wolfSSL_CTX_set_cipher_list(client_ctx, c->suite_name) != WOLFSSL_SUCCESS ||
         wolfSSL_CTX_set_cipher_list(server, c->suite_name) != WOLFSSL_SUCCESS ||
         wolfSSL_CTX_set_groups(client_ctx, client_groups, n_client) != WOLFSSL_SUCCESS ||
         wolfSSL_CTX_set_groups(server, server_groups, 1) != WOLFSSL_SUCCESS;
}

/* ---- each side's part of a connection (the primitive share's "client" and "server"); the
 * empty asm keeps GCC from making the library call a tail call. */

#define TLS_SIDE_RETURN(expr) \
  do {                        \
    const int r_ = (expr);    \
    __asm volatile("");       \
    return r_;                \
  } while (0)

static WOLFSSL_CTX *open_server_ctx; /* the context tls_server_open uses */

static __attribute__((noinline)) int tls_client_open(void) {
  client_ssl = wolfSSL_new(client_ctx);
  if (client_ssl == NULL) return -1;
  TLS_SIDE_RETURN(wolfSSL_check_domain_name(client_ssl, TLS13_SERVER_NAME) == WOLFSSL_SUCCESS
                      ? 0
                      : -2);
}
static __attribute__((noinline)) int tls_server_open(void) {
  server_ssl = wolfSSL_new(open_server_ctx);
  TLS_SIDE_RETURN(server_ssl == NULL ? -1 : 0);
}

/* One step: 0 when the side's handshake is done, 1 when it waits for its peer, else wolfSSL's
 * error code (negative). */
static int step_result(WOLFSSL *ssl, int r) {
  if (r == WOLFSSL_SUCCESS) return 0;
  const int e = wolfSSL_get_error(ssl, r);
  return e == WOLFSSL_ERROR_WANT_READ || e == WOLFSSL_ERROR_WANT_WRITE ? 1 : e;
}
static __attribute__((noinline)) int tls_client_step(void) {
  TLS_SIDE_RETURN(step_result(client_ssl, wolfSSL_connect(client_ssl)));
}
static __attribute__((noinline)) int tls_server_step(void) {
  TLS_SIDE_RETURN(step_result(server_ssl, wolfSSL_accept(server_ssl)));
}
static __attribute__((noinline)) void tls_client_close(void) {
  wolfSSL_free(client_ssl);
  client_ssl = NULL;
  __asm volatile("");
}
static __attribute__((noinline)) void tls_server_close(void) {
  wolfSSL_free(server_ssl);
  server_ssl = NULL;
  __asm volatile("");
}
/* Bytes written or read (> 0), 0 when it must wait, else wolfSSL's error code. */
static int io_result(WOLFSSL *ssl, int r) {
  if (r > 0) return r;
  const int e = wolfSSL_get_error(ssl, r);
  return e == WOLFSSL_ERROR_WANT_READ || e == WOLFSSL_ERROR_WANT_WRITE ? 0 : (e < 0 ? e : -1);
}
static __attribute__((noinline)) int tls_client_write(const uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(client_ssl, wolfSSL_write(client_ssl, buf, (int)len)));
}
static __attribute__((noinline)) int tls_server_read(uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(server_ssl, wolfSSL_read(server_ssl, buf, (int)len)));
}
static __attribute__((noinline)) int tls_server_write(const uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(server_ssl, wolfSSL_write(server_ssl, buf, (int)len)));
}
static __attribute__((noinline)) int tls_client_read(uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(io_result(client_ssl, wolfSSL_read(client_ssl, buf, (int)len)));
}
static const tls_connection_io connection_io = {tls_client_write, tls_server_read,
                                                tls_server_write, tls_client_read};

typedef struct handshake_result {
  int rc;
  int client_rc, server_rc;
} handshake_result;

/* Opens both sides (the server on `server`) and steps them in turn until both are done. */
static handshake_result tls_handshake(WOLFSSL_CTX *server, tls_side_memory mem[2]) {
  handshake_result res = {0, 0, 0};
  open_server_ctx = server;
  res.client_rc = tls_measured_step(tls_client_open, mem ? &mem[0] : NULL);
  res.server_rc = tls_measured_step(tls_server_open, mem ? &mem[1] : NULL);
  if (res.client_rc || res.server_rc) {
    res.rc = res.client_rc ? res.client_rc : res.server_rc;
    return res;
  }
  int client = 1, server_state = 1;
  for (int i = 0; i < TLS_MAX_STEPS; ++i) {
    if (client == 1) client = tls_measured_step(tls_client_step, mem ? &mem[0] : NULL);
    if (server_state == 1 && client <= 1)
      server_state = tls_measured_step(tls_server_step, mem ? &mem[1] : NULL);
    if (client < 0 || server_state < 0) {
      /* Let the other side read the alert the failing side sent. */
      if (client < 0 && server_state == 1) server_state = tls_server_step();
      if (server_state < 0 && client == 1) client = tls_client_step();
      res.client_rc = client < 0 ? client : 0;
      res.server_rc = server_state < 0 ? server_state : 0;
      res.rc = res.client_rc ? res.client_rc : res.server_rc;
      return res;
    }
    if (client == 0 && server_state == 0) return res;
  }
  res.rc = -1; /* stuck */
  return res;
}

static void tls_close(void) {
  tls_client_close();
  tls_server_close();
}

/* The last alert a side sent: in plaintext on the wire (its last write), else wolfSSL's alert
 * history. -1 if none. */
static int alert_sent_by(int by_client, WOLFSSL *ssl) {
  const tls_pipe_queue *q =
      &pipe.q[by_client ? TLS_PIPE_CLIENT_TO_SERVER : TLS_PIPE_SERVER_TO_CLIENT];
  const int on_wire = tls_plaintext_alert(q->last, q->last_len);
  if (on_wire >= 0) return on_wire;
  WOLFSSL_ALERT_HISTORY h;
  if (ssl != NULL && wolfSSL_get_alert_history(ssl, &h) == WOLFSSL_SUCCESS &&
      h.last_tx.level == 2)
    return h.last_tx.code;
  return -1;
}

/* A failed handshake as a failed vector naming the alert a side raised, or wolfSSL's error
 * codes (wolfssl/wolfcrypt/error-crypt.h, wolfssl/error-ssl.h; 0: that side was fine). */
static void report_failed_handshake(const char *what, const handshake_result *res) {
  tls_report_failed_handshake(what, res->client_rc ? alert_sent_by(1, client_ssl) : -1,
                              res->server_rc ? alert_sent_by(0, server_ssl) : -1, res->client_rc,
                              res->server_rc, 0);
}

static void expect_failure(const char *what, int as_expected, const handshake_result *res) {
  if (as_expected) {
    fathom_kat_expect(what, 1);
  } else if (res->rc == 0) {
    char name[64];
    snprintf(name, sizeof name, "%s-but-handshake-completed", what);
    fathom_kat_expect(name, 0);
  } else {
    report_failed_handshake(what, res);
  }
}

/* ---- exported secrets: both sides must derive the same traffic secrets */

typedef struct exported {
  uint8_t secret[4][48];
  int len[4];
} exported;
static exported exported_secrets[2]; /* [client, server] */

static int secret_cb(WOLFSSL *ssl, int id, const unsigned char *secret, int len, void *ctx) {
  (void)ssl;
  exported *e = ctx;
  int i = -1;
  switch (id) {
    case CLIENT_HANDSHAKE_TRAFFIC_SECRET: i = 0; break;
    case SERVER_HANDSHAKE_TRAFFIC_SECRET: i = 1; break;
    case CLIENT_TRAFFIC_SECRET: i = 2; break;
    case SERVER_TRAFFIC_SECRET: i = 3; break;
    default: return 0;
  }
  if (len <= 0 || (size_t)len > sizeof e->secret[i]) return 0;
  memcpy(e->secret[i], secret, (size_t)len);
  e->len[i] = len;
  return 0;
}

/* ---- known answers */

static const byte tls13_protocol[] = "tls13 ";
#define PROTOCOL tls13_protocol, (word32)(sizeof tls13_protocol - 1)
#define LABEL(s) (const byte *)(s), (word32)(sizeof(s) - 1)

/* RFC 8448 section 3's key schedule through wolfCrypt's TLS 1.3 HKDF (SHA-256). */
static void key_schedule_kat(void) {
  byte zeros[32] = {0}, ecdhe[32], empty_hash[32], derived[32];
  byte early[32], handshake[32], client_hs[32], server_hs[32], key[16], iv[12];
  memcpy(ecdhe, rfc8448_ecdhe, sizeof ecdhe);
  int ok = wc_Tls13_HKDF_Extract(early, NULL, 0, zeros, sizeof zeros, WC_SHA256) == 0;
  fathom_kat_check("rfc8448-early-secret", ok ? early : NULL, rfc8448_early_secret, 32);
  ok = ok && wc_Sha256Hash(NULL, 0, empty_hash) == 0 &&
       wc_Tls13_HKDF_Expand_Label(derived, 32, early, 32, PROTOCOL, LABEL("derived"),
                                  empty_hash, 32, WC_SHA256) == 0 &&
       wc_Tls13_HKDF_Extract(handshake, derived, 32, ecdhe, 32, WC_SHA256) == 0;
  fathom_kat_check("rfc8448-handshake-secret", ok ? handshake : NULL, rfc8448_handshake_secret,
                   32);
  const int c_ok = ok && wc_Tls13_HKDF_Expand_Label(client_hs, 32, handshake, 32, PROTOCOL,
                                                    LABEL("c hs traffic"), rfc8448_hello_hash,
                                                    32, WC_SHA256) == 0;
  fathom_kat_check("rfc8448-client-hs-traffic", c_ok ? client_hs : NULL,
                   rfc8448_client_hs_traffic, 32);
  const int s_ok = ok && wc_Tls13_HKDF_Expand_Label(server_hs, 32, handshake, 32, PROTOCOL,
                                                    LABEL("s hs traffic"), rfc8448_hello_hash,
                                                    32, WC_SHA256) == 0;
  fathom_kat_check("rfc8448-server-hs-traffic", s_ok ? server_hs : NULL,
                   rfc8448_server_hs_traffic, 32);
  int r = s_ok && wc_Tls13_HKDF_Expand_Label(key, 16, server_hs, 32, PROTOCOL, LABEL("key"),
                                             NULL, 0, WC_SHA256) == 0;
  fathom_kat_check("rfc8448-server-hs-key", r ? key : NULL, rfc8448_server_hs_key, 16);
  r = s_ok && wc_Tls13_HKDF_Expand_Label(iv, 12, server_hs, 32, PROTOCOL, LABEL("iv"), NULL, 0,
                                         WC_SHA256) == 0;
  fathom_kat_check("rfc8448-server-hs-iv", r ? iv : NULL, rfc8448_server_hs_iv, 12);
  r = c_ok && wc_Tls13_HKDF_Expand_Label(key, 16, client_hs, 32, PROTOCOL, LABEL("key"), NULL,
                                         0, WC_SHA256) == 0;
  fathom_kat_check("rfc8448-client-hs-key", r ? key : NULL, rfc8448_client_hs_key, 16);
  r = c_ok && wc_Tls13_HKDF_Expand_Label(iv, 12, client_hs, 32, PROTOCOL, LABEL("iv"), NULL, 0,
                                         WC_SHA256) == 0;
  fathom_kat_check("rfc8448-client-hs-iv", r ? iv : NULL, rfc8448_client_hs_iv, 12);
}

static void handshake_kat(const tls_case *c, int expect_hrr, const char *name) {
  fathom_kat_expect("configure", tls_configure(c, server_ctx) == 0);
  tls_pipe_reset(&pipe, 0);
  tls_side_memory mem[2];
  memset(mem, 0, sizeof mem);
  const handshake_result res = tls_handshake(server_ctx, mem);
  if (res.rc != 0) {
    report_failed_handshake(name, &res);
    tls_close();
    return;
  }
  fathom_kat_expect("handshake-completes", 1);
  tls_check_server_hello(&pipe, c->suite, (uint16_t)c->group, expect_hrr);
  fathom_kat_expect("client-negotiated-suite",
                    wolfSSL_get_current_cipher_suite(client_ssl) == c->suite);
  fathom_kat_expect("server-negotiated-suite",
                    wolfSSL_get_current_cipher_suite(server_ssl) == c->suite);
  tls_report_handshake(&pipe, mem);
  tls_close();

  /* Again with both sides' secrets exported and the bytes delivered 7 at a time, then
   * application data echoed through records read in odd pieces. */
  tls_pipe_reset(&pipe, 7);
  memset(exported_secrets, 0, sizeof exported_secrets);
  open_server_ctx = server_ctx;
  int ok = tls_client_open() == 0 && tls_server_open() == 0 &&
           wolfSSL_set_tls13_secret_cb(client_ssl, secret_cb, &exported_secrets[0]) ==
               WOLFSSL_SUCCESS &&
           wolfSSL_set_tls13_secret_cb(server_ssl, secret_cb, &exported_secrets[1]) ==
               WOLFSSL_SUCCESS;
  int client = 1, server = 1;
  for (int i = 0; ok && i < TLS_MAX_STEPS && (client || server); ++i) {
    if (client == 1) client = tls_client_step();
    if (server == 1) server = tls_server_step();
    if (client < 0 || server < 0) ok = 0;
  }
  ok = ok && client == 0 && server == 0;
  fathom_kat_expect("handshake-in-7-byte-pieces", ok);
  int same = ok;
  for (int i = 0; i < 4; ++i)
    same = same && exported_secrets[0].len[i] != 0 &&
           exported_secrets[0].len[i] == exported_secrets[1].len[i] &&
           memcmp(exported_secrets[0].secret[i], exported_secrets[1].secret[i],
                  (size_t)exported_secrets[0].len[i]) == 0;
  fathom_kat_expect("traffic-secrets-agree", same);
  tls_echo_kat(&connection_io, ok);
  tls_close();
}

/* A bad certificate and a suite mismatch fail with the alerts RFC 8446 names. */
static void failure_kats(const tls_case *c) {
  static uint8_t bad_der[sizeof tls13_server_cert_der];
  memcpy(bad_der, tls13_server_cert_der, sizeof bad_der);
  bad_der[sizeof bad_der - 8] ^= 0x01; /* inside the signature's last integer */
  WOLFSSL_CTX *bad = server_ctx_new(bad_der, sizeof bad_der);
  handshake_result res = {-1, 0, 0};
  if (bad != NULL && tls_configure(c, bad) == 0) {
    tls_pipe_reset(&pipe, 0);
    res = tls_handshake(bad, NULL);
  }
  const int alert = res.client_rc ? alert_sent_by(1, client_ssl) : -1;
  expect_failure("bad-certificate-rejected",
                 bad != NULL && res.client_rc != 0 &&
                     (alert == ALERT_BAD_CERTIFICATE || alert == ALERT_UNKNOWN_CA),
                 &res);
  tls_close();
  wolfSSL_CTX_free(bad);

  /* The client offers only its suite, the server only another. */
  WOLFSSL_CTX *other = server_ctx_new(tls13_server_cert_der, sizeof tls13_server_cert_der);
  tls_case mismatch = *c;
  mismatch.suite_name = c->suite == TLS_SUITE_CHACHA20_POLY1305_SHA256
                            ? "TLS13-AES128-GCM-SHA256"
                            : "TLS13-CHACHA20-POLY1305-SHA256";
  res.rc = -1;
  if (other != NULL && tls_configure(c, client_ctx) == 0 &&
      tls_configure(&mismatch, other) == 0 &&
      wolfSSL_CTX_set_cipher_list(client_ctx, c->suite_name) == WOLFSSL_SUCCESS) {
    tls_pipe_reset(&pipe, 0);
    res = tls_handshake(other, NULL);
  }
  expect_failure("suite-mismatch-rejected",
                 res.server_rc != 0 && alert_sent_by(0, server_ssl) == ALERT_HANDSHAKE_FAILURE,
                 &res);
  tls_close();
  wolfSSL_CTX_free(other);
  fathom_kat_expect("configuration-restored", tls_configure(c, server_ctx) == 0);
}

/* ---- the operations (names and cases as in the Mbed TLS port) */

static const tls_case case_p256_aes128 = {"TLS13-AES128-GCM-SHA256", TLS_SUITE_AES_128_GCM_SHA256,
                                          WOLFSSL_ECC_SECP256R1, WOLFSSL_ECC_SECP256R1};
static const tls_case case_p256_aes256 = {"TLS13-AES256-GCM-SHA384", TLS_SUITE_AES_256_GCM_SHA384,
                                          WOLFSSL_ECC_SECP256R1, WOLFSSL_ECC_SECP256R1};
static const tls_case case_p256_chacha = {"TLS13-CHACHA20-POLY1305-SHA256",
                                          TLS_SUITE_CHACHA20_POLY1305_SHA256,
                                          WOLFSSL_ECC_SECP256R1, WOLFSSL_ECC_SECP256R1};
static const tls_case case_x25519_aes128 = {"TLS13-AES128-GCM-SHA256",
                                            TLS_SUITE_AES_128_GCM_SHA256, WOLFSSL_ECC_X25519,
                                            WOLFSSL_ECC_X25519};
static const tls_case case_hrr_p256_aes128 = {"TLS13-AES128-GCM-SHA256",
                                              TLS_SUITE_AES_128_GCM_SHA256,
                                              WOLFSSL_ECC_SECP256R1, WOLFSSL_ECC_X25519};

/* One timed handshake of `c`, configured inside the run (see the Mbed TLS port). */
static int handshake_run(const tls_case *c) {
  if (tls_configure(c, server_ctx) != 0) return 1;
  tls_pipe_reset(&pipe, 0);
  const handshake_result res = tls_handshake(server_ctx, NULL);
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

/* ---- application data: one direction, on a connection made in setup (one connection for all
 * of them, as in the Mbed TLS port, which explains the consequence on a board) */

static const tls_case *connected_case; /* whose suite the open connection has; NULL if none */

static void appdata_disconnect(void) {
  if (connected_case != NULL) tls_close();
  connected_case = NULL;
}

static int appdata_setup(const tls_case *c, size_t len) {
  int r = tls_devices_setup();
  if (r != 0) return r;
  appdata_disconnect();
  if (tls_configure(c, server_ctx) != 0) return 5;
  tls_fill_appdata();
  tls_pipe_reset(&pipe, 0);
  const handshake_result res = tls_handshake(server_ctx, NULL);
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
  fathom_kat_expect("appdata-suite", connected_case == c &&
                                         wolfSSL_get_current_cipher_suite(client_ssl) == c->suite &&
                                         wolfSSL_get_current_cipher_suite(server_ssl) == c->suite);
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
