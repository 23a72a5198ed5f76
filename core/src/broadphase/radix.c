/* The broadphases' one radix sort: LSD on 32-bit keys carrying a 32-bit payload, stable. Sweep
 * and prune's sort falls back on it (sap/sort.c), the cache's kept sweep and prune sorts its
 * moved boxes with it (cache/sap_order.c) and the uniform grid its cells' 64-bit keys, one
 * 32-bit half after the other (grid.c). */
#include "broadphase.h"

#include <string.h>

void col__radix_sort32(uint32_t *keys, uint32_t *order, size_t n, uint32_t *scratch) {
  /* Digits of 8 bits for short inputs (four passes over 256 counters cost less than three over
   * 2,048 there), 11 otherwise; the passes alternate between the arrays and the scratch, with
   * one copy back at the end when the last pass wrote the scratch. */
  if (n < 2) return;
  const unsigned bits = n < 4096 ? 8 : 11;
  const uint32_t mask = (1u << bits) - 1u;
  uint32_t *from_keys = keys, *from_order = order, *to_keys = scratch, *to_order = scratch + n;
  size_t count[2048];
  for (unsigned shift = 0; shift < 32; shift += bits) {
    memset(count, 0, (mask + 1u) * sizeof count[0]);
    for (size_t i = 0; i < n; i++) count[(from_keys[i] >> shift) & mask]++;
    if (count[(from_keys[0] >> shift) & mask] == n) continue; /* the same digit everywhere */
    size_t sum = 0;
    for (size_t d = 0; d <= mask; d++) {
      const size_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++) {
      const size_t at = count[(from_keys[i] >> shift) & mask]++;
      to_keys[at] = from_keys[i], to_order[at] = from_order[i];
    }
    uint32_t *t = from_keys;
    from_keys = to_keys, to_keys = t;
    t = from_order, from_order = to_order, to_order = t;
  }
  if (from_keys != keys) {
    memcpy(keys, from_keys, n * sizeof *keys);
    memcpy(order, from_order, n * sizeof *order);
  }
}
