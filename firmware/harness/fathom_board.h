/* What the harness needs from a board: the console, the cycle counter, and a way to stop.
 * Implemented once per board under firmware/boards/<name>/. */
#ifndef FATHOM_BOARD_H
#define FATHOM_BOARD_H

#include <stddef.h>
#include <stdint.h>

/* Writes `len` bytes to the board console (simulator console register or a UART). */
void fathom_console_write(const char *buf, size_t len);

/* Enables the cycle counter. On Cortex-M3/M4/M33 this is the DWT CYCCNT, enabled the standard
 * way: DEMCR.TRCENA, then reset CYCCNT, then DWT_CTRL.CYCCNTENA. */
void fathom_cycles_enable(void);

/* The current 32-bit cycle counter value. Inline-able so the probe costs one load. */
static inline uint32_t fathom_cycles_read(void) {
  return *(volatile uint32_t *)0xE0001004u; /* DWT_CYCCNT (ARMv7-M ARM, C1.8.8) */
}

/* Ends the program with `code` (0 = all KATs passed). Does not return. */
void fathom_board_exit(int code) __attribute__((noreturn));

#endif /* FATHOM_BOARD_H */
