/* Peak stack by painting, and heap accounting through the allocator. */
#ifndef FATHOM_MEMORY_H
#define FATHOM_MEMORY_H

#include <stdint.h>

/* Heap accounting, fed by the --wrap'ed malloc/calloc/realloc/free in fathom_heap.c. */
typedef struct {
  uint32_t in_use_bytes;   /* requested bytes currently allocated */
  uint32_t peak_bytes;     /* highest in_use_bytes since the last reset */
  uint32_t allocations;    /* successful allocation calls since the last reset */
  uint32_t start_bytes;    /* in_use_bytes at the last reset */
} fathom_heap_stats;

/* Resets the peak to the current use and the allocation count to zero, and remembers the
 * current use as start_bytes. */
void fathom_heap_reset_peak(void);
fathom_heap_stats fathom_heap_stats_get(void);

#endif /* FATHOM_MEMORY_H */
