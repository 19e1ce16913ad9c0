/* The console of the nRF54L15 DK: UARTE20 on P1.04 (TXD) and P1.05 (RXD), the pins the DK
 * routes to its interface MCU's (J-Link OB) virtual COM port — the ones the nRF Connect SDK's
 * nrf54l15dk/nrf54l15/cpuapp devicetree gives its console, uart20. 115200 baud, 8N1, no flow
 * control. The nRF54L UARTE sends only by EasyDMA, from RAM: each write is copied into a RAM
 * buffer and sent with DMA.TX.START, waiting for EVENTS_DMA.TX.END.
 *
 * Registers from the nRF54L15 Product Specification: UARTE20 at 0x500C 6000 and GPIO port P1 at
 * 0x500D 8200 (secure addresses, "Instantiation" table), the UARTE register table (TASKS_DMA,
 * EVENTS_DMA, ENABLE, BAUDRATE, CONFIG, PSEL, DMA.TX) and the GPIO one (OUTSET, DIRSET, DIRCLR,
 * PIN_CNF). No vendor header is used: every address is named here. */
#include <stddef.h>
#include <stdint.h>

#include "fathom_board.h"
#include "../common/silicon_board.h"

#define UARTE20_BASE 0x500C6000u
#define UARTE_REG(offset) (*(volatile uint32_t *)(UARTE20_BASE + (offset)))
#define UARTE_TASKS_DMA_TX_START UARTE_REG(0x050u)
#define UARTE_EVENTS_DMA_TX_END UARTE_REG(0x168u)
#define UARTE_ENABLE UARTE_REG(0x500u)
#define UARTE_BAUDRATE UARTE_REG(0x524u)
#define UARTE_CONFIG UARTE_REG(0x56Cu)
#define UARTE_PSEL_TXD UARTE_REG(0x604u)
#define UARTE_PSEL_CTS UARTE_REG(0x608u)
#define UARTE_PSEL_RXD UARTE_REG(0x60Cu)
#define UARTE_PSEL_RTS UARTE_REG(0x610u)
#define UARTE_DMA_TX_PTR UARTE_REG(0x73Cu)
#define UARTE_DMA_TX_MAXCNT UARTE_REG(0x740u)
#define UARTE_ENABLE_ENABLED 8u
#define UARTE_BAUDRATE_115200 0x01D60000u /* UARTE20 runs from the 16 MHz peripheral clock */
#define UARTE_CONFIG_8N1 0u
#define PSEL_DISCONNECTED 0xFFFFFFFFu
#define PSEL(port, pin) (((uint32_t)(port) << 5) | (uint32_t)(pin)) /* CONNECT (bit 31) = 0 */

#define GPIO_P1_BASE 0x500D8200u
#define GPIO_P1_OUTSET (*(volatile uint32_t *)(GPIO_P1_BASE + 0x004u))
#define GPIO_P1_DIRSET (*(volatile uint32_t *)(GPIO_P1_BASE + 0x014u))
#define GPIO_P1_DIRCLR (*(volatile uint32_t *)(GPIO_P1_BASE + 0x018u))
#define GPIO_P1_PIN_CNF(pin) (*(volatile uint32_t *)(GPIO_P1_BASE + 0x080u + 4u * (pin)))
#define PIN_CNF_INPUT_CONNECT 0u /* INPUT (bit 1) = 0: input buffer connected */
#define PIN_CNF_OUTPUT 1u        /* DIR (bit 0) = 1 */

#define TX_PIN 4u /* P1.04 */
#define RX_PIN 5u /* P1.05 */

/* A record line is at most 512 bytes (docs/PROTOCOL.md); longer writes go in pieces. */
static uint8_t tx_buffer[128];

void silicon_console_init(void) {
  /* TXD drives high while idle even before the UARTE takes the pin; RXD is an input. */
  GPIO_P1_OUTSET = 1u << TX_PIN;
  GPIO_P1_PIN_CNF(TX_PIN) = PIN_CNF_OUTPUT;
  GPIO_P1_DIRSET = 1u << TX_PIN;
  GPIO_P1_PIN_CNF(RX_PIN) = PIN_CNF_INPUT_CONNECT;
  GPIO_P1_DIRCLR = 1u << RX_PIN;

  UARTE_PSEL_TXD = PSEL(1, TX_PIN);
  UARTE_PSEL_RXD = PSEL(1, RX_PIN);
  UARTE_PSEL_CTS = PSEL_DISCONNECTED;
  UARTE_PSEL_RTS = PSEL_DISCONNECTED;
  UARTE_BAUDRATE = UARTE_BAUDRATE_115200;
  UARTE_CONFIG = UARTE_CONFIG_8N1;
  UARTE_ENABLE = UARTE_ENABLE_ENABLED;
}

void fathom_console_write(const char *buf, size_t len) {
  silicon_board_init();
  while (len > 0) {
    const size_t chunk = len < sizeof tx_buffer ? len : sizeof tx_buffer;
    for (size_t i = 0; i < chunk; ++i) tx_buffer[i] = (uint8_t)buf[i];
    UARTE_DMA_TX_PTR = (uint32_t)(uintptr_t)tx_buffer;
    UARTE_DMA_TX_MAXCNT = (uint32_t)chunk;
    UARTE_EVENTS_DMA_TX_END = 0;
    __asm volatile("dsb" ::: "memory"); /* the buffer is in RAM before the DMA reads it */
    UARTE_TASKS_DMA_TX_START = 1;
    while (UARTE_EVENTS_DMA_TX_END == 0) {
    }
    buf += chunk;
    len -= chunk;
  }
}
