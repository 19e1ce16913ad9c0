/* fathom record protocol, firmware side: builds one framed record line at a time and writes
 * it to the console (docs/PROTOCOL.md). Freestanding: no malloc, no printf, no libc calls.
 *
 *   fathom_rec_begin("SAMPLE");
 *   fathom_rec_str(op->name);
 *   fathom_rec_u32(run); fathom_rec_u32(t0); fathom_rec_u32(t1);
 *   fathom_rec_end();          ->  "@F 7 SAMPLE aes_128_ctr 0 1200 5230 #1a2b3c4d\n"
 *
 * Not reentrant: one record is built at a time (the harness is single-threaded). */
#ifndef FATHOM_PROTOCOL_H
#define FATHOM_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest record line in bytes, counting its final '\n'. */
#define FATHOM_REC_MAX_LINE 512

/* The protocol version HELLO announces (docs/PROTOCOL.md). 2: MEM carries the heap in use at
 * the start of the memory run, and ISOLATION says how operations were isolated. 3: RUNS
 * announces an operation's timed runs where the host asked for another count than HELLO's. */
#define FATHOM_PROTOCOL_VERSION 3

/* Writes `len` bytes to the console. Implemented by the board layer (fathom_board.h declares
 * the same function); the protocol writes each record with a single call. */
void fathom_console_write(const char *buf, size_t len);

/* Starts a record of type `type` (upper case, e.g. "KAT"), discarding any record begun but not
 * ended. */
void fathom_rec_begin(const char *type);

/* Appends a text field. A field must be printable ASCII without spaces or '#': any other byte
 * is replaced by '_', and an empty or NULL string is sent as "-", so a record is always
 * well-formed. */
void fathom_rec_str(const char *s);

/* Appends an unsigned decimal field. */
void fathom_rec_u32(uint32_t v);
void fathom_rec_u64(uint64_t v);

/* Finishes the record (" #<crc32>\n"), writes it with one fathom_console_write() call and
 * consumes one sequence number. A record that would exceed FATHOM_REC_MAX_LINE is not sent:
 * a free-text line says so instead, and its sequence number is still consumed, so the host sees
 * the gap and reports the loss. Does nothing without a preceding fathom_rec_begin(). */
void fathom_rec_end(void);

/* Sequence numbers consumed so far = the number of records emitted (or dropped as too long)
 * before the next one; this is the `records` field of END. */
uint32_t fathom_rec_count(void);

/* Starts a new stream: the next record gets sequence number 0. For host-side tests and for a
 * harness that restarts its output; the harness itself never needs it. */
void fathom_rec_reset(void);

#ifdef __cplusplus
}
#endif
#endif /* FATHOM_PROTOCOL_H */
