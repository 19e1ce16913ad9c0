/* Board services shared by the silicon boards (nrf54l15dk, nucleo-l4r5zi): the DWT cycle
 * counter, no isolation (a board without a debugger cannot snapshot itself), and an exit that
 * just stops: the host stops reading at the END record, so nothing more is printed.
 * The board's own files bring up its clock and console (silicon_board.h). */
#include <stddef.h>
#include <stdint.h>

#include "fathom_board.h"
#include "silicon_board.h"

/* Debug registers of ARMv7-M (Cortex-M4) and ARMv8-M Mainline (Cortex-M33), same addresses:
 * DEMCR (ARMv7-M ARM C1.6.5, ARMv8-M ARM D1.2.37), DWT_CTRL and DWT_CYCCNT (ARMv7-M ARM
 * C1.8.7/C1.8.8). fathom_board.h reads DWT_CYCCNT itself. */
#define DEMCR (*(volatile uint32_t *)0xE000EDFCu)
#define DWT_CTRL (*(volatile uint32_t *)0xE0001000u)
#define DWT_CYCCNT (*(volatile uint32_t *)0xE0001004u)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL_CYCCNTENA (1u << 0)

void silicon_board_init(void) {
  static int initialized;
  if (initialized) return;
  initialized = 1;
  silicon_clock_init();
  silicon_console_init();
}

void fathom_cycles_enable(void) {
  silicon_board_init();
  DEMCR |= DEMCR_TRCENA;
  DWT_CYCCNT = 0;
  DWT_CTRL |= DWT_CTRL_CYCCNTENA;
}

/* No snapshot on silicon: the harness runs the operations one after another in one pass and
 * says so in the ISOLATION record ("none"). */
uint32_t fathom_board_isolation_point(void) { return FATHOM_ISOLATION_NONE; }

void fathom_board_isolation_restart(uint32_t slot) {
  (void)slot; /* never called: the isolation point returned FATHOM_ISOLATION_NONE */
  for (;;) {
  }
}

const char *fathom_board_isolation_method(uint32_t point_result) {
  return point_result == FATHOM_ISOLATION_NONE ? "none" : "snapshot";
}

/* The console writes block until their last byte is in the UART, so END is on its way; the
 * exit code is in END already (kat_failures). Loop rather than BKPT: without a debugger a BKPT
 * escalates to HardFault, which would land here again. */
void fathom_board_exit(int code) {
  (void)code;
  for (;;) {
  }
}
