/* Differential fuzz target: one segment against N spheres on every supported backend against
 * the scalar reference (and the reference against the single-sphere function one by one), bit
 * for bit, for both the seed's recipe (col_segment_spheres) and the robust variant
 * (col_segment_spheres_robust); and every sphere against the exact answer (harness/sweep_exact.c,
 * rational arithmetic): the robust variant must stay within its documented bound, and the
 * recipe's wrong decisions are counted (printed when the process exits).
 * Input: mode byte (bits 0-3: array misalignment, 0..15 floats; bit 4: steered spheres), from
 * (3 floats), to (3 floats), n byte (0..127), then n spheres: plain, 4 floats (center x y z,
 * radius); steered, 3 floats a, r, dev and a byte k: the center a along the segment's line
 * from `from` and |r| (1 + dev 2^-(k % 32)) beside it, radius |r| (rounded to float), which
 * puts spheres at any distance near tangency. With mode bits 5-7 all set the spheres are then
 * also taken to the world (see world() below) and fuzzed again there. */
#include "fuzz_common.h"
#include "sweep_exact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "sweep";

static uint64_t judged, recipe_false_hits, recipe_misses, robust_false_hits, robust_misses;

static void print_counts(void) {
  if (judged == 0) return;
  fprintf(stderr,
          "fuzz sweep: %llu spheres within the robust bound's range judged against the exact "
          "answer: the seed's recipe made %llu false hits and %llu misses, the robust variant "
          "%llu false hits and %llu misses (all inside its bound)\n",
          (unsigned long long)judged, (unsigned long long)recipe_false_hits,
          (unsigned long long)recipe_misses, (unsigned long long)robust_false_hits,
          (unsigned long long)robust_misses);
}

static bool same_hit(col_segment_hit x, col_segment_hit y) {
  return x.hit == y.hit && x.index == y.index && memcmp(&x.t, &y.t, sizeof(float)) == 0;
}

/* A steered sphere: center = from + a u + |r| (1 + dev 2^-k) p, u the segment's direction and
 * p a unit vector perpendicular to it (double precision, then rounded). */
static void steer(col_vec3 from, col_vec3 to, float a, float r, float dev, unsigned k,
                  float out[4]) {
  double u[3] = {(double)to.x - from.x, (double)to.y - from.y, (double)to.z - from.z};
  double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  if (!(n > 0) || !isfinite(n)) u[0] = 1, u[1] = 0, u[2] = 0, n = 1;
  for (int i = 0; i < 3; i++) u[i] /= n;
  double p[3] = {-u[1], u[0], 0};
  if (fabs(u[2]) > 0.9) p[0] = 0, p[1] = -u[2], p[2] = u[1];
  const double pn = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  const double side = fabs((double)r) * (1.0 + (double)dev * ldexp(1.0, -(int)(k % 32)));
  const double f[3] = {from.x, from.y, from.z};
  for (int i = 0; i < 3; i++) out[i] = (float)(f[i] + a * u[i] + side * p[i] / pn);
  out[3] = fabsf(r);
}

static void report(const char *what, col_vec3 from, col_vec3 to, const float *const v[4],
                   size_t n) {
  fprintf(stderr, "fuzz sweep: %s; input: %zu spheres\n", what, n);
  fz_print_floats("from", &from.x, 3);
  fz_print_floats("to", &to.x, 3);
  for (size_t i = 0; i < n; i++) {
    char label[80];
    snprintf(label, sizeof label, "sphere %zu center x y z, radius", i);
    fz_print_floats(label, (const float[]){v[0][i], v[1][i], v[2][i], v[3][i]}, 4);
  }
}

typedef struct variant {
  const char *name;
  col_hit (*one)(col_vec3 from, col_vec3 to, col_sphere s);
  col_status (*set)(col_vec3 from, col_vec3 to, const col_sphere_soa *set, col_segment_hit *out);
  unsigned kernel;
} variant;

static const variant variants[] = {
    {"recipe", col_segment_sphere, col_segment_spheres, COL_KERNEL_SEGMENT},
    {"robust", col_segment_sphere_robust, col_segment_spheres_robust, COL_KERNEL_SEGMENT_ROBUST},
};

static void differential(const variant *w, col_vec3 from, col_vec3 to, const col_sphere_soa *set,
                         const float *const v[4]) {
  const size_t n = set->count;
  /* The definition: each sphere alone, the smallest t, the lowest index among equals. */
  col_segment_hit defined = {false, 0.0f, COL_INDEX_NONE};
  for (size_t i = 0; i < n; i++) {
    const col_hit h = w->one(from, to, (col_sphere){{v[0][i], v[1][i], v[2][i]}, v[3][i]});
    if (h.hit && (!defined.hit || h.t < defined.t))
      defined = (col_segment_hit){true, h.t, (uint32_t)i};
  }
  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, w->kernel);
  col_segment_hit out[FZ_MAX_BACKENDS];
  bool agree = true;
  for (size_t k = 0; k < nb; k++) {
    fz_select(names[k]);
    if (w->set(from, to, set, &out[k]) != COL_OK) abort();
    agree = agree && same_hit(out[k], out[0]);
  }
  /* The conventions, checked apart from the reference: a zero t is +0.0, the robust t is never
   * negative, a miss is {false, +0, COL_INDEX_NONE}, a hit's index names a sphere. */
  const col_segment_hit h = out[0];
  uint32_t tbits;
  memcpy(&tbits, &h.t, sizeof tbits);
  const bool robust = w->kernel == COL_KERNEL_SEGMENT_ROBUST;
  /* Step 1 of the header, read here and not from the kernels' shared segment terms: a hit
   * needs finite ends and a finite sphere with a radius >= 0. */
  const bool ends_finite = isfinite(from.x) && isfinite(from.y) && isfinite(from.z) &&
                           isfinite(to.x) && isfinite(to.y) && isfinite(to.z);
  const bool sphere_valid = h.index < n && isfinite(v[0][h.index]) && isfinite(v[1][h.index]) &&
                            isfinite(v[2][h.index]) && isfinite(v[3][h.index]) &&
                            v[3][h.index] >= 0.0f;
  const bool conventions =
      h.hit ? tbits != 0x80000000u && ends_finite && sphere_valid && (!robust || h.t >= 0)
            : tbits == 0 && h.index == COL_INDEX_NONE;
  if (agree && same_hit(out[0], defined) && conventions) return;
  report(!conventions ? "a result breaks the header's conventions (a miss's form, t, index, "
                        "or step 1: a hit needs finite ends and a finite sphere, radius >= 0)"
         : agree      ? "scalar batch differs from the single-sphere function"
                      : "backends differ",
         from, to, v, n);
  fprintf(stderr, "  variant %s\n  %-10s hit = %d t = %a index = %u\n", w->name, "definition",
          defined.hit, (double)defined.t, defined.index);
  for (size_t k = 0; k < nb; k++)
    fprintf(stderr, "  %-10s hit = %d t = %a index = %u%s\n", names[k], out[k].hit,
            (double)out[k].t, out[k].index,
            same_hit(out[k], out[0]) ? "" : "   <- DIFFERS from scalar");
  fz_fail();
}

/* Every sphere against the exact answer: the robust variant within its bound. */
static void against_exact(col_vec3 from, col_vec3 to, const float *const v[4], size_t n) {
  for (size_t i = 0; i < n; i++) {
    const col_sphere s = {{v[0][i], v[1][i], v[2][i]}, v[3][i]};
    const sweep_exact x = sweep_exact_eval(from, to, s);
    if (!sweep_bound_applies(&x, s.radius)) continue;
    const col_hit recipe = col_segment_sphere(from, to, s);
    const col_hit robust = col_segment_sphere_robust(from, to, s);
    judged++;
    recipe_false_hits += recipe.hit && !x.hit, recipe_misses += !recipe.hit && x.hit;
    robust_false_hits += robust.hit && !x.hit, robust_misses += !robust.hit && x.hit;
    const char *why;
    if (sweep_within_bound(&x, s.radius, robust, &why)) continue;
    report("the robust variant breaks its error bound", from, to, v, n);
    fprintf(stderr,
            "  sphere %zu: %s\n  robust hit = %d t = %.9g; exact hit = %d t = %.17g\n"
            "  D = %.17g L = %.17g p = %.17g r = %.9g E = %.6g Bt = %.6g\n",
            i, why, robust.hit, (double)robust.t, x.hit, x.t, x.dist, x.len, x.miss,
            (double)s.radius, sweep_bound_e(&x, s.radius), sweep_bound_t(&x, s.radius));
    fz_fail();
  }
}

/* Bits of a float, for comparisons that keep NaN and the sign of zero. */
static uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}
static bool same_float(float a, float b) { return bits_of(a) == bits_of(b); }
/* Equal values, or both NaN (the header's claims below are about values: +0 and -0 alike). */
static bool same_value(float a, float b) { return a == b || (a != a && b != b); }

static _Noreturn void world_fails(const char *what, const col_mat4 *m, const float s[4],
                                  const col_sphere *got) {
  fprintf(stderr, "fuzz sweep: %s\n", what);
  for (int i = 0; i < 4; i++) {
    char label[32];
    snprintf(label, sizeof label, "matrix row %d", i);
    fz_print_floats(label, m->m[i], 4);
  }
  fz_print_floats("sphere center x y z, radius", s, 4);
  fz_print_floats("got center x y z, radius",
                  (const float[]){got->center.x, got->center.y, got->center.z, got->radius}, 4);
  fz_fail();
}

/* collide.h's col_sphere_transform, from its text: center' = center * M as
 * ((x*m[0][j] + y*m[1][j]) + z*m[2][j]) + m[3][j], radius' = radius * sqrtf(the largest of the
 * rows 0..2's squared lengths (m[r][0]^2 + m[r][1]^2) + m[r][2]^2, a NaN never the largest,
 * 0 when none is above 0). */
static col_sphere transform_defined(const float s[4], const col_mat4 *w) {
  const float(*m)[4] = w->m;
  float c[3];
  for (int j = 0; j < 3; j++) c[j] = ((s[0] * m[0][j] + s[1] * m[1][j]) + s[2] * m[2][j]) + m[3][j];
  float largest = 0.0f;
  for (int r = 0; r < 3; r++) {
    const float len2 = (m[r][0] * m[r][0] + m[r][1] * m[r][1]) + m[r][2] * m[r][2];
    if (len2 > largest) largest = len2;
  }
  return (col_sphere){{c[0], c[1], c[2]}, s[3] * sqrtf(largest)};
}

/* The spheres taken to the world, as a game places a model's bounding spheres: a matrix (bit 0
 * of the world byte: 16 floats as given; else col_mat4_scale_translation of a scale and a
 * translation, 6 floats), col_sphere_transform, then col_sphere_inflate by a mover's radius (a
 * float): each call against collide.h (the matrix's entries; the transform's formula and, for a
 * scale and a translation, radius * max(|sx|, |sy|, |sz|) and center * scale + translation,
 * exact where the header says so; inflate's one addition), the spheres rewritten in place. */
static void world(fz_reader *r, float *const v[4], size_t n) {
  const uint8_t how = fz_u8(r);
  col_mat4 m;
  float sc[3] = {1, 1, 1}, tr[3] = {0, 0, 0};
  const bool general = how & 1;
  if (general) {
    for (int i = 0; i < 16; i++) m.m[i / 4][i % 4] = fz_float(r);
  } else {
    for (int k = 0; k < 3; k++) sc[k] = fz_float(r);
    for (int k = 0; k < 3; k++) tr[k] = fz_float(r);
    m = col_mat4_scale_translation((col_vec3){sc[0], sc[1], sc[2]},
                                   (col_vec3){tr[0], tr[1], tr[2]});
    /* "scales by scale per axis, then translates": the scale on the diagonal, the translation
     * in row 3 (XNA's row vectors), 1 in the corner, zeros elsewhere. */
    bool ok = m.m[3][3] == 1.0f;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++)
        ok = ok && (i == j ? same_float(m.m[i][j], sc[i]) : m.m[i][j] == 0.0f) &&
             same_float(m.m[3][i], tr[i]);
    if (!ok)
      world_fails("col_mat4_scale_translation's matrix is not the scale and translation", &m,
                  (const float[]){sc[0], sc[1], sc[2], 0}, &(col_sphere){{tr[0], tr[1], tr[2]}, 0});
  }
  const float mover = fz_float(r);
  for (size_t i = 0; i < n; i++) {
    const float s[4] = {v[0][i], v[1][i], v[2][i], v[3][i]};
    const col_sphere got = col_sphere_transform((col_sphere){{s[0], s[1], s[2]}, s[3]}, m);
    const col_sphere want = transform_defined(s, &m);
    if (!same_value(got.center.x, want.center.x) || !same_value(got.center.y, want.center.y) ||
        !same_value(got.center.z, want.center.z) || !same_value(got.radius, want.radius))
      world_fails("col_sphere_transform differs from its formula in collide.h", &m, s, &got);
    if (!general) {
      /* The header's exactness claims for a scale and a translation: the radius times the
       * largest |scale| unless a squared scale overflows or underflows (an |s| past 2^63 or
       * under 2^-63, save 0); the center as c * s + t when the other coordinates are finite
       * (their products with the zeros are then zeros). */
      float top = 0.0f;
      bool squares_exact = true;
      for (int k = 0; k < 3; k++) {
        const float a = fabsf(sc[k]);
        squares_exact = squares_exact && (a == 0.0f || (a >= 0x1p-63f && a <= 0x1p63f));
        if (a > top) top = a;
      }
      if (squares_exact && !same_value(got.radius, s[3] * top))
        world_fails("col_sphere_transform's radius is not radius * max |scale|", &m, s, &got);
      for (int k = 0; k < 3; k++) {
        const bool others_finite = isfinite(s[(k + 1) % 3]) && isfinite(s[(k + 2) % 3]);
        const float c = k == 0 ? got.center.x : k == 1 ? got.center.y : got.center.z;
        if (others_finite && !same_value(c, s[k] * sc[k] + tr[k]))
          world_fails("col_sphere_transform's center is not center * scale + translation", &m, s,
                      &got);
      }
    }
    const col_sphere grown = col_sphere_inflate(got, mover);
    if (!same_float(grown.radius, got.radius + mover) ||
        !same_float(grown.center.x, got.center.x) || !same_float(grown.center.y, got.center.y) ||
        !same_float(grown.center.z, got.center.z))
      world_fails("col_sphere_inflate is not the center and radius + mover_radius", &m, s, &grown);
    v[0][i] = grown.center.x, v[1][i] = grown.center.y, v[2][i] = grown.center.z;
    v[3][i] = grown.radius;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool registered;
  if (!registered) registered = true, atexit(print_counts);
  fz_reader r = {data, size};
  const uint8_t mode = fz_u8(&r);
  const size_t offset = mode % 16;
  const bool steered = (mode & 16) != 0;
  col_vec3 from, to;
  from.x = fz_float(&r), from.y = fz_float(&r), from.z = fz_float(&r);
  to.x = fz_float(&r), to.y = fz_float(&r), to.z = fz_float(&r);
  const size_t n = fz_u8(&r) % 128;
  float *base[4], *v[4];
  for (int k = 0; k < 4; k++) {
    base[k] = fz_alloc((offset + n) * sizeof(float));
    v[k] = base[k] + offset;
  }
  for (size_t i = 0; i < n; i++) {
    float s[4];
    for (int k = 0; k < (steered ? 3 : 4); k++) s[k] = fz_float(&r);
    if (steered) steer(from, to, s[0], s[1], s[2], fz_u8(&r), s);
    for (int k = 0; k < 4; k++) v[k][i] = s[k];
  }
  const col_sphere_soa set = {v[0], v[1], v[2], v[3], n};
  const float *const cv[4] = {v[0], v[1], v[2], v[3]};
  for (size_t w = 0; w < sizeof variants / sizeof variants[0]; w++)
    differential(&variants[w], from, to, &set, cv);
  against_exact(from, to, cv, n);
  if ((mode & 0xE0) == 0xE0) {
    world(&r, v, n);
    for (size_t w = 0; w < sizeof variants / sizeof variants[0]; w++)
      differential(&variants[w], from, to, &set, cv);
    against_exact(from, to, cv, n);
  }
  for (int k = 0; k < 4; k++) free(base[k]);
  return 0;
}
