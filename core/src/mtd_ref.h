/* The minimum translation distance reference (DESIGN.md 4.2) as inline code, shared by
 * col_aabb2_mtd (mtd.c) and the reference backends (scalar.c, x86/autovec.c). After the
 * "Playing with platforms" seed's CalculateMinimumTranslationDistance: four side distances in
 * a fixed order, the first strict minimum wins. Two departures from the seed, both from
 * DESIGN.md: a NaN distance means "apart" (the seed's `< 0` test lets NaN through), and zeros
 * are +0.0. */
#ifndef COLLIDE_MTD_REF_H
#define COLLIDE_MTD_REF_H

#include "backend.h"

static inline col_mtd col__mtd_ref(col_aabb2 a, col_aabb2 b) {
  const col_mtd apart = {{0.0f, 0.0f}, false};
  const float dist[4] = {
      a.max.x - b.min.x, /* left  */
      b.max.x - a.min.x, /* right */
      a.max.y - b.min.y, /* down  */
      b.max.y - a.min.y, /* up    */
  };
  float m = dist[0];
  int best = 0;
  for (int k = 0; k < 4; k++) {
    /* `!(d >= 0)` is true for NaN as well as for negative d. */
    if (!(dist[k] >= 0.0f)) return apart;
    if (dist[k] < m) {
      m = dist[k];
      best = k;
    }
  }
  if (!(m > 0.0f)) return apart; /* touching: m is +0 or -0, reported as +0 */
  const float side = (best & 1) ? 1.0f : -1.0f;
  col_mtd r = {{0.0f, 0.0f}, true};
  if (best < 2)
    r.d.x = side * m;
  else
    r.d.y = side * m;
  return r;
}

static inline void col__mtd_batch_ref(size_t n, const col_aabb2 *a, const col_aabb2 *b,
                                      col_mtd *out) {
  for (size_t i = 0; i < n; i++) out[i] = col__mtd_ref(a[i], b[i]);
}

#endif
