/* Exact segment-against-box answers (slab_exact.h). A float converts to a GMP rational exactly
 * (through double, which holds every float), so the slab times (plane - from) / (to - from),
 * their maximum and minimum and every comparison of DESIGN.md 4.9 are exact. Only the values
 * handed back for the error bound are rounded to double (relative error 2^-53, far below the
 * bound's 2^-21). */
#include "slab_exact.h"

#include <gmp.h>
#include <math.h>

static bool ready;
static mpq_t p, v, lo, hi, d, nq[3], fq[3], n_max, f_min, one;

static void init(void) {
  if (ready) return;
  mpq_inits(p, v, lo, hi, d, n_max, f_min, one, NULL);
  for (int k = 0; k < 3; k++) mpq_inits(nq[k], fq[k], NULL);
  mpq_set_ui(one, 1, 1);
  ready = true;
}

/* |x| in [2^-60, 2^60] or x == 0, for a rational (through double: a float difference is a
 * double exactly, and the band's ends are powers of two). */
static bool in_range(const mpq_t x) {
  const double a = fabs(mpq_get_d(x));
  return a == 0.0 || (a >= 0x1p-60 && a <= 0x1p60);
}

slab_exact slab_exact_eval(col_vec3 from, col_vec3 to, col_aabb3 box, bool open) {
  slab_exact x = {false, false, false, 0.0, -1, 0, {0, 0, 0}, {0, 0, 0}};
  const float o[3] = {from.x, from.y, from.z}, e[3] = {to.x, to.y, to.z};
  const float mn[3] = {box.min.x, box.min.y, box.min.z}, mx[3] = {box.max.x, box.max.y, box.max.z};
  for (int k = 0; k < 3; k++)
    if (!isfinite(o[k]) || !isfinite(e[k]) || !(mn[k] <= mx[k])) return x;
  x.valid = true;
  /* Infinite faces are valid input, outside the judge's range. */
  for (int k = 0; k < 3; k++)
    if (!isfinite(mn[k]) || !isfinite(mx[k])) return x;
  x.applies = true;
  init();
  bool parallel_ok = true, any = false;
  for (int k = 0; k < 3; k++) {
    mpq_set_d(p, (double)o[k]);
    mpq_set_d(v, (double)e[k]);
    mpq_sub(v, v, p);
    mpq_set_d(lo, (double)mn[k]);
    mpq_sub(lo, lo, p);
    mpq_set_d(hi, (double)mx[k]);
    mpq_sub(hi, hi, p);
    x.applies = x.applies && in_range(v) && in_range(lo) && in_range(hi);
    if (mpq_sgn(v) == 0) {
      /* Parallel: the start must lie in the slab (strictly for the open rule). */
      const int s_lo = mpq_sgn(lo), s_hi = mpq_sgn(hi); /* min - from, max - from */
      parallel_ok = parallel_ok && (open ? s_lo < 0 && s_hi > 0 : s_lo <= 0 && s_hi >= 0);
      continue;
    }
    x.moving |= 1 << k;
    const bool pos = mpq_sgn(v) > 0;
    mpq_div(nq[k], pos ? lo : hi, v);
    mpq_div(fq[k], pos ? hi : lo, v);
    x.near[k] = mpq_get_d(nq[k]);
    x.far[k] = mpq_get_d(fq[k]);
    if (!any || mpq_cmp(nq[k], n_max) > 0) mpq_set(n_max, nq[k]), x.axis = k;
    if (!any || mpq_cmp(fq[k], f_min) < 0) mpq_set(f_min, fq[k]);
    any = true;
  }
  if (!parallel_ok) return x;
  if (!any) { /* a point: inside (by the parallel tests) */
    x.hit = true, x.axis = -1;
    return x;
  }
  const int nf = mpq_cmp(n_max, f_min), n1 = mpq_cmp(n_max, one), f0 = mpq_sgn(f_min);
  x.hit = open ? nf < 0 && n1 < 0 && f0 > 0 : nf <= 0 && n1 <= 0 && f0 >= 0;
  if (mpq_sgn(n_max) < 0) x.axis = -1; /* already inside: no face entered */
  if (x.hit && mpq_sgn(n_max) > 0) x.t = mpq_get_d(n_max);
  return x;
}

static bool close_rel(double a, double b) {
  return fabs(a - b) <= SLAB_BOUND_K * (fabs(a) + fabs(b));
}

bool slab_in_band(const slab_exact *x) {
  for (int i = 0; i < 3; i++) {
    if (!(x->moving >> i & 1)) continue;
    if (close_rel(x->near[i], 1.0)) return true;
    for (int j = 0; j < 3; j++)
      if (x->moving >> j & 1 && close_rel(x->near[i], x->far[j])) return true;
  }
  return false;
}

static int float_axis(col_aabb3_hit h) {
  if (h.normal.x != 0.0f) return 0;
  if (h.normal.y != 0.0f) return 1;
  if (h.normal.z != 0.0f) return 2;
  return -1;
}

bool slab_within_bound(const slab_exact *x, col_aabb3_hit got, const char **why) {
  *why = "";
  if (!x->valid) {
    *why = "an invalid input must miss";
    return !got.hit;
  }
  if (!x->applies) return true;
  if (got.hit != x->hit) {
    *why = "the decision differs outside the edge and end bands";
    return slab_in_band(x);
  }
  if (!got.hit) return true;
  if (!(fabs((double)got.t - x->t) <= SLAB_BOUND_K * x->t)) {
    *why = "t is farther than 8u t* from the exact entry time";
    return false;
  }
  const int a = float_axis(got);
  if (a != x->axis) {
    *why = "another entry face, not within the tie band";
    /* Both must be faces whose near* tie within the band: "no face" (N < 0) is decided by
     * the sign of N, which rounding keeps. */
    return a >= 0 && x->axis >= 0 && close_rel(x->near[a], x->near[x->axis]);
  }
  return true;
}
