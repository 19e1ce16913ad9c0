/* fathom workloads: Mbed TLS 3.6.6's TLS 1.3 endpoint for the interop operations
 * (interop_endpoint.h), configured as the Mbed TLS port configures its two devices
 * (firmware/workloads/tls-mbedtls/tls13.c): TLS 1.3 only, ephemeral key exchange, the client
 * verifying the server's chain against the committed CA and checking its name. */
#include <string.h>

#include "interop_endpoint.h"
#include "mbedtls/pk.h"
#include "mbedtls/psa_util.h"
#include "mbedtls/ssl.h"
#include "mbedtls/x509_crt.h"
#include "psa/crypto.h"
#include "../vectors/tls13_p256_chain.h"

static mbedtls_ssl_config conf[2];
static mbedtls_ssl_context ssl[2];
static mbedtls_x509_crt ca_cert, server_cert;
static mbedtls_pk_context server_key;
static int ready;
static int suites[2][2];
static uint16_t groups[2][2];

static int send_on(int direction, const unsigned char *buf, size_t len) {
  const size_t n = tls_pipe_write(&interop_pipe, direction, buf, len);
  return n == 0 ? MBEDTLS_ERR_SSL_WANT_WRITE : (int)n;
}
static int recv_on(int direction, unsigned char *buf, size_t len) {
  const size_t n = tls_pipe_read(&interop_pipe, direction, buf, len);
  return n == 0 ? MBEDTLS_ERR_SSL_WANT_READ : (int)n;
}
static int client_send(void *ctx, const unsigned char *buf, size_t len) {
  (void)ctx;
  return send_on(TLS_PIPE_CLIENT_TO_SERVER, buf, len);
}
static int client_recv(void *ctx, unsigned char *buf, size_t len) {
  (void)ctx;
  return recv_on(TLS_PIPE_SERVER_TO_CLIENT, buf, len);
}
static int server_send(void *ctx, const unsigned char *buf, size_t len) {
  (void)ctx;
  return send_on(TLS_PIPE_SERVER_TO_CLIENT, buf, len);
}
static int server_recv(void *ctx, unsigned char *buf, size_t len) {
  (void)ctx;
  return recv_on(TLS_PIPE_CLIENT_TO_SERVER, buf, len);
}

static int mb_setup(void) {
  if (ready) return 0;
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
  for (int role = 0; role < 2; ++role) {
    mbedtls_ssl_config *c = &conf[role];
    mbedtls_ssl_config_init(c);
    if ((r = mbedtls_ssl_config_defaults(
             c, role == INTEROP_CLIENT ? MBEDTLS_SSL_IS_CLIENT : MBEDTLS_SSL_IS_SERVER,
             MBEDTLS_SSL_TRANSPORT_STREAM, MBEDTLS_SSL_PRESET_DEFAULT)))
      return r;
    mbedtls_ssl_conf_min_tls_version(c, MBEDTLS_SSL_VERSION_TLS1_3);
    mbedtls_ssl_conf_max_tls_version(c, MBEDTLS_SSL_VERSION_TLS1_3);
    mbedtls_ssl_conf_rng(c, mbedtls_psa_get_random, MBEDTLS_PSA_RANDOM_STATE);
    mbedtls_ssl_conf_tls13_key_exchange_modes(c, MBEDTLS_SSL_TLS1_3_KEY_EXCHANGE_MODE_EPHEMERAL);
  }
  mbedtls_ssl_conf_authmode(&conf[INTEROP_CLIENT], MBEDTLS_SSL_VERIFY_REQUIRED);
  mbedtls_ssl_conf_ca_chain(&conf[INTEROP_CLIENT], &ca_cert, NULL);
  if ((r = mbedtls_ssl_conf_own_cert(&conf[INTEROP_SERVER], &server_cert, &server_key)))
    return r;
  ready = 1;
  return 0;
}

static void export_cb(void *ctx, mbedtls_ssl_key_export_type type, const unsigned char *secret,
                      size_t len, const unsigned char client_random[32],
                      const unsigned char server_random[32], mbedtls_tls_prf_types prf) {
  (void)client_random;
  (void)server_random;
  (void)prf;
  interop_secrets *e = ctx;
  int i;
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

static int mb_open(int role, uint16_t suite, uint16_t group, interop_secrets *secrets) {
  suites[role][0] = suite;
  suites[role][1] = 0;
  groups[role][0] = group;
  groups[role][1] = MBEDTLS_SSL_IANA_TLS_GROUP_NONE;
  mbedtls_ssl_conf_ciphersuites(&conf[role], suites[role]);
  mbedtls_ssl_conf_groups(&conf[role], groups[role]);
  mbedtls_ssl_init(&ssl[role]);
  int r = mbedtls_ssl_setup(&ssl[role], &conf[role]);
  if (r == 0 && role == INTEROP_CLIENT) r = mbedtls_ssl_set_hostname(&ssl[role], TLS13_SERVER_NAME);
  if (role == INTEROP_CLIENT)
    mbedtls_ssl_set_bio(&ssl[role], NULL, client_send, client_recv, NULL);
  else
    mbedtls_ssl_set_bio(&ssl[role], NULL, server_send, server_recv, NULL);
  if (secrets != NULL) mbedtls_ssl_set_export_keys_cb(&ssl[role], export_cb, secrets);
  return r;
}

static int would_block(int r) {
  return r == MBEDTLS_ERR_SSL_WANT_READ || r == MBEDTLS_ERR_SSL_WANT_WRITE;
}

static int mb_step(int role) {
  if (mbedtls_ssl_is_handshake_over(&ssl[role])) return 0;
  const int r = mbedtls_ssl_handshake_step(&ssl[role]);
  if (r != 0 && !would_block(r)) return r;
  return mbedtls_ssl_is_handshake_over(&ssl[role]) ? 0 : 1;
}

static int io_result(int r) { return would_block(r) ? 0 : r; }
static int mb_write(int role, const uint8_t *buf, size_t len) {
  return io_result(mbedtls_ssl_write(&ssl[role], buf, len));
}
static int mb_read(int role, uint8_t *buf, size_t len) {
  return io_result(mbedtls_ssl_read(&ssl[role], buf, len));
}
static uint16_t mb_suite(int role) {
  return (uint16_t)mbedtls_ssl_get_ciphersuite_id_from_ssl(&ssl[role]);
}
static void mb_close(int role) { mbedtls_ssl_free(&ssl[role]); }

const interop_endpoint interop_mbedtls = {"Mbed TLS", mb_setup, mb_open, mb_step, mb_write, mb_read, mb_suite, mb_close};
