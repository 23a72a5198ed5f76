/* Exact segment-against-sphere answers (sweep_exact.h). Every finite float is m * 2^e with
 * e >= -149, so scaled by 2^149 it is an integer below 2^278: differences, dot products and
 * the discriminant below are exact in GMP's integers, and the decision is exact. Only the
 * distances handed back for the error bound go through GMP's 256-bit floats. */
#include "sweep_exact.h"

#include <gmp.h>
#include <math.h>

#define SCALE_BITS 149

static bool ready;
static mpz_t f[3], v[3], d[3], tmp, a, b, dd, cc, disc, w;
static mpf_t fa, fb, fc, fd, fx;

static void init(void) {
  if (ready) return;
  for (int k = 0; k < 3; k++) mpz_inits(f[k], v[k], d[k], NULL);
  mpz_inits(tmp, a, b, dd, cc, disc, w, NULL);
  mpf_set_default_prec(256);
  mpf_inits(fa, fb, fc, fd, fx, NULL);
  ready = true;
}

/* The float as an exact integer in units of 2^-149. */
static void set_scaled(mpz_t z, float x) { mpz_set_d(z, ldexp((double)x, SCALE_BITS)); }

/* sqrt(z) * 2^-149 as a double. */
static double unscaled_sqrt(const mpz_t z) {
  mpf_set_z(fx, z);
  mpf_sqrt(fx, fx);
  return ldexp(mpf_get_d(fx), -SCALE_BITS);
}

sweep_exact sweep_exact_eval(col_vec3 from, col_vec3 to, col_sphere s) {
  sweep_exact x = {false, false, 0.0, NAN, NAN, NAN, NAN};
  const float in[10] = {from.x, from.y,     from.z,     to.x,       to.y,
                        to.z,   s.center.x, s.center.y, s.center.z, s.radius};
  for (int k = 0; k < 10; k++)
    if (!isfinite(in[k])) return x;
  if (s.radius < 0.0f) return x;
  x.valid = true;
  init();
  const float c[3] = {s.center.x, s.center.y, s.center.z}, e[3] = {to.x, to.y, to.z};
  const float o[3] = {from.x, from.y, from.z};
  mpz_set_ui(a, 0), mpz_set_ui(b, 0), mpz_set_ui(dd, 0);
  for (int k = 0; k < 3; k++) {
    set_scaled(f[k], o[k]);
    set_scaled(tmp, c[k]);
    mpz_sub(d[k], tmp, f[k]);
    set_scaled(tmp, e[k]);
    mpz_sub(v[k], tmp, f[k]);
    mpz_addmul(a, v[k], v[k]);
    mpz_addmul(b, d[k], v[k]);
    mpz_addmul(dd, d[k], d[k]);
  }
  set_scaled(tmp, s.radius);
  mpz_mul(cc, tmp, tmp);
  mpz_sub(cc, dd, cc); /* |d|^2 - r^2 */
  x.dist = unscaled_sqrt(dd);
  x.len = unscaled_sqrt(a);
  x.miss = x.dist;
  if (mpz_sgn(a) != 0) {
    /* p^2 = (|d|^2 |v|^2 - (d.v)^2) / |v|^2 (Lagrange's identity: never negative). */
    mpz_mul(tmp, dd, a);
    mpz_submul(tmp, b, b);
    mpf_set_z(fa, tmp);
    mpf_set_z(fb, a);
    mpf_div(fa, fa, fb);
    mpf_sqrt(fa, fa);
    x.miss = ldexp(mpf_get_d(fa), -SCALE_BITS);
  }
  if (mpz_sgn(cc) < 0) { /* starts inside */
    x.hit = true;
    return x;
  }
  if (mpz_sgn(a) == 0 || mpz_sgn(b) < 0) return x;
  /* The line point from + tau v meets the sphere where a tau^2 - 2 b tau + cc = 0. */
  mpz_mul(disc, b, b);
  mpz_submul(disc, a, cc);
  if (mpz_sgn(disc) < 0) return x;
  /* Entry tau = (b - sqrt(disc)) / a <= 1  <=>  b - a <= sqrt(disc). */
  mpz_sub(w, b, a);
  mpz_mul(tmp, w, w);
  x.hit = mpz_sgn(w) <= 0 || mpz_cmp(tmp, disc) <= 0;
  /* t = tau |v| = cc sqrt(a) / (b + sqrt(disc)): no cancellation (every term >= 0). */
  if (mpz_sgn(cc) == 0) {
    x.t_line = 0.0;
  } else {
    mpf_set_z(fa, a);
    mpf_sqrt(fa, fa);
    mpf_set_z(fc, cc);
    mpf_mul(fc, fc, fa);
    mpf_set_z(fd, disc);
    mpf_sqrt(fd, fd);
    mpf_set_z(fb, b);
    mpf_add(fd, fd, fb);
    mpf_div(fc, fc, fd);
    x.t_line = ldexp(mpf_get_d(fc), -SCALE_BITS);
  }
  if (x.hit) x.t = x.t_line;
  return x;
}

static bool in_range(double q) { return q >= 0x1p-40 && q <= 0x1p40; }

bool sweep_bound_applies(const sweep_exact *x, float radius) {
  return x->valid && in_range(x->dist) && in_range(x->len) &&
         (radius == 0.0f || in_range((double)radius));
}

double sweep_bound_e(const sweep_exact *x, float radius) {
  return 32.0 * 0x1p-24 * (x->dist + (double)radius);
}

double sweep_bound_t(const sweep_exact *x, float radius) {
  const double e = sweep_bound_e(x, radius);
  return 3.0 * e + 2.0 * sqrt((double)radius * e);
}

bool sweep_within_bound(const sweep_exact *x, float radius, col_hit got, const char **why) {
  *why = "";
  if (!sweep_bound_applies(x, radius)) return true;
  const double r = radius, e = sweep_bound_e(x, radius), bt = sweep_bound_t(x, radius);
  if (got.hit != x->hit) {
    if (fabs(x->miss - r) <= e || fabs(x->dist - r) <= e) return true;
    if (!isnan(x->t_line) && fabs(x->t_line - x->len) <= bt + 4.0 * 0x1p-24 * x->len) return true;
    *why = got.hit ? "a false hit outside the tangent, surface and end bands"
                   : "a miss outside the tangent, surface and end bands";
    return false;
  }
  if (got.hit && !(fabs((double)got.t - x->t) <= bt)) {
    *why = "t off by more than Bt";
    return false;
  }
  return true;
}
