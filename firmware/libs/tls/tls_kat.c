/* fathom TLS workloads: library-independent KAT and record-layer parts (tls_kat.h). */
#include "tls_kat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fathom_harness.h"
#include "tls_hello.h"

uint8_t tls_appdata_out[TLS_APPDATA_MAX], tls_appdata_in[TLS_APPDATA_MAX];

int tls_measured_step(int (*step)(void), tls_side_memory *m) {
  if (m == NULL) return step();
  const uint32_t mark = fathom_memory_mark();
  const int r = step();
  const fathom_memory_use use = fathom_memory_since(mark);
  if (use.peak_stack_bytes > m->peak_stack) m->peak_stack = use.peak_stack_bytes;
  const int32_t peak = m->in_use + (int32_t)use.heap_peak_bytes;
  if (peak > (int32_t)m->peak_heap) m->peak_heap = (uint32_t)peak;
  m->in_use += use.heap_change_bytes;
  return r;
}

void tls_report_handshake(const tls_pipe *p, const tls_side_memory mem[2]) {
  fathom_report_bytes("client_to_server", p->q[TLS_PIPE_CLIENT_TO_SERVER].total);
  fathom_report_bytes("server_to_client", p->q[TLS_PIPE_SERVER_TO_CLIENT].total);
  for (uint32_t f = 0; f < p->flights && f < TLS_PIPE_MAX_FLIGHTS; ++f) {
    char what[32];
    snprintf(what, sizeof what, "flight%u_%s", (unsigned)(f + 1),
             p->flight_direction[f] == TLS_PIPE_CLIENT_TO_SERVER ? "client" : "server");
    fathom_report_bytes(what, p->flight_bytes[f]);
  }
  fathom_report_bytes("client_peak_stack", mem[0].peak_stack);
  fathom_report_bytes("client_peak_heap", mem[0].peak_heap);
  fathom_report_bytes("server_peak_stack", mem[1].peak_stack);
  fathom_report_bytes("server_peak_heap", mem[1].peak_heap);
}

void tls_check_server_hello(const tls_pipe *p, uint16_t suite, uint16_t group, int expect_hrr) {
  const tls_pipe_queue *s2c = &p->q[TLS_PIPE_SERVER_TO_CLIENT];
  const size_t captured = s2c->total < TLS_PIPE_CAPTURE_BYTES ? s2c->total : TLS_PIPE_CAPTURE_BYTES;
  tls_server_hello hello;
  const int parsed = tls_parse_server_hello(s2c->capture, captured, &hello) == 0;
  fathom_kat_expect("server-hello-parses", parsed);
  fathom_kat_expect("server-hello-tls13", parsed && hello.version == 0x0304);
  fathom_kat_expect("server-hello-suite", parsed && hello.cipher_suite == suite);
  fathom_kat_expect("server-hello-group", parsed && hello.group == group);
  fathom_kat_expect(expect_hrr ? "hello-retry-request" : "no-hello-retry-request",
                    parsed && hello.hello_retry == expect_hrr);
}

const char *tls_alert_name(int alert) {
  switch (alert) {
    case 40: return "handshake_failure";
    case 42: return "bad_certificate";
    case 43: return "unsupported_certificate";
    case 46: return "certificate_unknown";
    case 47: return "illegal_parameter";
    case 48: return "unknown_ca";
    case 50: return "decode_error";
    case 51: return "decrypt_error";
    case 70: return "protocol_version";
    case 80: return "internal_error";
    case 109: return "missing_extension";
    default: return "alert";
  }
}

void tls_report_failed_handshake(const char *what, int client_alert, int server_alert,
                                 int client_rc, int server_rc, int hex) {
  char name[96];
  if (client_alert >= 0)
    snprintf(name, sizeof name, "%s-client-alert-%d-%s", what, client_alert,
             tls_alert_name(client_alert));
  else if (server_alert >= 0)
    snprintf(name, sizeof name, "%s-server-alert-%d-%s", what, server_alert,
             tls_alert_name(server_alert));
  else if (hex)
    snprintf(name, sizeof name, "%s-failed-client-%s0x%04x-server-%s0x%04x", what,
             client_rc < 0 ? "-" : "", (unsigned)abs(client_rc), server_rc < 0 ? "-" : "",
             (unsigned)abs(server_rc));
  else
    snprintf(name, sizeof name, "%s-failed-client-%d-server-%d", what, client_rc, server_rc);
  fathom_kat_expect(name, 0);
}

void tls_fill_appdata(void) {
  for (size_t i = 0; i < sizeof tls_appdata_out; ++i)
    tls_appdata_out[i] = (uint8_t)(i * 7 + (i >> 8));
}

int tls_send_to_server(const tls_connection_io *io, size_t len) {
  size_t sent = 0, received = 0;
  for (int i = 0; i < 100000 && received < len; ++i) {
    int r;
    if (sent < len) {
      if ((r = io->client_write(tls_appdata_out + sent, len - sent)) < 0) return r;
      sent += (size_t)r;
    }
    if ((r = io->server_read(tls_appdata_in + received, len - received)) < 0) return r;
    received += (size_t)r;
  }
  return received != len;
}

/* `len` bytes from the client, echoed by the server, compared: 0 if intact, the library's error,
 * or 1 (stalled or different). */
static int echo(const tls_connection_io *io, size_t len) {
  size_t sent = 0, at_server = 0, echoed = 0, echo_len = 0, back = 0;
  for (int i = 0; i < 100000 && back < len; ++i) {
    int r;
    if (sent < len) {
      if ((r = io->client_write(tls_appdata_out + sent, len - sent)) < 0) return r;
      sent += (size_t)r;
    }
    if (at_server < len) {
      if ((r = io->server_read(tls_appdata_in + at_server, len - at_server)) < 0) return r;
      at_server += (size_t)r;
    }
    /* A write that had to wait is repeated with the same arguments, as the libraries ask. */
    if (echoed < at_server) {
      if (echo_len == 0) echo_len = at_server - echoed;
      if ((r = io->server_write(tls_appdata_in + echoed, echo_len)) < 0) return r;
      if (r > 0) {
        echoed += (size_t)r;
        echo_len = 0;
      }
    }
    /* The client reads what the server's echo has begun to send: a library that writes a whole
     * record before returning (wolfSSL) waits for the client to empty the queue. */
    if (back < echoed + echo_len) {
      uint8_t piece[512];
      const size_t ahead = echoed + echo_len - back;
      if ((r = io->client_read(piece, ahead < sizeof piece ? ahead : sizeof piece)) < 0) return r;
      if (memcmp(piece, tls_appdata_out + back, (size_t)r) != 0) return 1;
      back += (size_t)r;
    }
  }
  return back == len ? 0 : 1;
}

int tls_echo_kat(const tls_connection_io *io, int connected) {
  static const size_t sizes[] = {1, 13, 1000, 4097, TLS_APPDATA_MAX};
  tls_fill_appdata();
  int ok = connected;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    char vector[48];
    const int r = ok ? echo(io, sizes[i]) : 1;
    if (r < 0)
      snprintf(vector, sizeof vector, "appdata-echo-%u-error-%d", (unsigned)sizes[i], r);
    else
      snprintf(vector, sizeof vector, "appdata-echo-%u-odd-pieces", (unsigned)sizes[i]);
    ok = ok && r == 0;
    fathom_kat_expect(vector, ok);
  }
  return ok;
}
