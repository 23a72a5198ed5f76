/* The broadphase target's static rule: col_broadphase_pairs_static is col_broadphase_pairs less
 * the pairs of two static boxes, in the same order, for every algorithm and backend; its
 * parallel form is the sequential sweep and prune's static list. The cache's marks are checked
 * with the oracle in cache.c. */
#include "static.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

uint8_t *fb_marks(size_t n, uint64_t pick) {
  uint8_t *m = fz_alloc(n ? n : 1);
  const unsigned share = (unsigned)(pick >> 36 & 7); /* 0: half static; 7: seven in eight */
  for (size_t i = 0; i < n; i++) {
    uint64_t h = pick ^ (uint64_t)i * SPLITMIX64_GAMMA;
    h = splitmix64(&h);
    m[i] = (h & 7) <= share ? (uint8_t)(1 + (h >> 8) % 255) : 0;
  }
  return m;
}

void fb_drop_static(const col_pairs *want, const uint8_t *marks, col_pairs *out) {
  out->count = 0;
  for (size_t k = 0; k < want->count; k++)
    if (!(marks[want->data[k].a] && marks[want->data[k].b]) &&
        col_pairs_push(out, want->data[k].a, want->data[k].b) != COL_OK)
      abort();
}

static _Noreturn void differ(const char *what, const col_broadphase_info *info,
                             const col_boxes *boxes, const char *backend, size_t got, size_t want) {
  fprintf(stderr,
          "fuzz broadphase: %s on %s, %uD, %zu boxes: %s (%zu pairs, %zu expected: "
          "col_broadphase_pairs' list less its static pairs, in its order)\n",
          info->name, backend, boxes->dims, boxes->count, what, got, want);
  fz_fail();
}

void fb_static_check(const col_broadphase_info *info, const col_boxes *boxes, col_touch touch,
                     const col_pairs *list, const uint8_t *marks, bool parallel,
                     const char *backend) {
  col_pairs want = {0}, got = {0};
  fb_drop_static(list, marks, &want);
  col_broadphase_stats stats = {0, 0, 0, 0};
  if (col_broadphase_pairs_static(info->algorithm, boxes, marks, touch, &got, &stats) != COL_OK)
    differ("col_broadphase_pairs_static failed", info, boxes, backend, 0, want.count);
  if (!fb_same(&got, &want) || stats.pairs != got.count)
    differ("col_broadphase_pairs_static DIFFERS", info, boxes, backend, got.count, want.count);
  if (parallel && info->algorithm == COL_BROADPHASE_SAP) {
    static const col_parallel builtin_pool = {NULL, 0, false};
    if (col_broadphase_pairs_parallel_static(boxes, marks, touch, &builtin_pool, &got, NULL) !=
            COL_OK ||
        !fb_same(&got, &want))
      differ("col_broadphase_pairs_parallel_static DIFFERS", info, boxes, backend, got.count,
             want.count);
  }
  col_pairs_free(&want), col_pairs_free(&got);
}
