/* The cycle counter of boards with `cycle_counter = "dwt"` in board.toml: the DWT CYCCNT
 * register (ARMv7-M ARM C1.8.8; ARMv8-M keeps it at the same address). The build includes this
 * file from fathom_board.h (FATHOM_CYCLE_COUNTER_HEADER), so the read is inline: one load per
 * probe. The board layer's fathom_cycles_enable() turns the counter on.
 *
 * The simulator models CYCCNT on every core it runs (docs/SIMULATOR.md). QEMU models no DWT:
 * on its MPS2 machines the load returns 0, and the QEMU target's TCG plugin records the
 * instructions retired at every load from this address instead (docs/BOARDS.md), so the same
 * probe gives QEMU's instruction counts. Keep the probe a plain load of 0xE0001004. */
#ifndef FATHOM_CYCLE_COUNTER_DWT_H
#define FATHOM_CYCLE_COUNTER_DWT_H

#include <stdint.h>

/* The current 32-bit cycle counter value. */
static inline uint32_t fathom_cycles_read(void) {
  return *(volatile uint32_t *)0xE0001004u; /* DWT_CYCCNT */
}

#endif /* FATHOM_CYCLE_COUNTER_DWT_H */
