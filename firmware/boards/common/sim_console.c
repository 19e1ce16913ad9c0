/* Board services for simulated boards: the simulator's console and control registers
 * (docs/SIMULATOR.md) and the DWT cycle counter. FATHOM_CONSOLE_ADDRESS comes from the board's
 * board.toml through the build. */
#include <stddef.h>
#include <stdint.h>

#include "fathom_board.h"

#ifndef FATHOM_CONSOLE_ADDRESS
#error "FATHOM_CONSOLE_ADDRESS must be set from board.toml"
#endif

#define CONSOLE_TX (*(volatile uint32_t *)(FATHOM_CONSOLE_ADDRESS + 0x0u))
#define CONSOLE_EXIT (*(volatile uint32_t *)(FATHOM_CONSOLE_ADDRESS + 0x4u))

#define DEMCR (*(volatile uint32_t *)0xE000EDFCu)     /* ARMv7-M ARM C1.6.5 */
#define DWT_CTRL (*(volatile uint32_t *)0xE0001000u)  /* ARMv7-M ARM C1.8.7 */
#define DWT_CYCCNT (*(volatile uint32_t *)0xE0001004u)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL_CYCCNTENA (1u << 0)

void fathom_console_write(const char *buf, size_t len) {
  for (size_t i = 0; i < len; ++i) CONSOLE_TX = (uint8_t)buf[i];
}

void fathom_cycles_enable(void) {
  DEMCR |= DEMCR_TRCENA;
  DWT_CYCCNT = 0;
  DWT_CTRL |= DWT_CTRL_CYCCNTENA;
}

/* Isolation (docs/SIMULATOR.md "Isolation"): a BKPT with immediate 0xF5 is the simulator's
 * snapshot trap. r0 = 0: take the snapshot here (the trap returns 0 in r0); r0 = 1: restore it,
 * and the snapshot's trap returns r1 instead. Not semihosting (BKPT 0xAB) and never reached
 * on silicon, where a board layer without a debugger returns FATHOM_ISOLATION_NONE. */
static uint32_t isolation_trap(uint32_t command, uint32_t slot) {
  register uint32_t r0 __asm("r0") = command;
  register uint32_t r1 __asm("r1") = slot;
  __asm volatile("bkpt 0xF5" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

uint32_t fathom_board_isolation_point(void) { return isolation_trap(0, 0); }

void fathom_board_isolation_restart(uint32_t slot) {
  (void)isolation_trap(1, slot);
  for (;;) {
  }
}

const char *fathom_board_isolation_method(uint32_t point_result) {
  return point_result == FATHOM_ISOLATION_NONE ? "none" : "snapshot";
}

void fathom_board_exit(int code) {
  CONSOLE_EXIT = (uint32_t)code;
  for (;;) {
  }
}
