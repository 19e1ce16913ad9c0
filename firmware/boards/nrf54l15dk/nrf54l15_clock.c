/* nRF54L15 application core clock: 128 MHz. After reset the CPU runs at 64 MHz (HFCLK 128 MHz
 * divided by 2); OSCILLATORS.PLL.FREQ selects the division (nRF54L15 Product Specification,
 * OSCILLATORS chapter, register PLL.FREQ: CK128M = 1, CK64M = 3; PLL.CURRENTFREQ reads back
 * the frequency in use). The nRF MDK's SystemInit does the same when NRF_CONFIG_CPU_FREQ_MHZ is
 * 128.
 *
 * Before that, the trims: like the MDK's SystemInit, copy the factory trim values listed in
 * FICR.TRIMCNF[] (address/value pairs, FICR chapter) to their registers; the oscillators and
 * regulators run untrimmed without them. Then start the 32 MHz crystal oscillator (HFXO; the
 * DK has the crystal), so the UART's baud rate and the CPU clock are crystal-accurate (CLOCK
 * chapter: TASKS_XOSTART, EVENTS_XOSTARTED).
 *
 * Secure addresses: the core leaves reset in the secure state, and without TF-M or an SPU
 * configuration every peripheral is secure. FICR 0x00FF C000, CLOCK 0x5010 E000, OSCILLATORS
 * 0x5012 0000 (Product Specification, "Memory map" and "Instantiation" tables). No vendor
 * header is used: every address is named here. Waits are bounded, so a register that does not
 * answer as written here leaves the board slow, never hung (docs/BOARDS.md checklist). */
#include <stdint.h>

#include "../common/silicon_board.h"

#define FICR_BASE 0x00FFC000u
#define FICR_TRIMCNF_ADDR(n) (*(const volatile uint32_t *)(FICR_BASE + 0x400u + 8u * (n)))
#define FICR_TRIMCNF_DATA(n) (*(const volatile uint32_t *)(FICR_BASE + 0x404u + 8u * (n)))
#define FICR_TRIMCNF_COUNT 64u

#define CLOCK_BASE 0x5010E000u
#define CLOCK_TASKS_XOSTART (*(volatile uint32_t *)(CLOCK_BASE + 0x000u))
#define CLOCK_EVENTS_XOSTARTED (*(volatile uint32_t *)(CLOCK_BASE + 0x100u))

#define OSCILLATORS_BASE 0x50120000u
#define OSCILLATORS_PLL_FREQ (*(volatile uint32_t *)(OSCILLATORS_BASE + 0x800u))
#define OSCILLATORS_PLL_CURRENTFREQ (*(volatile uint32_t *)(OSCILLATORS_BASE + 0x804u))
#define PLL_FREQ_CK128M 1u

/* Longest wait for an oscillator, in polls: the HFXO starts in well under 1 ms; at 64 MHz a
 * poll takes a few cycles, so this is tens of milliseconds. */
#define WAIT_POLLS 2000000u

/* Trim targets are peripheral registers; an entry outside the peripheral space is not a trim
 * (an erased or misread table) and ends the copy. */
static int is_peripheral_address(uint32_t address) {
  return address >= 0x40000000u && address < 0x60000000u && (address & 3u) == 0;
}

void silicon_clock_init(void) {
  for (uint32_t n = 0; n < FICR_TRIMCNF_COUNT; ++n) {
    const uint32_t address = FICR_TRIMCNF_ADDR(n);
    if (!is_peripheral_address(address)) break;
    *(volatile uint32_t *)address = FICR_TRIMCNF_DATA(n);
  }

  CLOCK_EVENTS_XOSTARTED = 0;
  CLOCK_TASKS_XOSTART = 1;
  for (uint32_t i = 0; i < WAIT_POLLS && CLOCK_EVENTS_XOSTARTED == 0; ++i) {
  }

  OSCILLATORS_PLL_FREQ = PLL_FREQ_CK128M;
  for (uint32_t i = 0; i < WAIT_POLLS && OSCILLATORS_PLL_CURRENTFREQ != PLL_FREQ_CK128M; ++i) {
  }
}
