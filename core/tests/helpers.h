/* Shared test helpers: bit views of floats, guard-page buffers, a seeded PRNG (splitmix64,
 * harness/splitmix64.h: the fuzzers and benchmark scenes draw from the same one). */
#ifndef COLLIDE_TEST_HELPERS_H
#define COLLIDE_TEST_HELPERS_H

#include "collide.h"
#include "splitmix64.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

static inline uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* Bit-exact float assertion (no tolerance): -0.0 != +0.0, and NaN payloads matter. */
#define assert_float_bits(actual, expected, ...)                                                   \
  cr_assert_eq(fbits(actual), fbits(expected), "%s: got %a (0x%08x), want %a (0x%08x)", #actual,   \
               (double)(actual), fbits(actual), (double)(expected), fbits(expected))

/* A buffer of `bytes` whose end touches an inaccessible page, so that reading or writing one
 * byte past it faults (libdeflate's trick). Must be released with guard_free. */
void *guard_alloc(size_t bytes);
void guard_free(void *p, size_t bytes);

/* A float array of n elements ending at a guard page. */
static inline float *guard_floats(size_t n) { return (float *)guard_alloc(n * sizeof(float)); }

/* Row i of the broadphase registry (every test walks it: no list of algorithms here). */
static inline col_broadphase_info algorithm_at(size_t i) {
  col_broadphase_info info = {0};
  col_broadphase_at(i, &info);
  return info;
}

static inline uint32_t rand_below(uint64_t *state, uint32_t n) {
  return (uint32_t)(splitmix64(state) % n);
}

/* The batch lengths every batch test walks: 0..MAX_TAIL covers every SIMD tail up to
 * 512-bit vectors of floats (3 x 16 + 1). */
#define MAX_TAIL 49

#endif
