/* What the harness needs from a board: the console, the cycle counter, the isolation point and
 * a way to stop. Implemented by each board's board layer: the `sources` of its board.toml
 * (firmware/boards/<name>/, shared files under firmware/boards/common/) and the header of its
 * `cycle_counter`. docs/BOARDS.md lists the boards. */
#ifndef FATHOM_BOARD_H
#define FATHOM_BOARD_H

#include <stddef.h>
#include <stdint.h>

/* Writes `len` bytes to the board console (simulator console register or a UART). */
void fathom_console_write(const char *buf, size_t len);

/* The cycle counter belongs to the board layer. board.toml's `cycle_counter` names it ("dwt":
 * the DWT CYCCNT), and the build passes its header, boards/common/cycle_counter_<name>.h, as
 * FATHOM_CYCLE_COUNTER_HEADER. That header defines
 *     static inline uint32_t fathom_cycles_read(void);
 * the current 32-bit counter value, inline so that a probe costs as little as the counter
 * allows (one load for the DWT). The harness takes the difference of two reads modulo 2^32.
 * Code that needs no counter (the host build of fathom_protocol.c) is compiled without it. */
#if defined(FATHOM_CYCLE_COUNTER_HEADER)
#include FATHOM_CYCLE_COUNTER_HEADER
#endif

/* Enables the cycle counter (board layer sources). For the DWT: DEMCR.TRCENA, then reset
 * CYCCNT, then DWT_CTRL.CYCCNTENA, the standard way. */
void fathom_cycles_enable(void);

/* Isolation of operations (docs/PROTOCOL.md "Isolation"): every operation starts from the same
 * machine state.
 *
 * fathom_board_isolation_point() marks that state and returns the slot to run from it: 0 the
 * first time. On a simulated board it makes the simulator snapshot the whole machine (RAM,
 * registers, system control, timing-model state) at this call; fathom_board_isolation_restart
 * (slot) then restores that snapshot, and the call to fathom_board_isolation_point() returns
 * again, with `slot`. Only RAM in the FATHOM_PERSIST section (below) survives a restore. A board
 * that cannot snapshot returns FATHOM_ISOLATION_NONE and never restarts: the harness then runs
 * the operations one after another in one pass (reported as such in the ISOLATION record). */
#define FATHOM_ISOLATION_NONE 0xFFFFFFFFu
uint32_t fathom_board_isolation_point(void);
/* Restores the isolation point's state, which then returns `slot`. Does not return. */
void fathom_board_isolation_restart(uint32_t slot) __attribute__((noreturn));
/* The isolation method as the ISOLATION record names it ("snapshot" or "none"). */
const char *fathom_board_isolation_method(uint32_t point_result);

/* Harness state that must outlive a restore (record sequence, KAT outcomes, failure count):
 * zeroed at boot with .bss, never restored by the simulator (boards/common/cortex_m.ld). */
#define FATHOM_PERSIST __attribute__((section(".bss.fathom_persist")))

/* Ends the program with `code` (0 = all KATs passed). Does not return. */
void fathom_board_exit(int code) __attribute__((noreturn));

#endif /* FATHOM_BOARD_H */
