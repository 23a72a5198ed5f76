/* The sim target's seeds: each simulation slow, fast and dense.
 * Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

static void sim_file(const char *name, uint8_t kind, uint8_t n, uint8_t frames, uint32_t seed,
                     uint8_t speed, uint8_t scale) {
  enc e = {.n = 0};
  put8(&e, kind), put8(&e, n), put8(&e, frames), put32(&e, seed), put8(&e, speed), put8(&e, scale);
  save(&e, name);
}

void seeds_write(void) {
  sim_file("balls-slow", 0, 80, 24, 1, 4, 6);
  sim_file("balls-fast", 0, 60, 24, 2, 200, 4);
  sim_file("balls-dense", 0, 95, 12, 3, 20, 0);
  sim_file("world-platforms", 1, 60, 24, 4, 16, 10);
  sim_file("world-pile", 1, 90, 24, 5, 8, 0);
  sim_file("world-fast", 1, 40, 24, 6, 250, 3);
}
