/* fathom workloads: TLS 1.3 between the two libraries (docs/TLS.md "Interop"). One image holds
 * Mbed TLS 3.6.6's and wolfSSL 5.7.2's TLS stacks; each operation connects one library's client
 * to the other's server over two in-memory byte queues, with the committed P-256 chain
 * (firmware/workloads/vectors/tls13_p256_chain.h) on the server and its CA on the client.
 *
 *   tls13_interop_<client library>_client_<group>_<suite>
 *       one full handshake, as tls13_handshake_* in each library's port: both sides opened,
 *       stepped in turn until both are done, closed. mbedtls_client: an Mbed TLS client and a
 *       wolfSSL server; wolfssl_client: the reverse. Each side's steps run in its own
 *       functions (tls_client_*, tls_server_*), so the primitive share splits the cycles by
 *       side (and by phase, with both ports' phase groups: docs/TLS.md).
 *
 * Known answers, before any timing counts: the handshake completes; the ServerHello, read off
 * the wire, says TLS 1.3 with the suite and group offered and no HelloRetryRequest; both sides
 * report that suite; again with the bytes delivered 7 at a time, where the traffic secrets that
 * each library derived on its own must be equal (Mbed TLS's export callback against wolfSSL's
 * secret callback); and application data of 1 to 16,384 bytes echoed intact across records
 * read in odd pieces. A failed handshake is a failed vector naming the alert seen on the wire
 * or both libraries' error codes, never a timing. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fathom_harness.h"
#include "interop_endpoint.h"
#include "tls_hello.h"
#include "tls_kat.h"
#include "tls_pipe.h"

#define TLS_MAX_STEPS 400

tls_pipe interop_pipe;

typedef struct interop_case {
  const interop_endpoint *client, *server;
  uint16_t suite, group;
} interop_case;

/* The case whose connection the side functions open; the secrets they record into (or NULL). */
static const interop_case *current;
static interop_secrets *current_secrets;

/* ---- each side's part of a connection (the primitive share's "client" and "server"); the
 * empty asm keeps GCC from making the library call a tail call. */

#define TLS_SIDE_RETURN(expr) \
  do {                        \
    const int r_ = (expr);    \
    __asm volatile("");       \
    return r_;                \
  } while (0)

static __attribute__((noinline)) int tls_client_open(void) {
  TLS_SIDE_RETURN(current->client->open(INTEROP_CLIENT, current->suite, current->group,
                                        current_secrets ? &current_secrets[0] : NULL));
}
static __attribute__((noinline)) int tls_server_open(void) {
  TLS_SIDE_RETURN(current->server->open(INTEROP_SERVER, current->suite, current->group,
                                        current_secrets ? &current_secrets[1] : NULL));
}
static __attribute__((noinline)) int tls_client_step(void) {
  TLS_SIDE_RETURN(current->client->step(INTEROP_CLIENT));
}
static __attribute__((noinline)) int tls_server_step(void) {
  TLS_SIDE_RETURN(current->server->step(INTEROP_SERVER));
}
static __attribute__((noinline)) void tls_client_close(void) {
  current->client->close(INTEROP_CLIENT);
  __asm volatile("");
}
static __attribute__((noinline)) void tls_server_close(void) {
  current->server->close(INTEROP_SERVER);
  __asm volatile("");
}
/* The application writes at most this much at a time: Mbed TLS's record buffers in this image
 * hold 4 KiB of plaintext (suites/tls.toml), and TLS 1.3 between these two libraries has no way
 * to say so: wolfSSL 5.7.2 implements no record_size_limit (RFC 8449), Mbed TLS 3.6's TLS 1.3
 * no max_fragment_length (RFC 6066). A wolfSSL write of 16 KiB would be one 16 KiB record. */
#define INTEROP_MAX_WRITE 4096
static size_t capped(size_t len) { return len < INTEROP_MAX_WRITE ? len : INTEROP_MAX_WRITE; }

static __attribute__((noinline)) int tls_client_write(const uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(current->client->write(INTEROP_CLIENT, buf, capped(len)));
}
static __attribute__((noinline)) int tls_server_read(uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(current->server->read(INTEROP_SERVER, buf, len));
}
static __attribute__((noinline)) int tls_server_write(const uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(current->server->write(INTEROP_SERVER, buf, capped(len)));
}
static __attribute__((noinline)) int tls_client_read(uint8_t *buf, size_t len) {
  TLS_SIDE_RETURN(current->client->read(INTEROP_CLIENT, buf, len));
}
static const tls_connection_io connection_io = {tls_client_write, tls_server_read,
                                                tls_server_write, tls_client_read};

typedef struct handshake_result {
  int rc;
  int client_rc, server_rc;
} handshake_result;

/* Opens both sides of `current` and steps them in turn until both are done (the connections
 * stay open); the failing side's peer gets one more step to read its alert. */
static handshake_result tls_handshake(tls_side_memory mem[2]) {
  handshake_result res = {0, 0, 0};
  res.client_rc = tls_measured_step(tls_client_open, mem ? &mem[0] : NULL);
  res.server_rc = tls_measured_step(tls_server_open, mem ? &mem[1] : NULL);
  if (res.client_rc || res.server_rc) {
    res.rc = res.client_rc ? res.client_rc : res.server_rc;
    return res;
  }
  int client = 1, server = 1;
  for (int i = 0; i < TLS_MAX_STEPS; ++i) {
    if (client == 1) client = tls_measured_step(tls_client_step, mem ? &mem[0] : NULL);
    if (server == 1 && client >= 0)
      server = tls_measured_step(tls_server_step, mem ? &mem[1] : NULL);
    if (client < 0 || server < 0) {
      if (client < 0 && server == 1) server = tls_server_step();
      if (server < 0 && client == 1) client = tls_client_step();
      res.client_rc = client < 0 ? client : 0;
      res.server_rc = server < 0 ? server : 0;
      res.rc = res.client_rc ? res.client_rc : res.server_rc;
      return res;
    }
    if (client == 0 && server == 0) return res;
  }
  res.rc = -1; /* stuck */
  return res;
}

static void tls_close(void) {
  tls_client_close();
  tls_server_close();
}

/* The fatal alert a side sent in plaintext (its last write), -1 if none: an alert encrypted
 * under the handshake keys cannot be read off the wire, and the two libraries keep their own
 * records of alerts, so the vector then names both error codes. */
static int plaintext_alert_by(int by_client) {
  const tls_pipe_queue *q =
      &interop_pipe.q[by_client ? TLS_PIPE_CLIENT_TO_SERVER : TLS_PIPE_SERVER_TO_CLIENT];
  return tls_plaintext_alert(q->last, q->last_len);
}

static void report_failed_handshake(const char *what, const handshake_result *res) {
  tls_report_failed_handshake(what, res->client_rc ? plaintext_alert_by(1) : -1,
                              res->server_rc ? plaintext_alert_by(0) : -1, res->client_rc,
                              res->server_rc, 0);
}

/* ---- the operations */

static int interop_setup(const interop_case *c) {
  int r = c->client->setup();
  if (r == 0) r = c->server->setup();
  return r;
}

/* One timed handshake. */
static int interop_run(const interop_case *c) {
  current = c;
  current_secrets = NULL;
  tls_pipe_reset(&interop_pipe, 0);
  const handshake_result res = tls_handshake(NULL);
  tls_close();
  return res.rc != 0;
}

static void interop_kat(const interop_case *c, const char *name) {
  current = c;
  current_secrets = NULL;
  tls_pipe_reset(&interop_pipe, 0);
  tls_side_memory mem[2];
  memset(mem, 0, sizeof mem);
  handshake_result res = tls_handshake(mem);
  if (res.rc != 0) {
    report_failed_handshake(name, &res);
    tls_close();
    return;
  }
  fathom_kat_expect("handshake-completes", 1);
  tls_check_server_hello(&interop_pipe, c->suite, c->group, 0);
  fathom_kat_expect("client-negotiated-suite", c->client->suite(INTEROP_CLIENT) == c->suite);
  fathom_kat_expect("server-negotiated-suite", c->server->suite(INTEROP_SERVER) == c->suite);
  tls_report_handshake(&interop_pipe, mem);
  tls_close();

  /* Again with both sides' secrets recorded and the bytes delivered 7 at a time, then
   * application data echoed through records read in odd pieces. */
  static interop_secrets secrets[2]; /* [client, server] */
  memset(secrets, 0, sizeof secrets);
  current_secrets = secrets;
  tls_pipe_reset(&interop_pipe, 7);
  res = tls_handshake(NULL);
  current_secrets = NULL;
  const int ok = res.rc == 0;
  if (!ok) report_failed_handshake("handshake-in-7-byte-pieces", &res);
  else fathom_kat_expect("handshake-in-7-byte-pieces", 1);
  int same = ok;
  for (int i = 0; i < 4; ++i)
    same = same && secrets[0].len[i] != 0 && secrets[0].len[i] == secrets[1].len[i] &&
           memcmp(secrets[0].secret[i], secrets[1].secret[i], secrets[0].len[i]) == 0;
  fathom_kat_expect("traffic-secrets-agree", same);
  tls_echo_kat(&connection_io, ok);
  tls_close();
}

static const interop_case case_mbedtls_client_p256_aes128 = {
    &interop_mbedtls, &interop_wolfssl, INTEROP_TLS_AES_128_GCM_SHA256, INTEROP_GROUP_SECP256R1};
static const interop_case case_wolfssl_client_p256_aes128 = {
    &interop_wolfssl, &interop_mbedtls, INTEROP_TLS_AES_128_GCM_SHA256, INTEROP_GROUP_SECP256R1};
static const interop_case case_mbedtls_client_x25519_chacha = {
    &interop_mbedtls, &interop_wolfssl, INTEROP_TLS_CHACHA20_POLY1305_SHA256,
    INTEROP_GROUP_X25519};
static const interop_case case_wolfssl_client_x25519_chacha = {
    &interop_wolfssl, &interop_mbedtls, INTEROP_TLS_CHACHA20_POLY1305_SHA256,
    INTEROP_GROUP_X25519};

/* Each operation spelled out: `fathom list` reads the literal `.name = "..."`. */
static int mc_p256_aes128_setup(void) { return interop_setup(&case_mbedtls_client_p256_aes128); }
static void mc_p256_aes128_kat(void) { interop_kat(&case_mbedtls_client_p256_aes128, "tls13-interop-mbedtls-client-p256-aes128"); }
static int mc_p256_aes128_run(void) { return interop_run(&case_mbedtls_client_p256_aes128); }
static const fathom_op op_tls13_interop_mbedtls_client_p256_aes128 = {
    .name = "tls13_interop_mbedtls_client_p256_aes128",
    .setup = mc_p256_aes128_setup,
    .kat = mc_p256_aes128_kat,
    .run = mc_p256_aes128_run,
};
FATHOM_REGISTER_OP(op_tls13_interop_mbedtls_client_p256_aes128);

static int wc_p256_aes128_setup(void) { return interop_setup(&case_wolfssl_client_p256_aes128); }
static void wc_p256_aes128_kat(void) { interop_kat(&case_wolfssl_client_p256_aes128, "tls13-interop-wolfssl-client-p256-aes128"); }
static int wc_p256_aes128_run(void) { return interop_run(&case_wolfssl_client_p256_aes128); }
static const fathom_op op_tls13_interop_wolfssl_client_p256_aes128 = {
    .name = "tls13_interop_wolfssl_client_p256_aes128",
    .setup = wc_p256_aes128_setup,
    .kat = wc_p256_aes128_kat,
    .run = wc_p256_aes128_run,
};
FATHOM_REGISTER_OP(op_tls13_interop_wolfssl_client_p256_aes128);

static int mc_x25519_chacha_setup(void) { return interop_setup(&case_mbedtls_client_x25519_chacha); }
static void mc_x25519_chacha_kat(void) { interop_kat(&case_mbedtls_client_x25519_chacha, "tls13-interop-mbedtls-client-x25519-chacha"); }
static int mc_x25519_chacha_run(void) { return interop_run(&case_mbedtls_client_x25519_chacha); }
static const fathom_op op_tls13_interop_mbedtls_client_x25519_chacha = {
    .name = "tls13_interop_mbedtls_client_x25519_chacha",
    .setup = mc_x25519_chacha_setup,
    .kat = mc_x25519_chacha_kat,
    .run = mc_x25519_chacha_run,
};
FATHOM_REGISTER_OP(op_tls13_interop_mbedtls_client_x25519_chacha);

static int wc_x25519_chacha_setup(void) { return interop_setup(&case_wolfssl_client_x25519_chacha); }
static void wc_x25519_chacha_kat(void) { interop_kat(&case_wolfssl_client_x25519_chacha, "tls13-interop-wolfssl-client-x25519-chacha"); }
static int wc_x25519_chacha_run(void) { return interop_run(&case_wolfssl_client_x25519_chacha); }
static const fathom_op op_tls13_interop_wolfssl_client_x25519_chacha = {
    .name = "tls13_interop_wolfssl_client_x25519_chacha",
    .setup = wc_x25519_chacha_setup,
    .kat = wc_x25519_chacha_kat,
    .run = wc_x25519_chacha_run,
};
FATHOM_REGISTER_OP(op_tls13_interop_wolfssl_client_x25519_chacha);
