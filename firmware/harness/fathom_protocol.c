/* fathom record protocol, firmware side (docs/PROTOCOL.md). The CRC is computed while the line
 * is built, over every byte from '@' up to and including the space before '#'. */
#include "fathom_protocol.h"

#include "fathom_board.h"

/* Room for "#xxxxxxxx\n" is kept free while the body (up to and including the space before
 * '#') is built. */
#define TRAILER_BYTES 10u
#define BODY_MAX (FATHOM_REC_MAX_LINE - TRAILER_BYTES)

static char line[FATHOM_REC_MAX_LINE];
static size_t line_len;
static uint32_t crc_state; /* running CRC register (pre-inverted, not yet xor-ed out) */
/* Survives an isolation restore, so the sequence runs on across operations (fathom_board.h). */
FATHOM_PERSIST static uint32_t next_seq;
static int building;   /* between fathom_rec_begin() and fathom_rec_end() */
static int overflowed; /* the current record did not fit */
static char overflow_type[16];

/* CRC-32/ISO-HDLC, reflected polynomial 0xEDB88320, four bits at a time: a 64-byte table
 * instead of 1 KiB of flash; printing is never timed, so speed does not matter here. */
static const uint32_t crc_nibble[16] = {0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
                                        0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
                                        0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
                                        0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

static void put(char c) {
  if (line_len >= BODY_MAX) {
    overflowed = 1;
    return;
  }
  line[line_len++] = c;
  crc_state ^= (uint8_t)c;
  crc_state = (crc_state >> 4) ^ crc_nibble[crc_state & 0xFu];
  crc_state = (crc_state >> 4) ^ crc_nibble[crc_state & 0xFu];
}

static int field_char_ok(char c) { return c >= '!' && c <= '~' && c != '#'; }

static void put_token(const char *s) {
  if (s == NULL || *s == '\0') {
    put('-');
    return;
  }
  for (; *s != '\0'; ++s) put(field_char_ok(*s) ? *s : '_');
}

static void put_u64(uint64_t v) {
  char digits[20];
  size_t n = 0;
  /* 32-bit division where it suffices: cheaper than the libgcc 64-bit helper. */
  while (v > 0xFFFFFFFFu) {
    digits[n++] = (char)('0' + (unsigned)(v % 10u));
    v /= 10u;
  }
  uint32_t v32 = (uint32_t)v;
  do {
    digits[n++] = (char)('0' + v32 % 10u);
    v32 /= 10u;
  } while (v32 != 0);
  while (n > 0) put(digits[--n]);
}

void fathom_rec_begin(const char *type) {
  line_len = 0;
  crc_state = 0xFFFFFFFFu;
  overflowed = 0;
  building = 1;
  size_t i = 0;
  for (; type != NULL && type[i] != '\0' && i + 1 < sizeof overflow_type; ++i)
    overflow_type[i] = field_char_ok(type[i]) ? type[i] : '_';
  overflow_type[i] = '\0';
  put('@');
  put('F');
  put(' ');
  put_u64(next_seq);
  put(' ');
  put_token(type);
}

void fathom_rec_str(const char *s) {
  if (!building) return;
  put(' ');
  put_token(s);
}

void fathom_rec_u32(uint32_t v) {
  if (!building) return;
  put(' ');
  put_u64(v);
}

void fathom_rec_u64(uint64_t v) {
  if (!building) return;
  put(' ');
  put_u64(v);
}

/* Appends `s` to the line buffer without the CRC or the length limit (free text only). */
static void append_text(const char *s) {
  while (*s != '\0' && line_len < FATHOM_REC_MAX_LINE) line[line_len++] = *s++;
}

void fathom_rec_end(void) {
  static const char hex[] = "0123456789abcdef";
  if (!building) return;
  building = 0;
  put(' '); /* the last covered byte; it too must fit */
  if (overflowed) {
    /* A free-text line (it does not start with "@F "); the sequence gap it leaves is what makes
     * the host report the loss. Built in the same buffer: no stack-hungry formatting. */
    line_len = 0;
    overflowed = 0;
    append_text("fathom: record ");
    char digits[11];
    size_t n = sizeof digits - 1;
    digits[n] = '\0';
    uint32_t v = next_seq;
    do {
      digits[--n] = (char)('0' + v % 10u);
      v /= 10u;
    } while (v != 0);
    append_text(&digits[n]);
    append_text(" ");
    append_text(overflow_type);
    append_text(" is longer than 512 bytes; dropped\n");
    fathom_console_write(line, line_len);
    next_seq++;
    return;
  }
  const uint32_t crc = ~crc_state;
  /* The trailer is not part of the CRC, and BODY_MAX left room for it. */
  line[line_len++] = '#';
  for (int shift = 28; shift >= 0; shift -= 4) line[line_len++] = hex[(crc >> shift) & 0xFu];
  line[line_len++] = '\n';
  fathom_console_write(line, line_len);
  next_seq++;
}

uint32_t fathom_rec_count(void) { return next_seq; }

void fathom_rec_reset(void) {
  next_seq = 0;
  building = 0;
  overflowed = 0;
  line_len = 0;
}
