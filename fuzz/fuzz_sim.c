/* Differential fuzz target: the seeds' simulations. The naive loops must match the header's
 * definition (written out here with the public single-pair functions), and the
 * broadphase-backed steps of the balls and of the platformer world must stay bit-identical to
 * the naive loops frame after frame; the statistics are checked as the header defines them
 * (added to what the caller passes; a naive step tests every pair and counts the definition's
 * collisions, no fallback; a broadphase step the same collisions in at most as many tests):
 * per input two registered broadphase algorithms picked by the scene seed (balls: one on
 * scalar, one that runs the backend's kernels on one more backend), both on one input in four
 * and one of them on the others, so that every input is cheap and the corpus covers them all.
 * Input: kind byte (even: balls, with kind / 2 picking the other backend; odd: world), n byte
 * (1..48), frames byte (1..12), a 32-bit scene seed, a speed byte (speeds up to byte / 4 per frame)
 * and a size byte (an input that ends before the n, frames or speed byte: 8 objects, 3 frames,
 * speed byte 16); then objects while the input lasts, the rest from the seed: balls x, y, vx, vy,
 * radius; entities min x, min y, width, height, vx, vy (tagged floats, radii and sizes made
 * non-negative, except that a world input whose kind byte has bit 1 set keeps the sizes' signs:
 * inverted boxes, legal input, whose negative sides once made the world's margins negative).
 * A world input whose kind byte has bit 2 set turns the sweep for fast movers on
 * (col_world.sweep_above), the threshold picked by bits 3-4: 1/2, 1/4, 1 or 1/64 of a side. */
#include "sim/oracle.h"
#include "sim/sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "sim";

/* sim.c's number of wild objects past which all pairs are tested. */
extern size_t col__sim_wild_max;

/* The registered algorithms (col_broadphase_at), and which of them run the backend's kernels. */
enum { MAX_ALG = 32 };
static col_broadphase algorithms[MAX_ALG], backend_algorithms[MAX_ALG];
static size_t NALG, NBACKEND_ALG;

static void list_algorithms(void) {
  if (NALG > 0) return;
  col_broadphase_info info;
  for (size_t i = 0; i < col_broadphase_count() && i < MAX_ALG; i++)
    if (col_broadphase_at(i, &info)) {
      algorithms[NALG++] = info.algorithm;
      if (info.uses_backend) backend_algorithms[NBACKEND_ALG++] = info.algorithm;
    }
}

static float unit(uint64_t *state) { return (float)(splitmix64(state) >> 40) * 0x1p-24f; }

static float next(fz_reader *r, uint64_t *seed, float lo, float hi) {
  return r->n > 0 ? fz_float(r) : lo + (hi - lo) * unit(seed);
}

static _Noreturn void differ(const char *what, const char *backend, col_broadphase alg, int frame,
                             size_t n) {
  col_broadphase_info info = {"?", alg, false, false, false};
  col_broadphase_at((size_t)alg, &info);
  fprintf(stderr,
          "fuzz sim: %s, %zu objects, frame %d: the broadphase step (algorithm %s, "
          "backend %s) differs from the naive loop\n",
          what, n, frame, info.name, backend);
  fz_fail();
}

/* Equal bits, or both NaN (the header promises no NaN payload for positions). */
FZ_ORACLE static bool same_floats(const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(a[i] != a[i] && b[i] != b[i])) return false;
  return true;
}

/* A naive step: every pair tested (`every_pair` tests), the oracle's collisions, no fallback.
 * A broadphase step: the same collisions, in at least that many and at most every pair's tests
 * (fallbacks have no oracle: only that they were added to). */
static void check_stats(const char *what, bool naive, int frame, size_t n, col_sim_stats got,
                        uint64_t every_pair, uint64_t contacts) {
  const uint64_t tests = got.tests - STATS_BEFORE.tests;
  const bool ok =
      got.contacts - STATS_BEFORE.contacts == contacts &&
      (naive ? tests == every_pair && got.fallbacks == STATS_BEFORE.fallbacks
             : tests <= every_pair && tests >= contacts && got.fallbacks >= STATS_BEFORE.fallbacks);
  if (ok) return;
  fprintf(stderr,
          "fuzz sim: %s, %zu objects, frame %d: the %s step's statistics added tests %llu, "
          "contacts %llu, fallbacks %llu (the caller's %llu, %llu, %llu kept); expected tests "
          "%s %llu, contacts %llu%s\n",
          what, n, frame, naive ? "naive" : "broadphase", (unsigned long long)tests,
          (unsigned long long)(got.contacts - STATS_BEFORE.contacts),
          (unsigned long long)(got.fallbacks - STATS_BEFORE.fallbacks),
          (unsigned long long)STATS_BEFORE.tests, (unsigned long long)STATS_BEFORE.contacts,
          (unsigned long long)STATS_BEFORE.fallbacks,
          naive ? "==" : "<=", (unsigned long long)every_pair, (unsigned long long)contacts,
          naive ? ", fallbacks 0" : "");
  fz_fail();
}

static void run_balls(fz_reader *r, size_t n, int frames, uint64_t seed, float speed, float size,
                      uint8_t backend_pick, uint64_t pick) {
  col_balls ref;
  if (col_balls_create(n, 16 * size, 12 * size, &ref) != COL_OK) abort();
  for (size_t i = 0; i < n; i++) {
    ref.x[i] = next(r, &seed, 0, ref.width), ref.y[i] = next(r, &seed, 0, ref.height);
    ref.vx[i] = next(r, &seed, -speed, speed), ref.vy[i] = next(r, &seed, -speed, speed);
    ref.radius[i] = fabsf(next(r, &seed, 0.5f, size));
  }
  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, COL_KERNEL_ALL);
  /* Every algorithm on scalar, then the algorithms that run the backend's kernels on one other
   * backend, picked by the input. */
  const char *other = names[nb > 1 ? 1 + backend_pick % (nb - 1) : 0];
  /* Two broadphase runs (the corpus covers them all): one algorithm on scalar and one that
   * runs the backend's kernels on the other backend, both picked by the scene seed; one of the
   * two, picked by the hash, on three inputs of four (each run is a third of an input's time). */
  enum { runs = 2 };
  const bool both = (pick >> 26 & 3) == 0;
  const col_broadphase picked[runs] = {algorithms[(seed >> 24) % NALG],
                                       backend_algorithms[(seed >> 16) % NBACKEND_ALG]};
  col_balls bp[runs];
  for (size_t k = 0; k < runs; k++) {
    if (col_balls_create(n, ref.width, ref.height, &bp[k]) != COL_OK) abort();
    fs_balls_copy(&bp[k], &ref);
  }
  col_balls own;
  if (col_balls_create(n, ref.width, ref.height, &own) != COL_OK) abort();
  fs_balls_copy(&own, &ref);
  const int starve_frame = (pick & 3) == 0 ? (int)((pick >> 16) % (unsigned)frames) : -1;
  for (int frame = 0; frame < frames; frame++) {
    fz_select(names[0]);
    col_balls before = {0};
    if (frame == starve_frame) {
      if (col_balls_create(n, ref.width, ref.height, &before) != COL_OK) abort();
      fs_balls_copy(&before, &ref);
    }
    col_sim_stats naive = STATS_BEFORE;
    if (col_balls_step(&ref, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, &naive) != COL_OK) abort();
    if (frame == starve_frame) {
      fs_balls_starved(&before, &ref, picked[pick >> 20 & 1], pick, frame);
      col_balls_destroy(&before);
    }
    const uint64_t contacts = fs_balls_oracle(&own), every_pair = (uint64_t)n * (n - 1) / 2;
    if (!same_floats(ref.x, own.x, n) || !same_floats(ref.y, own.y, n) ||
        !same_floats(ref.vx, own.vx, n) || !same_floats(ref.vy, own.vy, n)) {
      fprintf(stderr,
              "fuzz sim: balls, %zu, frame %d: the naive step differs from sims.h's "
              "definition (written in the fuzzer)\n",
              n, frame);
      fz_fail();
    }
    check_stats("balls", true, frame, n, naive, every_pair, contacts);
    for (size_t k = 0; k < runs; k++) {
      if (!both && k != (size_t)(pick >> 25 & 1)) continue;
      const char *backend = k == 0 ? names[0] : other;
      const col_broadphase alg = picked[k];
      fz_select(backend);
      /* stats may be NULL: the second run passes NULL on every third frame */
      col_sim_stats stats = STATS_BEFORE;
      const bool counted = k == 0 || frame % 3 != 2;
      if (col_balls_step(&bp[k], COL_SIM_BROADPHASE, alg, counted ? &stats : NULL) != COL_OK)
        abort();
      const size_t bytes = n * sizeof(float);
      if (memcmp(ref.x, bp[k].x, bytes) || memcmp(ref.y, bp[k].y, bytes) ||
          memcmp(ref.vx, bp[k].vx, bytes) || memcmp(ref.vy, bp[k].vy, bytes))
        differ("balls", backend, alg, frame, n);
      if (counted) check_stats("balls", false, frame, n, stats, every_pair, contacts);
    }
  }
  for (size_t k = 0; k < runs; k++) col_balls_destroy(&bp[k]);
  col_balls_destroy(&own);
  col_balls_destroy(&ref);
}

static void run_world(fz_reader *r, size_t n, int frames, uint64_t seed, float speed, float size,
                      bool inverted, float sweep_above, uint64_t pick) {
  col_world ref;
  if (col_world_create(n, (col_vec2){0, 0.25f * speed}, &ref) != COL_OK) abort();
  ref.sweep_above = sweep_above; /* fs_world_copy carries it to every copy */
  for (size_t i = 0; i < n; i++) {
    const float x = next(r, &seed, 0, 12 * size), y = next(r, &seed, 0, 9 * size);
    float w = next(r, &seed, 1, size), h = next(r, &seed, 1, size);
    if (!inverted) w = fabsf(w), h = fabsf(h);
    ref.box[i] = (col_aabb2){{x, y}, {x + w, y + h}};
    ref.velocity[i] = (col_vec2){next(r, &seed, -speed, speed), next(r, &seed, -speed, speed)};
    ref.weight[i] = i % 3 == 0 ? 0.0f : 1.0f;
  }
  /* Two broadphase algorithms, picked by the scene seed, on scalar; one of the two, picked by
   * the hash, on three inputs of four. */
  enum { runs = 2 };
  const bool both = (pick >> 26 & 3) == 0;
  const col_broadphase picked[runs] = {algorithms[(seed >> 24) % NALG],
                                       algorithms[(seed >> 12) % NALG]};
  fz_select("scalar");
  col_world bp[runs];
  for (size_t k = 0; k < runs; k++) {
    if (col_world_create(n, ref.gravity, &bp[k]) != COL_OK) abort();
    fs_world_copy(&bp[k], &ref);
  }
  col_world own;
  if (col_world_create(n, ref.gravity, &own) != COL_OK) abort();
  fs_world_copy(&own, &ref);
  const int starve_frame = (pick & 3) == 0 ? (int)((pick >> 16) % (unsigned)frames) : -1;
  /* One swept input in four has the oracle sweep every box, as sims.h says; the others only
   * the boxes the open rule can hit (oracle.c: the sweeps are most of such an input's time). */
  const bool every_sweep = (pick >> 28 & 3) == 0;
  for (int frame = 0; frame < frames; frame++) {
    col_world before = {0};
    if (frame == starve_frame) {
      if (col_world_create(n, ref.gravity, &before) != COL_OK) abort();
      fs_world_copy(&before, &ref);
    }
    col_sim_stats naive = STATS_BEFORE;
    if (col_world_step(&ref, 0.5f, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, &naive) != COL_OK) abort();
    if (frame == starve_frame) {
      fs_world_starved(&before, &ref, picked[pick >> 20 & 1], pick, frame);
      col_world_destroy(&before);
    }
    const uint64_t contacts = fs_world_oracle(&own, 0.5f, NULL, every_sweep),
                   every_pair = (uint64_t)n * (n - 1);
    if (!same_floats((const float *)ref.box, (const float *)own.box, 4 * n) ||
        !same_floats((const float *)ref.velocity, (const float *)own.velocity, 2 * n)) {
      fprintf(stderr,
              "fuzz sim: world, %zu, frame %d: the naive step differs from sims.h's "
              "definition (written in the fuzzer)\n",
              n, frame);
      fz_fail();
    }
    check_stats("world", true, frame, n, naive, every_pair, contacts);
    for (size_t k = 0; k < runs; k++) {
      if (!both && k != (size_t)(pick >> 25 & 1)) continue;
      col_sim_stats stats = STATS_BEFORE;
      const bool counted = k == 0 || frame % 3 != 2;
      if (col_world_step(&bp[k], 0.5f, COL_SIM_BROADPHASE, picked[k], counted ? &stats : NULL) !=
          COL_OK)
        abort();
      if (memcmp(ref.box, bp[k].box, n * sizeof *ref.box) ||
          memcmp(ref.velocity, bp[k].velocity, n * sizeof *ref.velocity))
        differ("world", "scalar", picked[k], frame, n);
      if (counted) check_stats("world", false, frame, n, stats, every_pair, contacts);
    }
  }
  for (size_t k = 0; k < runs; k++) col_world_destroy(&bp[k]);
  col_world_destroy(&own);
  col_world_destroy(&ref);
}

/* The world's sweep thresholds (col_world.sweep_above) an input picks from. */
static const float sweep_thresholds[4] = {0.5f, 0.25f, 1.0f, 0x1p-6f};

static uint8_t or_default(fz_reader *r, uint8_t missing) { return r->n > 0 ? fz_u8(r) : missing; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  list_algorithms();
  fz_reader r = {data, size};
  /* A short input still moves several objects over a few frames (its missing header bytes read
   * as 8 objects, 3 frames, speed 4), so the first inputs of a run from an empty corpus reach
   * the allocation failures with something that a wrong error path would move. */
  const uint8_t kind = fz_u8(&r), n_byte = or_default(&r, 7), frames_byte = or_default(&r, 2);
  const size_t n = 1 + n_byte % 48;
  const int frames = 1 + frames_byte % 12;
  uint64_t pick =
      size ^ (uint64_t)kind << 32 ^ (uint64_t)n_byte << 40 ^ (uint64_t)frames_byte << 48;
  pick = splitmix64(&pick);
  /* One input in four turns every remaining pair wild after two wild objects (the mode that
   * 1,024 wild objects start, beyond this target's 48). */
  col__sim_wild_max = (pick >> 62) == 0 ? 2 : 1024;
  const uint64_t seed = fz_u32(&r);
  const float speed = (float)or_default(&r, 16) / 4.0f, scale = 2.0f + (float)(fz_u8(&r) % 32);
  if (kind % 2 == 0)
    run_balls(&r, n, frames, seed, speed, scale, (uint8_t)(kind >> 1), pick);
  else
    run_world(&r, n, frames, seed, speed, scale, (kind >> 1 & 1) != 0,
              (kind >> 2 & 1) ? sweep_thresholds[kind >> 3 & 3] : 0.0f, pick);
  return 0;
}
