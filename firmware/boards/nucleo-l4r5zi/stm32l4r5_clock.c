/* STM32L4R5ZI core clock: 20 MHz from the PLL fed by HSI16, zero flash wait states — pqm4's
 * benchmark clock for this part (pqm4 common/hal-opencm3.c, CLOCK_BENCHMARK: HSI16, PLLM 1,
 * PLLN 10, PLLR /8, FLASH_ACR latency 0, prefetch and the ART instruction and data caches on).
 * At 20 MHz in voltage range 1 (the reset range) the flash needs no wait state (RM0432, FLASH
 * chapter, table "Number of wait states according to CPU clock (HCLK) frequency").
 *
 * Registers from RM0432 (STM32L4+ reference manual): RCC at 0x4002 1000 (RCC registers),
 * FLASH at 0x4002 2000 (FLASH registers, FLASH_ACR). No vendor header is used: every address
 * is named here. */
#include <stdint.h>

#include "../common/silicon_board.h"

#define RCC_BASE 0x40021000u
#define RCC_CR (*(volatile uint32_t *)(RCC_BASE + 0x00u))
#define RCC_CFGR (*(volatile uint32_t *)(RCC_BASE + 0x08u))
#define RCC_PLLCFGR (*(volatile uint32_t *)(RCC_BASE + 0x0Cu))
#define RCC_CR_HSION (1u << 8)
#define RCC_CR_HSIRDY (1u << 10)
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_CFGR_SW_MASK (3u << 0)
#define RCC_CFGR_SW_PLL (3u << 0)
#define RCC_CFGR_SWS_MASK (3u << 2)
#define RCC_CFGR_SWS_PLL (3u << 2)
#define RCC_CFGR_HPRE_MASK (0xFu << 4)   /* 0: AHB = SYSCLK */
#define RCC_CFGR_PPRE1_MASK (7u << 8)    /* 0: APB1 = AHB */
#define RCC_CFGR_PPRE2_MASK (7u << 11)   /* 0: APB2 = AHB */
#define RCC_PLLCFGR_PLLSRC_HSI16 (2u << 0)
#define RCC_PLLCFGR_PLLM(m) (((uint32_t)(m)-1u) << 4)   /* PLLM field = M - 1 */
#define RCC_PLLCFGR_PLLN(n) ((uint32_t)(n) << 8)
#define RCC_PLLCFGR_PLLREN (1u << 24)
#define RCC_PLLCFGR_PLLR_DIV8 (3u << 25) /* 00: /2, 01: /4, 10: /6, 11: /8 */

#define FLASH_ACR (*(volatile uint32_t *)0x40022000u)
#define FLASH_ACR_LATENCY_MASK (0xFu << 0)
#define FLASH_ACR_PRFTEN (1u << 8)
#define FLASH_ACR_ICEN (1u << 9)
#define FLASH_ACR_DCEN (1u << 10)

void silicon_clock_init(void) {
  /* HSI16 on (the PLL's input; also the LPUART1 kernel clock, stm32l4r5_lpuart_console.c). */
  RCC_CR |= RCC_CR_HSION;
  while ((RCC_CR & RCC_CR_HSIRDY) == 0) {
  }
  /* Bus prescalers 1: AHB, APB1 and APB2 all at 20 MHz. */
  RCC_CFGR &= ~(RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK | RCC_CFGR_PPRE2_MASK);
  /* The PLL may only be configured while it is off. VCO input 16 MHz / M 1 = 16 MHz, VCO
   * 16 MHz * N 10 = 160 MHz, PLLCLK (R output) 160 MHz / 8 = 20 MHz. */
  RCC_CR &= ~RCC_CR_PLLON;
  while ((RCC_CR & RCC_CR_PLLRDY) != 0) {
  }
  RCC_PLLCFGR = RCC_PLLCFGR_PLLSRC_HSI16 | RCC_PLLCFGR_PLLM(1) | RCC_PLLCFGR_PLLN(10) |
                RCC_PLLCFGR_PLLREN | RCC_PLLCFGR_PLLR_DIV8;
  RCC_CR |= RCC_CR_PLLON;
  while ((RCC_CR & RCC_CR_PLLRDY) == 0) {
  }
  /* Zero wait states before the switch: the reset clock (MSI 4 MHz) runs at 0 WS as well, so
   * the latency is never too small for the clock in use. Prefetch and the ART caches as pqm4. */
  FLASH_ACR = (FLASH_ACR & ~FLASH_ACR_LATENCY_MASK) | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |
              FLASH_ACR_DCEN;
  while ((FLASH_ACR & FLASH_ACR_LATENCY_MASK) != 0) {
  }
  RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_MASK) | RCC_CFGR_SW_PLL;
  while ((RCC_CFGR & RCC_CFGR_SWS_MASK) != RCC_CFGR_SWS_PLL) {
  }
}
