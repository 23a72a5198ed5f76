/* The segment-against-sphere study (not timings): how often the seed's recipe
 * (col_segment_sphere) and the robust variant (col_segment_sphere_robust) decide differently
 * from the exact answer (harness/sweep_exact.c, rational arithmetic on the same float inputs),
 * false hits and misses apart, and how far their t lands from the exact one. Every row draws
 * SAMPLES segments that pass within twice the (inflated) radius of the sphere's centre, offsets
 * uniform over that disc, and runs once:
 * - sweepstat/seed/scalar/bottle/D: the seed's scene, per update: a bullet at 5000 km/h and 60
 *   updates per second (23.15 m per update) fired from the origin at a bottle of radius
 *   0.075 m, D metres away in a random direction; the segment is the update that passes the
 *   bottle (random phase), so `from` is never more than 23.15 m from it.
 * - sweepstat/random/scalar/r<radius>/D: one long segment from near the origin (a hit-scan, or
 *   a mover tested over many updates at once) at a sphere D metres away, radius 1 mm ... 10 m.
 * - sweepstat/inflate/scalar/m<radius>/D: as random, for a mover of the given radius against
 *   the bottle, swept as its centre against the bottle inflated by that radius
 *   (col_sphere_inflate): the larger the effective radius, the smaller the recipe's D^2 / r^2. */
#include "bench.h"
#include "sweep_exact.h"

#include <math.h>
#include <stdio.h>

enum { SAMPLES = 100000 };

typedef struct study_scene {
  const char *kind, *label;
  double radius; /* the target's radius (the bottle for inflate) */
  double mover;  /* inflate: the mover's radius */
} study_scene;

static const study_scene scenes[] = {
    {"seed", "bottle", 0.075, 0.0},   {"random", "r1mm", 0.001, 0.0},
    {"random", "r1cm", 0.01, 0.0},    {"random", "r10cm", 0.1, 0.0},
    {"random", "r1m", 1.0, 0.0},      {"random", "r10m", 10.0, 0.0},
    {"inflate", "m0cm", 0.075, 0.0},  {"inflate", "m5cm", 0.075, 0.05},
    {"inflate", "m50cm", 0.075, 0.5}, {"inflate", "m2m", 0.075, 2.0},
};

typedef struct tally {
  uint64_t wrong, false_hits, misses;
  double t_error_max;
} tally;

static void judge(tally *y, const sweep_exact *x, col_hit got) {
  if (got.hit != x->hit) {
    y->wrong++;
    if (got.hit)
      y->false_hits++;
    else
      y->misses++;
  } else if (got.hit) {
    const double err = fabs((double)got.t - x->t);
    if (err > y->t_error_max) y->t_error_max = err;
  }
}

/* A unit vector uniform on the sphere, and two unit vectors perpendicular to it. */
static void frame(uint64_t *rng, double u[3], double p[3], double q[3]) {
  const double z = 2.0 * bench_uniform(rng, 0, 1) - 1.0,
               a = 6.283185307179586 * bench_uniform(rng, 0, 1);
  const double s = sqrt(1.0 - z * z);
  u[0] = s * cos(a), u[1] = s * sin(a), u[2] = z;
  const double h[3] = {fabs(u[0]) < 0.9 ? 1.0 : 0.0, fabs(u[0]) < 0.9 ? 0.0 : 1.0, 0.0};
  p[0] = h[1] * u[2] - h[2] * u[1], p[1] = h[2] * u[0] - h[0] * u[2],
  p[2] = h[0] * u[1] - h[1] * u[0];
  const double n = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  for (int k = 0; k < 3; k++) p[k] /= n;
  q[0] = u[1] * p[2] - u[2] * p[1], q[1] = u[2] * p[0] - u[0] * p[2],
  q[2] = u[0] * p[1] - u[1] * p[0];
}

static void study(gb_state *st, void *user) {
  const study_scene *sc = user;
  const double dist = (double)gb_arg_of(st, 0);
  const double step = 5000.0 / 3.6 / 60.0; /* the seed's bullet: metres per update */
  tally recipe = {0, 0, 0, 0}, robust = {0, 0, 0, 0};
  uint64_t violations = 0;
  double band_max = 0;
  while (gb_keep_running(st)) {
    uint64_t rng = 1234 + (uint64_t)dist;
    recipe = robust = (tally){0, 0, 0, 0};
    violations = 0, band_max = 0;
    for (int i = 0; i < SAMPLES; i++) {
      double u[3], p[3], q[3];
      frame(&rng, u, p, q);
      const double reach = 2.0 * (sc->radius + sc->mover);
      const double off = reach * sqrt(bench_uniform(&rng, 0, 1)),
                   angle = 6.283185307179586 * bench_uniform(&rng, 0, 1);
      double start[3] = {0, 0, 0}, center[3], aim[3];
      for (int k = 0; k < 3; k++) {
        if (sc->kind[0] != 's') start[k] = bench_uniform(&rng, -1, 1);
        center[k] = start[k] + dist * u[k];
        aim[k] = dist * u[k] + off * (cos(angle) * p[k] + sin(angle) * q[k]);
      }
      const double an = sqrt(aim[0] * aim[0] + aim[1] * aim[1] + aim[2] * aim[2]);
      /* seed: the update whose segment passes the bottle; else one segment twice as long. */
      const double before = sc->kind[0] == 's' ? an - step * bench_uniform(&rng, 0, 1) : 0.0;
      const double length = sc->kind[0] == 's' ? step : 2.0 * dist;
      col_vec3 from, to;
      float *fp = &from.x, *tp = &to.x;
      for (int k = 0; k < 3; k++) {
        fp[k] = (float)(start[k] + aim[k] / an * before);
        tp[k] = (float)(start[k] + aim[k] / an * (before + length));
      }
      col_sphere s = {{(float)center[0], (float)center[1], (float)center[2]}, (float)sc->radius};
      s = col_sphere_inflate(s, (float)sc->mover);
      const sweep_exact x = sweep_exact_eval(from, to, s);
      const col_hit got = col_segment_sphere_robust(from, to, s);
      judge(&recipe, &x, col_segment_sphere(from, to, s));
      judge(&robust, &x, got);
      const char *why;
      violations += !sweep_within_bound(&x, s.radius, got, &why);
      if (got.hit != x.hit) {
        const double band = fabs(x.miss - s.radius) / (0x1p-24 * (x.dist + s.radius));
        if (band > band_max) band_max = band;
      }
    }
  }
  gb_counter(st, "recipe_wrong_fraction", (double)recipe.wrong / SAMPLES, GB_PLAIN);
  gb_counter(st, "recipe_false_hit_fraction", (double)recipe.false_hits / SAMPLES, GB_PLAIN);
  gb_counter(st, "recipe_miss_fraction", (double)recipe.misses / SAMPLES, GB_PLAIN);
  gb_counter(st, "recipe_t_error_max", recipe.t_error_max, GB_PLAIN);
  gb_counter(st, "robust_wrong_fraction", (double)robust.wrong / SAMPLES, GB_PLAIN);
  gb_counter(st, "robust_false_hit_fraction", (double)robust.false_hits / SAMPLES, GB_PLAIN);
  gb_counter(st, "robust_miss_fraction", (double)robust.misses / SAMPLES, GB_PLAIN);
  gb_counter(st, "robust_t_error_max", robust.t_error_max, GB_PLAIN);
  gb_counter(st, "robust_band_max", band_max, GB_PLAIN);
  gb_counter(st, "bound_violations", (double)violations, GB_PLAIN);
}

void bench_register_sweep_study(void);
void bench_register_sweep_study(void) {
  for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
    const study_scene *sc = &scenes[i];
    char name[80];
    snprintf(name, sizeof name, "sweepstat/%s/scalar/%s", sc->kind, sc->label);
    gb_benchmark *b = gb_register(name, study, (void *)sc);
    for (int64_t d = sc->kind[0] == 'r' ? 1 : 10; d <= 10000; d *= 10) gb_arg(b, d);
    gb_iterations(b, 1);
  }
}
