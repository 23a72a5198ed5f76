/* splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
 * the one deterministic generator of the unit tests, the fuzzers' decoded fills and the
 * benchmark scenes. Changing it changes every randomized test's data, how the committed fuzz
 * corpora decode and the benchmark scenes (results would no longer compare with earlier ones). */
#ifndef COLLIDE_HARNESS_SPLITMIX64_H
#define COLLIDE_HARNESS_SPLITMIX64_H

#include <stdint.h>

/* The state's increment (2^64 / the golden ratio) and the first mixing multiplier; the
 * broadphase fuzzer's one-round variant is built from these two. */
#define SPLITMIX64_GAMMA UINT64_C(0x9E3779B97F4A7C15)
#define SPLITMIX64_MIX1  UINT64_C(0xBF58476D1CE4E5B9)

static inline uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += SPLITMIX64_GAMMA);
  z = (z ^ (z >> 30)) * SPLITMIX64_MIX1;
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

#endif
