/* What a silicon board's own files provide to the services shared by every silicon board
 * (silicon_board.c): bringing up the core clock and the console UART. Each is called once, the
 * clock first, from silicon_board_init(). */
#ifndef FATHOM_SILICON_BOARD_H
#define FATHOM_SILICON_BOARD_H

/* Sets the core clock to the board.toml clock_hz (and the flash wait states that clock needs). */
void silicon_clock_init(void);

/* Configures the console UART's pins, clock and baud rate; fathom_console_write() then sends. */
void silicon_console_init(void);

/* Runs silicon_clock_init() then silicon_console_init(), once; later calls do nothing. Called
 * by fathom_cycles_enable() (the harness's first board call) and by the console before its
 * first byte, so neither depends on the harness's order of calls. */
void silicon_board_init(void);

#endif /* FATHOM_SILICON_BOARD_H */
