/* fathom TLS workloads: the parts of the handshake and record-layer workloads that do not depend
 * on the TLS library (docs/TLS.md): each side's memory measured around its steps, the BYTES
 * records of a handshake, the ServerHello checks, failures named after their alerts, and
 * application data through a connection given as four side functions. */
#ifndef FATHOM_TLS_KAT_H
#define FATHOM_TLS_KAT_H

#include <stddef.h>
#include <stdint.h>

#include "tls_pipe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One side's memory over its steps: deepest stack below the driver's frame, highest heap its own
 * steps held, and what they hold now. */
typedef struct tls_side_memory {
  uint32_t peak_stack, peak_heap;
  int32_t in_use;
} tls_side_memory;

/* Runs `step` (one side's step); with `m`, measures it (fathom_memory_mark/_since) into `m`.
 * Returns what `step` returned. */
int tls_measured_step(int (*step)(void), tls_side_memory *m);

/* The BYTES records of a handshake through `p`: client_to_server, server_to_client,
 * flight<N>_<side>, and each side's peak stack and heap from `mem` ([client, server]). */
void tls_report_handshake(const tls_pipe *p, const tls_side_memory mem[2]);

/* The known answers of the ServerHello `p` carried: it parses, says TLS 1.3, `suite`, `group`,
 * and is a HelloRetryRequest exactly when `expect_hrr`. */
void tls_check_server_hello(const tls_pipe *p, uint16_t suite, uint16_t group, int expect_hrr);

/* The RFC 8446 6.2 name of an alert description ("unknown_ca"), "alert" for others. */
const char *tls_alert_name(int alert);

/* A failed handshake as a failed vector named "<what>-client-alert-<n>-<name>" (the alert the
 * client raised, or else the server's: `client_alert`, `server_alert`, -1 for none), or else
 * "<what>-failed-client-<rc>-server-<rc>" with the libraries' codes (`hex`: as Mbed TLS spells
 * them, "-0x6a00"; else decimal, as wolfSSL's). */
void tls_report_failed_handshake(const char *what, int client_alert, int server_alert,
                                 int client_rc, int server_rc, int hex);

/* A connection's four side functions: each returns the bytes written or read (> 0), 0 when it
 * must wait for the peer, or the library's error (< 0). A write that returned 0 must be
 * repeated with the same arguments. */
typedef struct tls_connection_io {
  int (*client_write)(const uint8_t *buf, size_t len);
  int (*server_read)(uint8_t *buf, size_t len);
  int (*server_write)(const uint8_t *buf, size_t len);
  int (*client_read)(uint8_t *buf, size_t len);
} tls_connection_io;

/* The application data the workloads send: TLS_APPDATA_MAX bytes of a fixed pattern (filled by
 * tls_fill_appdata), and where the server puts what it receives. */
#define TLS_APPDATA_MAX 16384
extern uint8_t tls_appdata_out[TLS_APPDATA_MAX], tls_appdata_in[TLS_APPDATA_MAX];
void tls_fill_appdata(void);

/* `len` bytes of tls_appdata_out from the client, received by the server into tls_appdata_in.
 * 0 when all arrived, the library's error, or 1 if the connection stalled. */
int tls_send_to_server(const tls_connection_io *io, size_t len);

/* The KAT's echo: for each size, data from the client echoed by the server and compared, one
 * vector per size ("appdata-echo-<size>-odd-pieces", or "...-error-<code>" when the library
 * failed); a size after a failure fails too. Returns 1 if every echo was intact. */
int tls_echo_kat(const tls_connection_io *io, int connected);

#ifdef __cplusplus
}
#endif
#endif /* FATHOM_TLS_KAT_H */
