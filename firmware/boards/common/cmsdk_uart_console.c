/* Board services for the QEMU MPS2 boards (docs/BOARDS.md): the console on an Arm CMSDK APB
 * UART, exit through Arm semihosting, the DWT cycle counter, and no isolation snapshot.
 * FATHOM_CONSOLE_ADDRESS is the UART's base, from board.toml through the build.
 *
 * The same image runs on QEMU (-semihosting-config enable=on,target=native) and on the
 * simulator, which models the UART's registers at console_address for `console = "cmsdk-uart"`
 * and serves the semihosting exit (src/sim/semihosting.cpp). Neither snapshots, so both run the
 * operations one after another in one pass and their instruction counts can be compared. */
#include <stddef.h>
#include <stdint.h>

#include "fathom_board.h"

#ifndef FATHOM_CONSOLE_ADDRESS
#error "FATHOM_CONSOLE_ADDRESS must be set from board.toml"
#endif

/* CMSDK APB UART registers (Arm Cortex-M System Design Kit TRM, DDI 0479, "APB UART"). */
#define UART_DATA (*(volatile uint32_t *)(FATHOM_CONSOLE_ADDRESS + 0x00u))
#define UART_STATE (*(volatile uint32_t *)(FATHOM_CONSOLE_ADDRESS + 0x04u))
#define UART_CTRL (*(volatile uint32_t *)(FATHOM_CONSOLE_ADDRESS + 0x08u))
#define UART_BAUDDIV (*(volatile uint32_t *)(FATHOM_CONSOLE_ADDRESS + 0x10u))
#define UART_STATE_TXFULL (1u << 0)
#define UART_CTRL_TX_ENABLE (1u << 0)
/* The smallest divider the UART accepts (it ignores BAUDDIV below 16). QEMU does not pace the
 * output by the baud rate; on an FPGA at 25 MHz this is 1.56 Mbaud. */
#define UART_BAUDDIV_MIN 16u

/* DWT (ARMv7-M ARM C1.6.5, C1.8.7). QEMU models neither register: the writes are ignored and
 * CYCCNT reads 0 there (the QEMU target counts instructions at each CYCCNT load instead, see
 * boards/common/cycle_counter_dwt.h); the simulator models both. */
#define DEMCR (*(volatile uint32_t *)0xE000EDFCu)
#define DWT_CTRL (*(volatile uint32_t *)0xE0001000u)
#define DWT_CYCCNT (*(volatile uint32_t *)0xE0001004u)
#define DEMCR_TRCENA (1u << 24)
#define DWT_CTRL_CYCCNTENA (1u << 0)

/* Arm semihosting (Semihosting for AArch32 and AArch64, version 2.0): SYS_EXIT_EXTENDED with a
 * parameter block {reason, exit code}; QEMU exits with that code, as does the simulator. */
#define SYS_EXIT_EXTENDED 0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static int uart_ready;

static void uart_init(void) {
  UART_BAUDDIV = UART_BAUDDIV_MIN;
  UART_CTRL = UART_CTRL_TX_ENABLE;
  uart_ready = 1;
}

void fathom_console_write(const char *buf, size_t len) {
  if (!uart_ready) uart_init();
  for (size_t i = 0; i < len; ++i) {
    while (UART_STATE & UART_STATE_TXFULL) {
    }
    UART_DATA = (uint8_t)buf[i];
  }
}

void fathom_cycles_enable(void) {
  DEMCR |= DEMCR_TRCENA;
  DWT_CYCCNT = 0;
  DWT_CTRL |= DWT_CTRL_CYCCNTENA;
}

/* QEMU cannot snapshot the machine, and the simulator must run these images the way QEMU does
 * so that the counts agree: no isolation point, one pass (docs/PROTOCOL.md "Isolation"). */
uint32_t fathom_board_isolation_point(void) { return FATHOM_ISOLATION_NONE; }

void fathom_board_isolation_restart(uint32_t slot) {
  (void)slot;
  for (;;) {
  }
}

const char *fathom_board_isolation_method(uint32_t point_result) {
  return point_result == FATHOM_ISOLATION_NONE ? "none" : "snapshot";
}

void fathom_board_exit(int code) {
  uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)code};
  register uint32_t r0 __asm("r0") = SYS_EXIT_EXTENDED;
  register uint32_t r1 __asm("r1") = (uint32_t)(uintptr_t)block;
  __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  for (;;) {
  }
}
