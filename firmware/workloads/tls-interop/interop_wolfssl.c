/* fathom workloads: wolfSSL 5.7.2's TLS 1.3 endpoint for the interop operations
 * (interop_endpoint.h), configured as the wolfSSL port configures its two devices
 * (firmware/workloads/tls-wolfssl/tls13.c): a WOLFSSL_CTX per role, the client verifying the
 * server's chain against the committed CA and checking its name. */
#include <string.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/ssl.h>

#include "interop_endpoint.h"
#include "../vectors/tls13_p256_chain.h"

static WOLFSSL_CTX *ctx[2];
static WOLFSSL *ssl[2];

static int send_on(int direction, char *buf, int sz) {
  const size_t n = tls_pipe_write(&interop_pipe, direction, (const uint8_t *)buf, (size_t)sz);
  return n == 0 ? WOLFSSL_CBIO_ERR_WANT_WRITE : (int)n;
}
static int recv_on(int direction, char *buf, int sz) {
  const size_t n = tls_pipe_read(&interop_pipe, direction, (uint8_t *)buf, (size_t)sz);
  return n == 0 ? WOLFSSL_CBIO_ERR_WANT_READ : (int)n;
}
static int client_send(WOLFSSL *s, char *buf, int sz, void *c) {
  (void)s;
  (void)c;
  return send_on(TLS_PIPE_CLIENT_TO_SERVER, buf, sz);
}
static int client_recv(WOLFSSL *s, char *buf, int sz, void *c) {
  (void)s;
  (void)c;
  return recv_on(TLS_PIPE_SERVER_TO_CLIENT, buf, sz);
}
static int server_send(WOLFSSL *s, char *buf, int sz, void *c) {
  (void)s;
  (void)c;
  return send_on(TLS_PIPE_SERVER_TO_CLIENT, buf, sz);
}
static int server_recv(WOLFSSL *s, char *buf, int sz, void *c) {
  (void)s;
  (void)c;
  return recv_on(TLS_PIPE_CLIENT_TO_SERVER, buf, sz);
}

static int wolf_setup(void) {
  if (ctx[0] != NULL && ctx[1] != NULL) return 0;
  if (wolfSSL_Init() != WOLFSSL_SUCCESS) return -1;
  ctx[INTEROP_CLIENT] = wolfSSL_CTX_new(wolfTLSv1_3_client_method());
  ctx[INTEROP_SERVER] = wolfSSL_CTX_new(wolfTLSv1_3_server_method());
  WOLFSSL_CTX *client = ctx[INTEROP_CLIENT], *server = ctx[INTEROP_SERVER];
  if (client == NULL || server == NULL) return -2;
  if (wolfSSL_CTX_load_verify_buffer(client, tls13_ca_cert_der, (long)sizeof tls13_ca_cert_der,
                                     WOLFSSL_FILETYPE_ASN1) != WOLFSSL_SUCCESS)
    return -3;
  wolfSSL_CTX_set_verify(client, WOLFSSL_VERIFY_PEER, NULL);
  wolfSSL_CTX_SetIORecv(client, client_recv);
  wolfSSL_CTX_SetIOSend(client, client_send);
  if (wolfSSL_CTX_use_certificate_buffer(server, tls13_server_cert_der,
                                         (long)sizeof tls13_server_cert_der,
                                         WOLFSSL_FILETYPE_ASN1) != WOLFSSL_SUCCESS ||
      wolfSSL_CTX_use_PrivateKey_buffer(server, tls13_server_key_der,
                                        (long)sizeof tls13_server_key_der,
                                        WOLFSSL_FILETYPE_ASN1) != WOLFSSL_SUCCESS)
    return -4;
  wolfSSL_CTX_SetIORecv(server, server_recv);
  wolfSSL_CTX_SetIOSend(server, server_send);
  return 0;
}

static int secret_cb(WOLFSSL *s, int id, const unsigned char *secret, int len, void *c) {
  (void)s;
  interop_secrets *e = c;
  int i;
  switch (id) {
    case CLIENT_HANDSHAKE_TRAFFIC_SECRET: i = 0; break;
    case SERVER_HANDSHAKE_TRAFFIC_SECRET: i = 1; break;
    case CLIENT_TRAFFIC_SECRET: i = 2; break;
    case SERVER_TRAFFIC_SECRET: i = 3; break;
    default: return 0;
  }
  if (len <= 0 || (size_t)len > sizeof e->secret[i]) return 0;
  memcpy(e->secret[i], secret, (size_t)len);
  e->len[i] = (size_t)len;
  return 0;
}

/* wolfSSL's name for a TLS 1.3 suite (its cipher list syntax). */
static const char *suite_name(uint16_t suite) {
  switch (suite) {
    case INTEROP_TLS_AES_128_GCM_SHA256: return "TLS13-AES128-GCM-SHA256";
    case INTEROP_TLS_CHACHA20_POLY1305_SHA256: return "TLS13-CHACHA20-POLY1305-SHA256";
    default: return NULL;
  }
}

static int wolf_open(int role, uint16_t suite, uint16_t group, interop_secrets *secrets) {
  const char *name = suite_name(suite);
  int groups[1] = {group}; /* wolfSSL's WOLFSSL_ECC_* are the IANA numbers */
  if (name == NULL) return -10;
  if (wolfSSL_CTX_set_cipher_list(ctx[role], name) != WOLFSSL_SUCCESS ||
      wolfSSL_CTX_set_groups(ctx[role], groups, 1) != WOLFSSL_SUCCESS)
    return -11;
  ssl[role] = wolfSSL_new(ctx[role]);
  if (ssl[role] == NULL) return -12;
  if (role == INTEROP_CLIENT &&
      wolfSSL_check_domain_name(ssl[role], TLS13_SERVER_NAME) != WOLFSSL_SUCCESS)
    return -13;
  if (secrets != NULL && wolfSSL_set_tls13_secret_cb(ssl[role], secret_cb, secrets) != WOLFSSL_SUCCESS)
    return -14;
  return 0;
}

static int wolf_step(int role) {
  const int r = role == INTEROP_CLIENT ? wolfSSL_connect(ssl[role]) : wolfSSL_accept(ssl[role]);
  if (r == WOLFSSL_SUCCESS) return 0;
  const int e = wolfSSL_get_error(ssl[role], r);
  return e == WOLFSSL_ERROR_WANT_READ || e == WOLFSSL_ERROR_WANT_WRITE ? 1 : (e < 0 ? e : -1);
}

static int io_result(int role, int r) {
  if (r > 0) return r;
  const int e = wolfSSL_get_error(ssl[role], r);
  return e == WOLFSSL_ERROR_WANT_READ || e == WOLFSSL_ERROR_WANT_WRITE ? 0 : (e < 0 ? e : -1);
}
static int wolf_write(int role, const uint8_t *buf, size_t len) {
  return io_result(role, wolfSSL_write(ssl[role], buf, (int)len));
}
static int wolf_read(int role, uint8_t *buf, size_t len) {
  return io_result(role, wolfSSL_read(ssl[role], buf, (int)len));
}
static uint16_t wolf_suite(int role) {
  return (uint16_t)wolfSSL_get_current_cipher_suite(ssl[role]);
}
static void wolf_close(int role) {
  wolfSSL_free(ssl[role]);
  ssl[role] = NULL;
}

const interop_endpoint interop_wolfssl = {"wolfSSL", wolf_setup, wolf_open, wolf_step,
                                          wolf_write, wolf_read, wolf_suite, wolf_close};
