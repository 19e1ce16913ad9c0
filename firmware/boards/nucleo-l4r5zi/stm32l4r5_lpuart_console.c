/* The console of the NUCLEO-L4R5ZI: LPUART1 on PG7 (TX) and PG8 (RX), which the board wires to
 * the ST-LINK/V2-1's virtual COM port (UM2179, "Virtual COM port (VCP)"), 115200 baud, 8N1.
 * Port G is powered by VDDIO2, which must be declared valid with PWR_CR2.IOSV before its pins
 * work (RM0432, PWR chapter, "Independent I/O supply rail"). LPUART1's kernel clock is HSI16
 * (RCC_CCIPR.LPUART1SEL), so the baud rate does not depend on the core clock.
 *
 * Registers from RM0432: RCC 0x4002 1000, PWR 0x4000 7000, GPIOG 0x4800 1800 and
 * LPUART1 0x4000 8000 (memory map table; the RCC, PWR, GPIO and LPUART register chapters). */
#include <stddef.h>
#include <stdint.h>

#include "fathom_board.h"
#include "../common/silicon_board.h"

#define RCC_BASE 0x40021000u
#define RCC_AHB2ENR (*(volatile uint32_t *)(RCC_BASE + 0x4Cu))
#define RCC_APB1ENR1 (*(volatile uint32_t *)(RCC_BASE + 0x58u))
#define RCC_APB1ENR2 (*(volatile uint32_t *)(RCC_BASE + 0x5Cu))
#define RCC_CCIPR (*(volatile uint32_t *)(RCC_BASE + 0x88u))
#define RCC_AHB2ENR_GPIOGEN (1u << 6)
#define RCC_APB1ENR1_PWREN (1u << 28)
#define RCC_APB1ENR2_LPUART1EN (1u << 0)
#define RCC_CCIPR_LPUART1SEL_MASK (3u << 10)
#define RCC_CCIPR_LPUART1SEL_HSI16 (2u << 10)

#define PWR_CR2 (*(volatile uint32_t *)(0x40007000u + 0x04u))
#define PWR_CR2_IOSV (1u << 9)

#define GPIOG_BASE 0x48001800u
#define GPIOG_MODER (*(volatile uint32_t *)(GPIOG_BASE + 0x00u))
#define GPIOG_OSPEEDR (*(volatile uint32_t *)(GPIOG_BASE + 0x08u))
#define GPIOG_PUPDR (*(volatile uint32_t *)(GPIOG_BASE + 0x0Cu))
#define GPIOG_AFRL (*(volatile uint32_t *)(GPIOG_BASE + 0x20u))
#define GPIOG_AFRH (*(volatile uint32_t *)(GPIOG_BASE + 0x24u))
#define GPIO_MODE_AF 2u
#define GPIO_AF8_LPUART1 8u /* STM32L4R5 datasheet (DS12023), alternate function table */
#define GPIO_PULL_UP 1u

#define LPUART1_BASE 0x40008000u
#define LPUART1_CR1 (*(volatile uint32_t *)(LPUART1_BASE + 0x00u))
#define LPUART1_BRR (*(volatile uint32_t *)(LPUART1_BASE + 0x0Cu))
#define LPUART1_ISR (*(volatile uint32_t *)(LPUART1_BASE + 0x1Cu))
#define LPUART1_TDR (*(volatile uint32_t *)(LPUART1_BASE + 0x28u))
#define LPUART_CR1_UE (1u << 0)
#define LPUART_CR1_RE (1u << 2)
#define LPUART_CR1_TE (1u << 3)
#define LPUART_ISR_TC (1u << 6)
#define LPUART_ISR_TXE (1u << 7)

#define CONSOLE_KERNEL_HZ 16000000u /* HSI16 */
#define CONSOLE_BAUD 115200u        /* board.toml [serial] baud */

void silicon_console_init(void) {
  RCC_APB1ENR1 |= RCC_APB1ENR1_PWREN;
  (void)RCC_APB1ENR1; /* read back: the clock is on before PWR is written */
  PWR_CR2 |= PWR_CR2_IOSV;
  RCC_AHB2ENR |= RCC_AHB2ENR_GPIOGEN;
  RCC_APB1ENR2 |= RCC_APB1ENR2_LPUART1EN;
  (void)RCC_APB1ENR2;
  RCC_CCIPR = (RCC_CCIPR & ~RCC_CCIPR_LPUART1SEL_MASK) | RCC_CCIPR_LPUART1SEL_HSI16;

  /* PG7 = LPUART1_TX, PG8 = LPUART1_RX: alternate function 8, medium speed, RX pulled up. */
  GPIOG_AFRL = (GPIOG_AFRL & ~(0xFu << 28)) | (GPIO_AF8_LPUART1 << 28);
  GPIOG_AFRH = (GPIOG_AFRH & ~(0xFu << 0)) | (GPIO_AF8_LPUART1 << 0);
  GPIOG_OSPEEDR = (GPIOG_OSPEEDR & ~((3u << 14) | (3u << 16))) | (1u << 14) | (1u << 16);
  GPIOG_PUPDR = (GPIOG_PUPDR & ~(3u << 16)) | (GPIO_PULL_UP << 16);
  GPIOG_MODER = (GPIOG_MODER & ~((3u << 14) | (3u << 16))) | (GPIO_MODE_AF << 14) |
                (GPIO_MODE_AF << 16);

  /* LPUART: BRR = 256 * f_ck / baud (RM0432, LPUART "baud rate generation"): 35556 for
   * 16 MHz and 115200 (error below 0.01 %). 8 data bits, no parity and 1 stop bit are the
   * reset values of CR1 and CR2. */
  LPUART1_CR1 = 0;
  LPUART1_BRR = (uint32_t)(((uint64_t)CONSOLE_KERNEL_HZ * 256u + CONSOLE_BAUD / 2u) /
                           CONSOLE_BAUD);
  LPUART1_CR1 = LPUART_CR1_TE | LPUART_CR1_RE | LPUART_CR1_UE;
}

void fathom_console_write(const char *buf, size_t len) {
  silicon_board_init();
  for (size_t i = 0; i < len; ++i) {
    while ((LPUART1_ISR & LPUART_ISR_TXE) == 0) {
    }
    LPUART1_TDR = (uint8_t)buf[i];
  }
  /* Return once the last byte has left: the caller may stop the clock or loop for ever next. */
  while ((LPUART1_ISR & LPUART_ISR_TC) == 0) {
  }
}
