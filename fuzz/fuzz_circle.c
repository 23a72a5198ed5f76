/* Differential fuzz target: circle overlap (the seed's box-then-sqrt test and the squared
 * form) and elastic response (per-axis and normal rules) as batches on every supported
 * backend against the single-pair reference functions, bit for bit; conservation of momentum
 * and energy for finite inputs (the normal rule: for centres more than 1e-18 apart); and a
 * measurement: how often the seed's test and the squared
 * form disagree, and which of them agrees with the exact answer (dx^2 + dy^2 < (r1 + r2)^2 in
 * quad precision, exact for the values decoded here). The counts are printed when the
 * process exits.
 * Input: n byte (bits 0-6: 0..127 pairs; bit 7: near-touching pairs), then n pairs: a (x, y,
 * r), b (x, y, r), a's velocity (x, y), b's velocity (x, y) as tagged floats, two mass bytes
 * ((byte + 1) / 4: 0.25..64). Near-touching pairs give instead of b (x, y, r): b's r, a
 * direction (x, y) and a k byte; b's centre is put at distance r1 + r2 from a's along that
 * direction, then moved by a few ulps on each axis (place_touching), so that
 * dx*dx + dy*dy meets (r1 + r2)^2 within an ulp or so, where a kernel whose sums round
 * otherwise (a fused multiply-add, another order) answers otherwise. */
#include "fuzz_common.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "circle";

enum { MAX_N = 127 };

static uint64_t pairs_seen, forms_disagree, seed_wrong, squared_wrong, box_decided;
static uint64_t negative_sum, negative_squared_hits;

static void print_counts(void) {
  if (pairs_seen == 0 && negative_sum == 0) return;
  fprintf(stderr,
          "fuzz circle: %llu pairs of finite circles with radii >= 0: seed vs squared disagree on "
          "%llu; against the exact answer the seed's test was wrong on %llu (its box pre-check "
          "decided %llu of those), the squared form on %llu. %llu pairs with r1 + r2 < 0: the "
          "squared form reported %llu of them as overlapping\n",
          (unsigned long long)pairs_seen, (unsigned long long)forms_disagree,
          (unsigned long long)seed_wrong, (unsigned long long)box_decided,
          (unsigned long long)squared_wrong, (unsigned long long)negative_sum,
          (unsigned long long)negative_squared_hits);
}

/* The centre distance is < r1 + r2, decided in quad precision (113-bit significands, where
 * differences and squares of floats within 2^32 of each other in magnitude are exact): for
 * r1 + r2 > 0, dx^2 + dy^2 < (r1 + r2)^2. */
#if LDBL_MANT_DIG >= 113
typedef long double quad; /* AArch64, s390x: long double is IEEE quad (no __float128 there) */
#else
typedef __float128 quad;
#endif
static bool exact_overlap(float ax, float ay, float ar, float bx, float by, float br) {
  const quad dx = (quad)ax - bx, dy = (quad)ay - by, r = (quad)ar + br;
  return r > 0 && dx * dx + dy * dy < r * r;
}

static bool finite_all(const float *v, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (!isfinite(v[k]) || fabsf(v[k]) > 1e6f) return false;
  return true;
}

/* x moved k ulps (up for k > 0); non-finite values stay. */
static float ulps(float x, int k) {
  if (!isfinite(x)) return x;
  for (; k > 0; k--) x = nextafterf(x, INFINITY);
  for (; k < 0; k++) x = nextafterf(x, -INFINITY);
  return x;
}

/* A near-touching b: its centre at distance ar + br (the float sum both tests compare with)
 * from a's along (ux, uy), computed in double and rounded, then moved kx and ky ulps (k's low
 * and high nibble, -8..7, the small steps first: 0, 1, -1, 2, -2 ...). A direction that is
 * zero or not finite is (1, 0). */
static void place_touching(float ax, float ay, float ar, float br, float ux, float uy, uint8_t k,
                           float *bx, float *by) {
  double len = hypot(ux, uy);
  if (!(len > 0) || !isfinite(len)) ux = 1, uy = 0, len = 1;
  const double dist = (double)(ar + br);
  static const int8_t steps[16] = {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, -8};
  *bx = ulps((float)(ax + dist * (ux / len)), steps[k & 15]);
  *by = ulps((float)(ay + dist * (uy / len)), steps[k >> 4]);
}

/* A zero as +0.0 (the header's convention), other values as they are: written apart from the
 * kernel's own way of doing it. */
static float canonical_zero(float x) { return x == 0.0f ? 0.0f : x; }

static bool same_float(float x, float y) {
  uint32_t a, b;
  memcpy(&a, &x, 4), memcpy(&b, &y, 4);
  return a == b || (x != x && y != y);
}

/* The contact points: the documented formulas (the midpoint when the radii sum to 0), every
 * zero +0.0. */
static void check_contacts(col_circle a, col_circle b) {
  const float sum = a.radius + b.radius;
  const col_vec2 c = col_circle_contact(a, b), m = col_circle_contact_midpoint(a, b);
  const float got[4] = {c.x, c.y, m.x, m.y};
  const float mx = canonical_zero((a.center.x + b.center.x) / 2.0f);
  const float my = canonical_zero((a.center.y + b.center.y) / 2.0f);
  const bool points = sum == 0.0f; /* no weights: the midpoint */
  const float want[4] = {
      points ? mx : canonical_zero((a.center.x * b.radius + b.center.x * a.radius) / sum),
      points ? my : canonical_zero((a.center.y * b.radius + b.center.y * a.radius) / sum), mx, my};
  for (int k = 0; k < 4; k++)
    if (!same_float(got[k], want[k])) {
      const float in[6] = {a.center.x, a.center.y, a.radius, b.center.x, b.center.y, b.radius};
      fz_print_floats("circles ax ay ar bx by br", in, 6);
      fz_print_floats("contact x y, midpoint x y", got, 4);
      fz_print_floats("want (zeros as +0.0)     ", want, 4);
      fz_fail();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool registered;
  if (!registered) registered = true, atexit(print_counts);
  fz_reader r = {data, size};
  const uint8_t head = fz_u8(&r);
  const size_t n = head % (MAX_N + 1);
  const bool touching = (head & 0x80) != 0;
  /* Fields: ax ay ar bx by br avx avy bvx bvy am bm, one exact-size array each. */
  float *f[12];
  for (int k = 0; k < 12; k++) f[k] = fz_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    if (touching) {
      float v[6]; /* ax ay ar br ux uy */
      for (int k = 0; k < 6; k++) v[k] = fz_float(&r);
      f[0][i] = v[0], f[1][i] = v[1], f[2][i] = v[2], f[5][i] = v[3];
      place_touching(v[0], v[1], v[2], v[3], v[4], v[5], fz_u8(&r), &f[3][i], &f[4][i]);
    } else {
      for (int k = 0; k < 6; k++) f[k][i] = fz_float(&r);
    }
    for (int k = 6; k < 10; k++) f[k][i] = fz_float(&r);
    f[10][i] = (float)(fz_u8(&r) + 1) / 4.0f;
    f[11][i] = (float)(fz_u8(&r) + 1) / 4.0f;
  }
  const col_circle_soa a = {f[0], f[1], f[2], n}, b = {f[3], f[4], f[5], n};
  uint8_t want_hit[2][MAX_N + 1], hit[MAX_N + 1];
  col_velocities want_v[2][MAX_N + 1];
  for (size_t i = 0; i < n; i++) {
    const col_circle ca = {{f[0][i], f[1][i]}, f[2][i]}, cb = {{f[3][i], f[4][i]}, f[5][i]};
    want_hit[0][i] = col_circle_overlap(ca, cb);
    want_hit[1][i] = col_circle_overlap_squared(ca, cb);
    const col_ball ba = {{f[0][i], f[1][i]}, {f[6][i], f[7][i]}, f[10][i]};
    const col_ball bb = {{f[3][i], f[4][i]}, {f[8][i], f[9][i]}, f[11][i]};
    for (int rule = 0; rule < 2; rule++)
      want_v[rule][i] = col_elastic_response(ba, bb, (col_elastic_rule)rule);
    check_contacts(ca, cb);

    /* The measurement, on pairs with finite values. */
    const float vals[6] = {f[0][i], f[1][i], f[2][i], f[3][i], f[4][i], f[5][i]};
    if (finite_all(vals, 6) && (f[2][i] < 0 || f[5][i] < 0)) {
      negative_sum += (double)f[2][i] + f[5][i] < 0;
      negative_squared_hits += (double)f[2][i] + f[5][i] < 0 && want_hit[1][i];
    } else if (finite_all(vals, 6)) {
      const bool exact = exact_overlap(f[0][i], f[1][i], f[2][i], f[3][i], f[4][i], f[5][i]);
      pairs_seen++;
      forms_disagree += want_hit[0][i] != want_hit[1][i];
      squared_wrong += want_hit[1][i] != exact;
      if (want_hit[0][i] != exact) {
        seed_wrong++;
        const float dx = f[0][i] - f[3][i], dy = f[1][i] - f[4][i];
        box_decided += sqrtf(dx * dx + dy * dy) < f[2][i] + f[5][i] && !want_hit[0][i];
      }
    }
    /* Conservation for finite input (relative bounds of the unit tests, a little looser for
     * the extreme mass ratios and magnitudes decoded here). */
    const float all[12] = {f[0][i], f[1][i], f[2][i], f[3][i], f[4][i],  f[5][i],
                           f[6][i], f[7][i], f[8][i], f[9][i], f[10][i], f[11][i]};
    /* The normal rule's normal is only as precise as its squared length: separations below
     * 1e-18 square into denormals (or zero), so its conservation is checked above that. */
    const double sx = (double)f[3][i] - f[0][i], sy = (double)f[4][i] - f[1][i];
    const bool normal_ok = sx * sx + sy * sy >= 1e-36;
    if (finite_all(all, 12)) {
      for (int rule = 0; rule < (normal_ok ? 2 : 1); rule++) {
        const col_velocities v = want_v[rule][i];
        const double ma = f[10][i], mb = f[11][i];
        const double in[4] = {f[6][i], f[7][i], f[8][i], f[9][i]},
                     out[4] = {v.a.x, v.a.y, v.b.x, v.b.y};
        bool ok = isfinite(out[0]) && isfinite(out[1]) && isfinite(out[2]) && isfinite(out[3]);
        const double scale = ma * (fabs(in[0]) + fabs(in[1])) + mb * (fabs(in[2]) + fabs(in[3]));
        for (int axis = 0; axis < 2 && ok; axis++) {
          const double p0 = ma * in[axis] + mb * in[2 + axis],
                       p1 = ma * out[axis] + mb * out[2 + axis];
          ok = fabs(p1 - p0) <= 1e-5 * scale + 1e-30;
        }
        const double e0 =
            ma * (in[0] * in[0] + in[1] * in[1]) + mb * (in[2] * in[2] + in[3] * in[3]);
        const double e1 =
            ma * (out[0] * out[0] + out[1] * out[1]) + mb * (out[2] * out[2] + out[3] * out[3]);
        ok = ok && fabs(e1 - e0) <= 1e-4 * e0 + 1e-30;
        if (!ok) {
          fprintf(stderr, "fuzz circle: rule %d breaks conservation for pair %zu\n", rule, i);
          fz_print_floats("a x y, v x y, m",
                          (const float[]){f[0][i], f[1][i], f[6][i], f[7][i], f[10][i]}, 5);
          fz_print_floats("b x y, v x y, m",
                          (const float[]){f[3][i], f[4][i], f[8][i], f[9][i], f[11][i]}, 5);
          fz_print_floats("after: a v, b v", (const float[]){v.a.x, v.a.y, v.b.x, v.b.y}, 4);
          fprintf(stderr, "  conservation differs from its bound\n");
          fz_fail();
        }
      }
    }
  }

  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, COL_KERNEL_CIRCLE | COL_KERNEL_ELASTIC);
  float *vel[4];
  for (int k = 0; k < 4; k++) vel[k] = fz_alloc(n * sizeof(float));
  for (size_t k = 0; k < nb; k++) {
    fz_select(names[k]);
    for (int test = 0; test < 2; test++) {
      if (col_circle_overlap_batch(&a, &b, (col_circle_test)test, hit) != COL_OK) abort();
      for (size_t i = 0; i < n; i++)
        if (hit[i] != want_hit[test][i]) {
          fprintf(stderr, "fuzz circle: %s, %s test, pair %zu: batch %d, single pair %d\n",
                  names[k], test ? "squared" : "seed", i, hit[i], want_hit[test][i]);
          fz_print_floats("a x y r", (const float[]){f[0][i], f[1][i], f[2][i]}, 3);
          fz_print_floats("b x y r", (const float[]){f[3][i], f[4][i], f[5][i]}, 3);
          const float six[6] = {f[0][i], f[1][i], f[2][i], f[3][i], f[4][i], f[5][i]};
          fprintf(stderr, "  reference hit = %d (the single-pair function)", want_hit[test][i]);
          if (finite_all(six, 6) && f[2][i] >= 0 && f[5][i] >= 0)
            fprintf(stderr, "; exact (centre distance < r1 + r2): %d",
                    exact_overlap(six[0], six[1], six[2], six[3], six[4], six[5]));
          fprintf(stderr, "\n  %s hit = %d   <- DIFFERS from scalar\n", names[k], hit[i]);
          fz_fail();
        }
    }
    for (int rule = 0; rule < 2; rule++) {
      for (int v = 0; v < 4; v++) memcpy(vel[v], f[6 + v], n * sizeof(float));
      col_ball_soa pa = {f[0], f[1], vel[0], vel[1], f[10], n},
                   pb = {f[3], f[4], vel[2], vel[3], f[11], n};
      if (col_elastic_batch(&pa, &pb, (col_elastic_rule)rule) != COL_OK) abort();
      for (size_t i = 0; i < n; i++) {
        const col_velocities w = want_v[rule][i];
        const float got[4] = {vel[0][i], vel[1][i], vel[2][i], vel[3][i]},
                    exp[4] = {w.a.x, w.a.y, w.b.x, w.b.y};
        if (memcmp(got, exp, sizeof got) != 0) {
          fprintf(stderr, "fuzz circle: %s, %s rule, pair %zu\n", names[k],
                  rule ? "normal" : "axes", i);
          fz_print_floats("a x y, v x y, m",
                          (const float[]){f[0][i], f[1][i], f[6][i], f[7][i], f[10][i]}, 5);
          fz_print_floats("b x y, v x y, m",
                          (const float[]){f[3][i], f[4][i], f[8][i], f[9][i], f[11][i]}, 5);
          fz_print_floats("batch", got, 4);
          fz_print_floats("reference (single pair)", exp, 4);
          fprintf(stderr, "  %s differs from scalar\n", names[k]);
          fz_fail();
        }
      }
    }
  }
  for (int k = 0; k < 4; k++) free(vel[k]);
  for (int k = 0; k < 12; k++) free(f[k]);
  return 0;
}
