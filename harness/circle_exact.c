/* Exact circle overlap (circle_exact.h): |d|^2 against (ra + rb)^2 in integers of 2^-149. */
#include "circle_exact.h"

#include <gmp.h>
#include <math.h>

#define SCALE_BITS 149

static bool ready;
static mpz_t dx, dy, t, d2, r, r2;

static void set_scaled(mpz_t z, float x) { mpz_set_d(z, ldexp((double)x, SCALE_BITS)); }

circle_exact circle_exact_eval(col_circle a, col_circle b) {
  circle_exact x = {false, 0, NAN, NAN};
  const float in[6] = {a.center.x, a.center.y, a.radius, b.center.x, b.center.y, b.radius};
  for (int k = 0; k < 6; k++)
    if (!isfinite(in[k])) return x;
  if (a.radius < 0 || b.radius < 0) return x;
  if (!ready) mpz_inits(dx, dy, t, d2, r, r2, NULL), ready = true;
  x.valid = true;
  set_scaled(dx, a.center.x), set_scaled(t, b.center.x), mpz_sub(dx, dx, t);
  set_scaled(dy, a.center.y), set_scaled(t, b.center.y), mpz_sub(dy, dy, t);
  mpz_mul(d2, dx, dx), mpz_mul(t, dy, dy), mpz_add(d2, d2, t);
  set_scaled(r, a.radius), set_scaled(t, b.radius), mpz_add(r, r, t);
  mpz_mul(r2, r, r);
  const int c = mpz_cmp(d2, r2);
  x.compare = c < 0 ? -1 : c > 0;
  x.dist = ldexp(sqrt(mpz_get_d(d2)), -SCALE_BITS);
  x.sum = ldexp(mpz_get_d(r), -SCALE_BITS);
  return x;
}
