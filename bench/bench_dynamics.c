/* The seed dynamics' benchmarks.
 * - circle/seed|squared/<backend>/uniform/N: the overlap batch over N pairs (SoA), pairs drawn
 *   around the touching distance so that both outcomes are common; items are pairs.
 * - elastic/axes|normal/<backend>/uniform/N: the response batch over N pairs, including the
 *   copy of their fresh velocities (the batch works in place; 16 bytes per pair).
 * - sim/balls-<pairing>/<backend>/uniform/N and sim/world-<pairing>/<backend>/platforms/N: one
 *   frame per iteration of the bouncing balls (radii 2-6, speeds up to 1 per frame, about 8%
 *   of the box covered) and of the platformer world (a quarter static platforms 30 x 4, the
 *   rest 8 x 8 boxes falling under gravity 0.3, on a floor), naive ("naive", the seeds' loop;
 *   scalar only: it uses no backend) or broadphase-backed (every registered algorithm's
 *   candidates: on each native backend when the algorithm runs the backend's kernels, else
 *   once, as "scalar"). Items are objects; counters give the
 *   narrow-phase tests and contacts per frame and the objects that turned wild. The naive loop
 *   and the brute-force broadphase (both quadratic) stop at the suite's quadratic_max.
 * - circlestat/boundary/scalar/ulps16/E: not a timing; its counters measure how often the seed's
 *   test and the squared form disagree, and which matches the exact answer, on 100,000 pairs
 *   at centre distance (r1 + r2)(1 + k 2^-24), |k| <= 16, centred near 2^E. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Kernel batches ---- */

typedef struct circle_data {
  size_t n;
  float *f[10]; /* ax ay ar bx by br avx avy bvx bvy */
  float *m[2];
} circle_data;

static circle_data cdata;

static void fill_circles(size_t n) {
  if (cdata.n >= n) return;
  for (int k = 0; k < 10; k++) free(cdata.f[k]);
  for (int k = 0; k < 2; k++) free(cdata.m[k]);
  for (int k = 0; k < 10; k++) cdata.f[k] = bench_alloc(n * sizeof(float));
  for (int k = 0; k < 2; k++) cdata.m[k] = bench_alloc(n * sizeof(float));
  uint64_t rng = 31;
  for (size_t i = 0; i < n; i++) {
    const float ar = bench_uniform(&rng, 1, 10), br = bench_uniform(&rng, 1, 10);
    const float angle = bench_uniform(&rng, 0, 6.2831853f);
    const float d = (ar + br) * bench_uniform(&rng, 0.8f, 1.2f);
    cdata.f[0][i] = bench_uniform(&rng, 0, 1000), cdata.f[1][i] = bench_uniform(&rng, 0, 1000);
    cdata.f[2][i] = ar, cdata.f[5][i] = br;
    cdata.f[3][i] = cdata.f[0][i] + d * cosf(angle),
    cdata.f[4][i] = cdata.f[1][i] + d * sinf(angle);
    for (int k = 6; k < 10; k++) cdata.f[k][i] = bench_uniform(&rng, -5, 5);
    cdata.m[0][i] = ar, cdata.m[1][i] = br;
  }
  cdata.n = n;
}

static void run_overlap(gb_state *st, const char *backend, col_circle_test test) {
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  fill_circles(n);
  uint8_t *hit = bench_alloc(n);
  const col_circle_soa a = {cdata.f[0], cdata.f[1], cdata.f[2], n};
  const col_circle_soa b = {cdata.f[3], cdata.f[4], cdata.f[5], n};
  col_status all = COL_OK;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    all |= col_circle_overlap_batch(&a, &b, test, hit);
    gb_do_not_optimize(hit);
  }
  const uint64_t ticks = bench_tsc() - t0;
  size_t hits = 0;
  for (size_t i = 0; i < n; i++) hits += hit[i];
  free(hit);
  if (all != COL_OK) {
    gb_skip(st, "batch failed");
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
  gb_counter(st, "hit_fraction", (double)hits / (double)n, GB_PLAIN);
}

static void run_elastic(gb_state *st, const char *backend, col_elastic_rule rule) {
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  fill_circles(n);
  float *v[4];
  for (int k = 0; k < 4; k++) v[k] = bench_alloc(n * sizeof(float));
  col_ball_soa a = {cdata.f[0], cdata.f[1], v[0], v[1], cdata.m[0], n};
  col_ball_soa b = {cdata.f[3], cdata.f[4], v[2], v[3], cdata.m[1], n};
  col_status all = COL_OK;
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st)) {
    /* Fresh velocities every time (the batch works in place): the copy is timed too. */
    for (int k = 0; k < 4; k++) memcpy(v[k], cdata.f[6 + k], n * sizeof(float));
    all |= col_elastic_batch(&a, &b, rule);
    gb_do_not_optimize(v[0]);
  }
  const uint64_t ticks = bench_tsc() - t0;
  for (int k = 0; k < 4; k++) free(v[k]);
  if (all != COL_OK) {
    gb_skip(st, "batch failed");
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
}

static void overlap_seed(gb_state *st, void *user) { run_overlap(st, user, COL_CIRCLE_SEED); }
static void overlap_squared(gb_state *st, void *user) { run_overlap(st, user, COL_CIRCLE_SQUARED); }
static void elastic_axes(gb_state *st, void *user) { run_elastic(st, user, COL_ELASTIC_AXES); }
static void elastic_normal(gb_state *st, void *user) { run_elastic(st, user, COL_ELASTIC_NORMAL); }

/* ---- The seed test against the squared form near the boundary ---- */

static bool exact_overlap(float ax, float ay, float ar, float bx, float by, float br) {
  const __float128 dx = (__float128)ax - bx, dy = (__float128)ay - by, r = (__float128)ar + br;
  return r > 0 && dx * dx + dy * dy < r * r;
}

static void boundary(gb_state *st, void *user) {
  (void)user;
  const int e = (int)gb_arg_of(st, 0);
  enum { SAMPLES = 100000 };
  uint64_t disagree = 0, seed_wrong = 0, squared_wrong = 0, box_decided = 0;
  uint64_t rng = 77 + (uint64_t)e;
  while (gb_keep_running(st)) {
    disagree = seed_wrong = squared_wrong = box_decided = 0;
    for (int s = 0; s < SAMPLES; s++) {
      const float ar = bench_uniform(&rng, 0.5f, 50), br = bench_uniform(&rng, 0.5f, 50);
      const float angle = bench_uniform(&rng, 0, 6.2831853f);
      const int k = (int)(bench_next(&rng) % 33) - 16;
      const double d = ((double)ar + br) * (1.0 + k * 0x1p-24);
      const float ax = ldexpf(bench_uniform(&rng, 1, 2), e),
                  ay = ldexpf(bench_uniform(&rng, 1, 2), e);
      const float bx = (float)(ax + d * cos(angle)), by = (float)(ay + d * sin(angle));
      const col_circle a = {{ax, ay}, ar}, b = {{bx, by}, br};
      const bool seed = col_circle_overlap(a, b), squared = col_circle_overlap_squared(a, b);
      const bool exact = exact_overlap(ax, ay, ar, bx, by, br);
      disagree += seed != squared, seed_wrong += seed != exact, squared_wrong += squared != exact;
      const float dx = ax - bx, dy = ay - by;
      box_decided += seed != exact && !seed && sqrtf(dx * dx + dy * dy) < ar + br;
    }
  }
  gb_counter(st, "disagree_fraction", (double)disagree / SAMPLES, GB_PLAIN);
  gb_counter(st, "seed_wrong_fraction", (double)seed_wrong / SAMPLES, GB_PLAIN);
  gb_counter(st, "squared_wrong_fraction", (double)squared_wrong / SAMPLES, GB_PLAIN);
  gb_counter(st, "box_decided_fraction", (double)box_decided / SAMPLES, GB_PLAIN);
}

/* ---- Simulations, one frame per iteration ---- */

static void balls_scene(col_balls *b, size_t n) {
  uint64_t rng = 91;
  for (size_t i = 0; i < n; i++) {
    b->radius[i] = bench_uniform(&rng, 2, 6);
    b->x[i] = bench_uniform(&rng, b->radius[i], b->width - b->radius[i]);
    b->y[i] = bench_uniform(&rng, b->radius[i], b->height - b->radius[i]);
    b->vx[i] = bench_uniform(&rng, -1, 1), b->vy[i] = bench_uniform(&rng, -1, 1);
  }
}

static void world_scene(col_world *w, size_t n, float side) {
  uint64_t rng = 92;
  w->box[0] = (col_aabb2){{-10, side}, {side + 10, side + 20}}, w->weight[0] = 0; /* the floor */
  for (size_t i = 1; i < n; i++) {
    const float x = bench_uniform(&rng, 0, side), y = bench_uniform(&rng, 0, side);
    const bool platform = i % 4 == 0;
    w->box[i] =
        platform ? (col_aabb2){{x, y}, {x + 30, y + 4}} : (col_aabb2){{x, y}, {x + 8, y + 8}};
    w->weight[i] = platform ? 0.0f : 1.0f;
    w->velocity[i] = platform ? (col_vec2){0, 0} : (col_vec2){bench_uniform(&rng, -2, 2), 0};
  }
}

typedef struct sim_case {
  bool world;
  col_sim_pairs pairing;
  col_broadphase algorithm;
} sim_case;

/* The state after the first frame, per simulation and N. That frame is the costly one (the
 * objects start overlapping: at 65,536 balls over a thousand turn wild and every pair is
 * tested, seconds where a later frame takes milliseconds), and every pairing, algorithm and
 * backend steps to the same bits (the steps are bit-identical to the naive loop): it is
 * computed once per (simulation, N) and copied, not again by every benchmark and every call
 * Google Benchmark makes. */
enum { MAX_FIRST_FRAMES = 2 * 12 };
static struct first_frame {
  bool world;
  size_t n;
  void *bytes; /* balls: x, y, vx, vy, radius; world: box, velocity, weight */
} first_frames[MAX_FIRST_FRAMES];

/* The arrays of a simulation's state, with their sizes in bytes. */
static size_t state_arrays(bool world, col_balls *balls, col_world *w, void *arrays[5],
                           size_t sizes[5]) {
  const size_t n = world ? w->count : balls->count;
  if (world) {
    arrays[0] = w->box, arrays[1] = w->velocity, arrays[2] = w->weight;
    sizes[0] = n * sizeof *w->box, sizes[1] = n * sizeof *w->velocity;
    sizes[2] = n * sizeof *w->weight;
    return 3;
  }
  float *f[5] = {balls->x, balls->y, balls->vx, balls->vy, balls->radius};
  for (int k = 0; k < 5; k++) arrays[k] = f[k], sizes[k] = n * sizeof(float);
  return 5;
}

/* Copies the state between the simulation and `bytes` (to_sim: into the simulation). */
static void copy_state(bool world, col_balls *balls, col_world *w, void *bytes, bool to_sim) {
  void *arrays[5];
  size_t sizes[5];
  const size_t count = state_arrays(world, balls, w, arrays, sizes);
  char *at = bytes;
  for (size_t k = 0; k < count; k++) {
    memcpy(to_sim ? arrays[k] : at, to_sim ? at : arrays[k], sizes[k]);
    at += sizes[k];
  }
}

/* Brings a freshly filled simulation to the end of its first frame: from the copy, or by
 * stepping it (then kept). */
static col_status first_frame(const sim_case *c, col_balls *balls, col_world *w) {
  const size_t n = c->world ? w->count : balls->count;
  size_t i = 0;
  while (i < MAX_FIRST_FRAMES && first_frames[i].bytes != NULL &&
         (first_frames[i].world != c->world || first_frames[i].n != n))
    i++;
  if (i < MAX_FIRST_FRAMES && first_frames[i].bytes != NULL) {
    copy_state(c->world, balls, w, first_frames[i].bytes, true);
    return COL_OK;
  }
  const col_status st = c->world ? col_world_step(w, 1.0f, c->pairing, c->algorithm, NULL)
                                 : col_balls_step(balls, c->pairing, c->algorithm, NULL);
  if (st != COL_OK || i == MAX_FIRST_FRAMES) return st;
  void *arrays[5];
  size_t sizes[5], total = 0;
  const size_t count = state_arrays(c->world, balls, w, arrays, sizes);
  for (size_t k = 0; k < count; k++) total += sizes[k];
  first_frames[i] = (struct first_frame){c->world, n, bench_alloc(total)};
  copy_state(c->world, balls, w, first_frames[i].bytes, false);
  return COL_OK;
}

static void run_sim(gb_state *st, const char *backend, const sim_case *c) {
  const size_t n = (size_t)gb_arg_of(st, 0);
  if (!bench_select(st, backend)) return;
  const float side = sqrtf((float)n * (c->world ? 400.0f : 200.0f));
  col_balls balls;
  col_world world;
  col_status all = c->world ? col_world_create(n, (col_vec2){0, 0.3f}, &world)
                            : col_balls_create(n, side, side, &balls);
  if (all != COL_OK) {
    gb_skip(st, "out of memory");
    return;
  }
  if (c->world)
    world_scene(&world, n, side);
  else
    balls_scene(&balls, n);
  /* Three frames to settle (entities start to fall, balls to meet), then one frame per
   * iteration (Google Benchmark calls this function more than once: keep the setup short).
   * The first frame comes from its copy; the other two run here, so that the working memory
   * the simulation keeps has its size before the timed frames. */
  col_sim_stats stats = {0, 0, 0};
  all |= first_frame(c, &balls, &world);
  for (int f = 1; f < 3; f++)
    all |= c->world ? col_world_step(&world, 1.0f, c->pairing, c->algorithm, NULL)
                    : col_balls_step(&balls, c->pairing, c->algorithm, NULL);
  const uint64_t t0 = bench_tsc();
  while (gb_keep_running(st))
    all |= c->world ? col_world_step(&world, 1.0f, c->pairing, c->algorithm, &stats)
                    : col_balls_step(&balls, c->pairing, c->algorithm, &stats);
  const uint64_t ticks = bench_tsc() - t0;
  if (c->world)
    col_world_destroy(&world);
  else
    col_balls_destroy(&balls);
  if (all != COL_OK) {
    gb_skip(st, "step failed");
    return;
  }
  bench_finish(st, (int64_t)n, ticks);
  const double frames = (double)gb_iteration_count(st);
  gb_counter(st, "tests_per_frame", (double)stats.tests / frames, GB_PLAIN);
  gb_counter(st, "contacts_per_frame", (double)stats.contacts / frames, GB_PLAIN);
  gb_counter(st, "fallback_fraction", (double)stats.fallbacks / frames, GB_PLAIN);
  gb_counter(st, "kcycles_per_frame", (double)ticks / frames / 1024.0, GB_PLAIN);
}

/* The cases: per simulation the naive loop and every registered broadphase algorithm. */
enum { MAX_SIM_CASES = 2 * 33 };
static sim_case sim_cases[MAX_SIM_CASES];

typedef struct sim_registration {
  const sim_case *c;
  const char *backend;
} sim_registration;

static sim_registration registrations[MAX_SIM_CASES * BENCH_MAX_BACKENDS];

static void sim_fn(gb_state *st, void *user) {
  const sim_registration *r = user;
  run_sim(st, r->backend, r->c);
}

void bench_register_dynamics(void);
void bench_register_dynamics(void) {
  bench_register(COL_KERNEL_CIRCLE, "circle", "seed", "uniform", overlap_seed, false);
  bench_register(COL_KERNEL_CIRCLE, "circle", "squared", "uniform", overlap_squared, false);
  bench_register(COL_KERNEL_ELASTIC, "elastic", "axes", "uniform", elastic_axes, false);
  bench_register(COL_KERNEL_ELASTIC, "elastic", "normal", "uniform", elastic_normal, false);
  gb_benchmark *b = gb_register("circlestat/boundary/scalar/ulps16", boundary, NULL);
  for (int e = 0; e <= 24; e += 4) gb_arg(b, e);
  gb_iterations(b, 1);

  size_t cases = 0;
  for (int world = 0; world < 2; world++) {
    sim_cases[cases++] = (sim_case){world != 0, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE};
    for (size_t a = 0; a < col_broadphase_count() && cases < MAX_SIM_CASES; a++) {
      col_broadphase_info info;
      if (col_broadphase_at(a, &info))
        sim_cases[cases++] = (sim_case){world != 0, COL_SIM_BROADPHASE, info.algorithm};
    }
  }
  /* The naive loop uses no backend (scalar only); an algorithm that runs the backend's kernels
   * on every native backend, the others once (scalar). */
  col_backend_info backends[BENCH_MAX_BACKENDS];
  const size_t nb = bench_kernel_backends(backends, BENCH_MAX_BACKENDS, COL_KERNEL_ALL);
  size_t used = 0;
  for (size_t c = 0; c < cases; c++)
    for (size_t k = 0; k < nb; k++) {
      const bool naive = sim_cases[c].pairing == COL_SIM_NAIVE;
      col_broadphase_info info = {"?", sim_cases[c].algorithm, false, true, true};
      col_broadphase_at((size_t)sim_cases[c].algorithm, &info);
      const bool per_backend = !naive && info.uses_backend;
      if (!per_backend && strcmp(backends[k].name, "scalar") != 0) continue;
      registrations[used] = (sim_registration){&sim_cases[c], backends[k].name};
      char name[160];
      snprintf(name, sizeof name, "sim/%s-%s/%s/%s", sim_cases[c].world ? "world" : "balls",
               naive ? "naive" : info.name, backends[k].name,
               sim_cases[c].world ? "platforms" : "uniform");
      gb_benchmark *g = gb_register(name, sim_fn, &registrations[used++]);
      const bool quadratic = naive || sim_cases[c].algorithm == COL_BROADPHASE_BRUTE;
      for (const int64_t *s = bench_active_suite->sim_counts; *s != 0; s++)
        if (!quadratic || *s <= bench_active_suite->quadratic_max) gb_arg(g, *s);
      gb_unit(g, GB_US);
    }
}
