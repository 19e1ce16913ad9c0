/* fathom TLS workloads: the two in-memory byte queues that connect a client and a server in one
 * image (docs/TLS.md), independent of the TLS library. Each direction is a ring buffer; a
 * write takes what fits and a read what is there, as a non-blocking socket does, so each side's
 * record layer sees partial reads and writes. With a `chunk` limit, every read returns at most
 * that many bytes (records arrive split at arbitrary points, as over a real network). The pipe
 * counts the bytes of each direction and of each flight (a run of bytes written in one
 * direction before the other side writes), and keeps the first bytes of each direction for the
 * ServerHello check and the start of its last write for an alert (tls_hello.h). */
#ifndef FATHOM_TLS_PIPE_H
#define FATHOM_TLS_PIPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes a direction holds at once: a flight's records need not fit, the sides take turns. */
#define TLS_PIPE_QUEUE_BYTES 6144
/* Bytes of each direction kept from its start (the ServerHello is the server's first record). */
#define TLS_PIPE_CAPTURE_BYTES 256
#define TLS_PIPE_MAX_FLIGHTS 8
/* Bytes kept of each direction's last write: a whole plaintext alert record (7 bytes). */
#define TLS_PIPE_LAST_BYTES 16

enum { TLS_PIPE_CLIENT_TO_SERVER = 0, TLS_PIPE_SERVER_TO_CLIENT = 1 };

typedef struct tls_pipe_queue {
  uint8_t data[TLS_PIPE_QUEUE_BYTES];
  size_t head; /* index of the oldest byte */
  size_t used;
  uint32_t total; /* bytes ever written */
  uint8_t capture[TLS_PIPE_CAPTURE_BYTES];
  uint8_t last[TLS_PIPE_LAST_BYTES]; /* the first bytes of the last write (an alert record) */
  size_t last_len;
} tls_pipe_queue;

typedef struct tls_pipe {
  tls_pipe_queue q[2];
  size_t chunk; /* 0: a read returns as much as asked and available; else at most this */
  int last_direction; /* of the last write, -1 before the first */
  uint32_t flights;   /* flights counted so far (the last may still grow) */
  uint32_t flight_bytes[TLS_PIPE_MAX_FLIGHTS];
  int flight_direction[TLS_PIPE_MAX_FLIGHTS];
} tls_pipe;

/* Empties both directions and the counters; `chunk` as above. */
void tls_pipe_reset(tls_pipe *p, size_t chunk);

/* Appends up to `len` bytes to `direction`; returns how many fit (0 when the queue is full). */
size_t tls_pipe_write(tls_pipe *p, int direction, const uint8_t *buf, size_t len);

/* Takes up to `len` bytes (and at most `chunk`) from `direction`; returns how many (0 when it
 * is empty). */
size_t tls_pipe_read(tls_pipe *p, int direction, uint8_t *buf, size_t len);

/* Bytes waiting in `direction`. */
size_t tls_pipe_pending(const tls_pipe *p, int direction);

#ifdef __cplusplus
}
#endif
#endif /* FATHOM_TLS_PIPE_H */
