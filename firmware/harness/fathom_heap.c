/* Heap accounting: every allocation in the image goes through these wrappers because the build
 * links with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free. Each block carries an
 * 8-byte header with its requested size, so frees are accounted exactly. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fathom_memory.h"

void *__real_malloc(size_t size);
void __real_free(void *ptr);

typedef union {
  size_t size;
  uint64_t align; /* keep the payload 8-byte aligned */
} block_header;

static fathom_heap_stats stats;

void fathom_heap_reset_peak(void) {
  stats.peak_bytes = stats.in_use_bytes;
  stats.start_bytes = stats.in_use_bytes;
  stats.allocations = 0;
}

fathom_heap_stats fathom_heap_stats_get(void) { return stats; }

/* noinline: calloc and realloc call these two as real calls even at -O3, so the simulator's
 * memory watch, which follows allocations at the wrappers' entry and exit, sees every block
 * that realloc frees (inlined, the free inside realloc was invisible to it and the simulator
 * over-counted the heap peak). */
__attribute__((noinline)) void *__wrap_malloc(size_t size) {
  if (size > SIZE_MAX - sizeof(block_header)) return NULL;
  block_header *h = __real_malloc(sizeof(block_header) + size);
  if (h == NULL) return NULL;
  h->size = size;
  stats.in_use_bytes += size;
  if (stats.in_use_bytes > stats.peak_bytes) stats.peak_bytes = stats.in_use_bytes;
  stats.allocations++;
  return h + 1;
}

__attribute__((noinline)) void __wrap_free(void *ptr) {
  if (ptr == NULL) return;
  block_header *h = (block_header *)ptr - 1;
  stats.in_use_bytes -= h->size;
  __real_free(h);
}

void *__wrap_calloc(size_t n, size_t size) {
  if (size != 0 && n > SIZE_MAX / size) return NULL;
  void *p = __wrap_malloc(n * size);
  if (p != NULL) memset(p, 0, n * size);
  return p;
}

void *__wrap_realloc(void *ptr, size_t size) {
  if (ptr == NULL) return __wrap_malloc(size);
  if (size == 0) {
    __wrap_free(ptr);
    return NULL;
  }
  block_header *old = (block_header *)ptr - 1;
  void *p = __wrap_malloc(size);
  if (p == NULL) return NULL;
  memcpy(p, ptr, old->size < size ? old->size : size);
  __wrap_free(ptr);
  return p;
}
