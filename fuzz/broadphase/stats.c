/* The broadphase target's checks of what a run says about its own work (stats.h). */
#include "stats.h"

#include <math.h>

/* The path sweep and prune took, by broadphase.h's rules for stats.cells: NULL when the value
 * is one the rules allow, else what is wrong. (A flipped flag that sends finite boxes to the
 * slow path, or bad ones to the grid, gives the same pairs: only this sees it.) */
FZ_ORACLE static const char *sap_path_wrong(const col_boxes *b, uint64_t cells) {
  if (b->count < 2) return cells == 0 ? NULL : "stats.cells is not 0 for fewer than 2 boxes";
  if (cells == 0) return "stats.cells is 0 (sweep and prune sweeps at least one cell)";
  size_t pairable = 0;
  bool bad = false, finite = true, spread = true;
  double size[3] = {0, 0, 0};
  float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = 0; i < b->count; i++) {
    bool nan = false;
    for (unsigned k = 0; k < b->dims; k++) {
      const float l = b->min[k][i], h = b->max[k][i], d = h - l;
      nan |= l != l || h != h;
      finite &= isfinite(l) && isfinite(h);
      if (k > 0) bad |= l > h || l == -INFINITY || h == INFINITY;
      if (d == d) size[k] += d;
      lo[k] = l < lo[k] ? l : lo[k], hi[k] = h > hi[k] ? h : hi[k];
    }
    pairable += !nan;
  }
  for (unsigned k = 1; k < b->dims; k++) spread &= size[k] > 0 && hi[k] > lo[k];
  if ((pairable < 256 || bad || !spread) && cells != 1)
    return pairable < 256 ? "swept in cells with fewer than 256 boxes that can pair"
           : bad          ? "swept in cells with a box inverted or unbounded on y or z"
                          : "swept in cells with every box flat on y or z, or one range";
  const double mean = size[1] / (double)b->count;
  if (b->dims == 2 && finite && !bad && b->count >= 300 && mean > 0 &&
      (double)hi[1] - lo[1] >= 3.01 * mean && cells < 2)
    return "swept whole although every box is finite and upright and the y range holds cells";
  return NULL;
}

/* broadphase.h's bound on the quadtree's tests: fewer than M(M-1)/2 when M > 8 boxes without
 * NaN and two of them lie in different child cells of the root (strictly off every centre line
 * of the finite bounds, with a margin for the centre's float rounding, which moves it by an ulp
 * or two of its own size when the bounds are a few ulps wide). A quadtree that keeps every
 * box at its root gives the same pairs at brute force's cost: only this sees it. */
FZ_ORACLE static bool quadtree_too_many_tests(const col_boxes *b, uint64_t tests) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  size_t m = 0;
  for (size_t i = 0; i < b->count; i++) {
    bool nan = false;
    for (unsigned k = 0; k < b->dims; k++)
      nan |= b->min[k][i] != b->min[k][i] || b->max[k][i] != b->max[k][i];
    if (nan) continue;
    m++;
    for (unsigned k = 0; k < b->dims; k++) {
      const double l = fmin(b->min[k][i], b->max[k][i]), h = fmax(b->min[k][i], b->max[k][i]);
      if (isfinite(l)) lo[k] = fmin(lo[k], l);
      if (isfinite(h)) hi[k] = fmax(hi[k], h);
    }
  }
  if (m <= 8 || tests < (uint64_t)m * (m - 1) / 2) return false;
  int first = -1;
  for (size_t i = 0; i < b->count; i++) {
    int cell = 0;
    for (unsigned k = 0; k < b->dims; k++)
      if (b->min[k][i] != b->min[k][i] || b->max[k][i] != b->max[k][i]) cell = -1;
    for (unsigned k = 0; k < b->dims && cell >= 0; k++) {
      const double c = (lo[k] + hi[k]) / 2,
                   margin = 1e-5 * (hi[k] - lo[k]) + 1e-6 * fabs(c) + 1e-30;
      const double l = fmin(b->min[k][i], b->max[k][i]), h = fmax(b->min[k][i], b->max[k][i]);
      if (!isfinite(c) || !(hi[k] > lo[k]))
        cell = -1;
      else if (h < c - margin)
        cell |= 0;
      else if (l > c + margin)
        cell |= 1 << k;
      else
        cell = -1; /* NaN too */
    }
    if (cell < 0) continue;
    if (first < 0)
      first = cell;
    else if (cell != first)
      return true;
  }
  return false;
}

const char *fb_stats_wrong(const col_broadphase_info *info, const col_boxes *b,
                           const col_broadphase_stats *st, size_t pairs) {
  /* A registered broadphase reports its own tests (backends.h): the bounds are the built-ins'. */
  const bool builtin = info->algorithm <= COL_BROADPHASE_QUADTREE;
  if (st->pairs != pairs) return "stats.pairs differs from the pairs found";
  if (builtin && st->tests < st->pairs) return "fewer tests than pairs found";
  if (info->algorithm == COL_BROADPHASE_BRUTE &&
      st->tests != (uint64_t)b->count * (b->count - 1) / 2)
    return "brute force did not test N(N-1)/2 pairs";
  if (info->algorithm == COL_BROADPHASE_QUADTREE && quadtree_too_many_tests(b, st->tests))
    return "the quadtree tested every pair though two boxes lie in different cells of its root";
  if (info->algorithm == COL_BROADPHASE_SAP) return sap_path_wrong(b, st->cells);
  return st->cells != 0 ? "stats.cells is not 0 for this algorithm" : NULL;
}
