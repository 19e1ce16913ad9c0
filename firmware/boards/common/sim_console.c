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

void fathom_board_exit(int code) {
  CONSOLE_EXIT = (uint32_t)code;
  for (;;) {
  }
}
