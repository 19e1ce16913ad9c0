/* Startup for every Cortex-M board: the vector table, the reset handler (copy .data, zero .bss,
 * enable the FPU when the core has one, set up picolibc's thread-local storage when the image
 * links picolibc), and _sbrk with a bound so the heap never runs into the end of RAM. Addresses
 * come from the linker script (boards/common/cortex_m.ld). */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "fathom_board.h"

extern uint32_t __stack_top[];
extern uint32_t __data_load[], __data_start[], __data_end[];
extern uint32_t __bss_start[], __bss_end[];
extern uint8_t __heap_start[], __heap_end[];
#if defined(__PICOLIBC__)
extern uint8_t __tls_base[];
void _init_tls(void *tls);
void _set_tls(void *tls);
#endif

int main(void);
void Reset_Handler(void);
void Default_Handler(void);

__attribute__((noreturn)) void Reset_Handler(void) {
  uint32_t *src = __data_load, *dst = __data_start;
  while (dst < __data_end) *dst++ = *src++;
  for (dst = __bss_start; dst < __bss_end;) *dst++ = 0;
#if defined(__PICOLIBC__)
  /* picolibc keeps errno in thread-local storage: set up the one TLS block (cortex_m.ld) and
   * the thread pointer, as its crt0 does. Newlib has no TLS, so its images skip this. */
  _init_tls(__tls_base);
  _set_tls(__tls_base);
#endif
#if defined(__ARM_FP)
  /* CPACR: full access to CP10 and CP11 (ARMv7-M ARM B3.2.20), then synchronize. */
  *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
  __asm volatile("dsb\n\tisb" ::: "memory");
#endif
  fathom_board_exit(main());
}

#if defined(__PICOLIBC__)
/* picolibc's exit() ends in _exit(), which a hosted crt0 or libsemihost would provide (newlib
 * gets it from nosys.specs). Here an exit() (e.g. PQClean's on an allocation failure) ends the
 * program with its status, like main's return. */
void _exit(int status) __attribute__((noreturn));
void _exit(int status) { fathom_board_exit(status); }
#endif

/* Any exception the firmware does not expect ends the program with code 0xFF; the simulator
 * reports the exception itself before this runs. */
__attribute__((noreturn)) void Default_Handler(void) { fathom_board_exit(0xFF); }

/* Handlers an image may define to take the exception itself (the simulator delivers SVC,
 * docs/TIMING.md "Exceptions"); by default they are Default_Handler, hence noreturn here. An
 * image's own definition (which returns) lives in another file and does not see this one. */
__attribute__((noreturn)) void SVC_Handler(void) __attribute__((weak, alias("Default_Handler")));
__attribute__((noreturn)) void PendSV_Handler(void) __attribute__((weak, alias("Default_Handler")));

typedef void (*vector_t)(void);

/* The first 16 entries of the vector table: initial SP, reset, and the system exceptions. */
__attribute__((used, section(".vectors"))) const vector_t fathom_vectors[16] = {
    (vector_t)(uintptr_t)__stack_top,
    Reset_Handler,
    Default_Handler, /* NMI */
    Default_Handler, /* HardFault */
    Default_Handler, /* MemManage */
    Default_Handler, /* BusFault */
    Default_Handler, /* UsageFault */
    Default_Handler, /* SecureFault (ARMv8-M) */
    0, 0, 0,
    SVC_Handler,     /* SVCall */
    Default_Handler, /* DebugMonitor */
    0,
    PendSV_Handler,  /* PendSV */
    Default_Handler, /* SysTick */
};

/* newlib's allocator grows the heap through _sbrk; refuse to pass the end of RAM. (picolibc's
 * allocator calls its own sbrk, bounded by the same __heap_start and __heap_end.) */
void *_sbrk(ptrdiff_t increment) {
  static uint8_t *brk = __heap_start;
  if (increment > __heap_end - brk || increment < __heap_start - brk) {
    errno = ENOMEM;
    return (void *)-1;
  }
  uint8_t *old = brk;
  brk += increment;
  return old;
}
