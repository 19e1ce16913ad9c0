/* fathom TLS workloads: in-memory byte queues between a client and a server (tls_pipe.h). */
#include "tls_pipe.h"

#include <string.h>

void tls_pipe_reset(tls_pipe *p, size_t chunk) {
  memset(p, 0, sizeof *p);
  p->chunk = chunk;
  p->last_direction = -1;
}

size_t tls_pipe_write(tls_pipe *p, int direction, const uint8_t *buf, size_t len) {
  tls_pipe_queue *q = &p->q[direction];
  const size_t room = TLS_PIPE_QUEUE_BYTES - q->used;
  const size_t n = len < room ? len : room;
  if (n == 0) return 0;
  if (q->total < TLS_PIPE_CAPTURE_BYTES) {
    const size_t keep = TLS_PIPE_CAPTURE_BYTES - q->total;
    memcpy(q->capture + q->total, buf, n < keep ? n : keep);
  }
  q->last_len = n < TLS_PIPE_LAST_BYTES ? n : TLS_PIPE_LAST_BYTES;
  memcpy(q->last, buf, q->last_len);
  /* memcpy in at most two pieces: the copy is the transport, not the library, and should cost
   * little beside the record layer's per-byte work. */
  const size_t tail = (q->head + q->used) % TLS_PIPE_QUEUE_BYTES;
  const size_t first = n < TLS_PIPE_QUEUE_BYTES - tail ? n : TLS_PIPE_QUEUE_BYTES - tail;
  memcpy(q->data + tail, buf, first);
  memcpy(q->data, buf + first, n - first);
  q->used += n;
  q->total += (uint32_t)n;
  if (direction != p->last_direction) {
    if (p->flights < TLS_PIPE_MAX_FLIGHTS) p->flight_direction[p->flights] = direction;
    p->flights++;
    p->last_direction = direction;
  }
  if (p->flights <= TLS_PIPE_MAX_FLIGHTS) p->flight_bytes[p->flights - 1] += (uint32_t)n;
  return n;
}

size_t tls_pipe_read(tls_pipe *p, int direction, uint8_t *buf, size_t len) {
  tls_pipe_queue *q = &p->q[direction];
  size_t n = len < q->used ? len : q->used;
  if (p->chunk != 0 && n > p->chunk) n = p->chunk;
  const size_t first = n < TLS_PIPE_QUEUE_BYTES - q->head ? n : TLS_PIPE_QUEUE_BYTES - q->head;
  memcpy(buf, q->data + q->head, first);
  memcpy(buf + first, q->data, n - first);
  q->head = (q->head + n) % TLS_PIPE_QUEUE_BYTES;
  q->used -= n;
  return n;
}

size_t tls_pipe_pending(const tls_pipe *p, int direction) { return p->q[direction].used; }
