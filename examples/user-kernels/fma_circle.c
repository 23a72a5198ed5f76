/* A user backend that is right or wrong depending only on how it is compiled: the circle
 * overlap batch written with exactly the reference's formulas (core/src/circle_ref.h, the
 * seed's test and the squared form), in plain C, registered as "user:fma-circle".
 *
 *   make fuzz USER_KERNELS=examples/user-kernels/fma_circle.c FUZZ_TARGETS=circle
 *       agrees with the reference bit for bit (the harness compiles user files with
 *       -ffp-contract=off, like collide itself);
 *   make fuzz USER_KERNELS=examples/user-kernels/fma_circle.c FUZZ_TARGETS=circle \
 *             USER_CFLAGS='-mfma -ffp-contract=fast'
 *       lets the compiler contract dx*dx + dy*dy into fma(dx, dx, dy*dy), which rounds once
 *       instead of twice: the sum moves by an ulp now and then, and for circles whose centre
 *       distance is r1 + r2 within a few ulps (touching, or nearly) the answer changes. The
 *       circle fuzzer's near-touching pairs (docs/fuzzing-targets.md, `circle`) find it within seconds.
 *
 * Only the overlap slot is filled: the elastic responses' a*b + c*d would contract as well and
 * differ on most velocities with full significands (6 in 10 random pairs, measured), which the
 * fuzzer meets at once and which shows nothing about reaching the boundary. */
#include <collide.h>

#include <math.h>

/* Boxes of side 2r around both centres overlap (strictly, in the seed's sums), then the centre
 * distance sqrtf(dx*dx + dy*dy) < r1 + r2. */
static bool seed(float ax, float ay, float ar, float bx, float by, float br) {
  const bool boxes = ((ax + ar) + br > bx) && (ax < (bx + ar) + br) && ((ay + ar) + br > by) &&
                     (ay < (by + ar) + br);
  if (!boxes) return false;
  const float dx = ax - bx, dy = ay - by;
  return sqrtf(dx * dx + dy * dy) < ar + br;
}

/* dx*dx + dy*dy < (r1 + r2)^2, no box check, no square root. */
static bool squared(float ax, float ay, float ar, float bx, float by, float br) {
  const float dx = ax - bx, dy = ay - by, r = ar + br;
  return dx * dx + dy * dy < r * r;
}

static void overlap_batch(size_t n, const col_circle_soa *a, const col_circle_soa *b,
                          col_circle_test test, uint8_t *hit) {
  for (size_t i = 0; i < n; i++)
    hit[i] = test == COL_CIRCLE_SEED
                 ? seed(a->x[i], a->y[i], a->r[i], b->x[i], b->y[i], b->r[i])
                 : squared(a->x[i], a->y[i], a->r[i], b->x[i], b->y[i], b->r[i]);
}

col_status col_user_register(void) {
  const col_user_backend mine = {
      .version = COL_USER_VERSION,
      .name = "fma-circle",
      .width = 1,
      .kernels = {.circle_overlap_batch = overlap_batch},
  };
  return col_backend_register(&mine);
}
