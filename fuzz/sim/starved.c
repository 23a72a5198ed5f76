/* Allocation failures of the simulation target (one input of four, picked by a hash of the
 * input's length and first three bytes, so that the fuzzer can steer it): at one frame a fresh
 * copy of the scene is created with its k-th allocation failing (k from the hash), then fresh
 * copies are stepped with the broadphase, the first allocation of the step failing, then the
 * second, and so on until a step needs no more (a fresh copy allocates all its working memory):
 * every input that starves reaches every allocation of its step, so a wrong error path is found
 * in the first inputs that move anything. sims.h's promises are checked: a failed create leaves
 * *out untouched; a failed balls step leaves the balls and the statistics unchanged; a failed
 * world step leaves, for some entity k, the entities before k as the whole step leaves them and
 * those after k unchanged, and has added to the statistics the turns made so far (the
 * collisions of the entities before k and some of k's, at least as many tests, no count
 * lowered); a step that did not fail gives the naive step's bits. LeakSanitizer reports
 * whatever an error path does not free. */
#include "oracle.h"
#include "sim.h"

#include <stdlib.h>
#include <string.h>

/* Steps that allocate more often than this are starved at their first ones only. */
enum { MAX_STARVED = 64 };

static _Noreturn void starved(const char *what, size_t n, int frame, unsigned k, const char *call,
                              col_status st, const char *why) {
  fprintf(stderr,
          "fuzz sim: %s, %zu objects, frame %d, allocation %u of %s failing: status %d, %s\n", what,
          n, frame, k, call, (int)st, why);
  fz_fail();
}

void fs_balls_starved(const col_balls *before, const col_balls *after, col_broadphase alg,
                      uint64_t pick, int frame) {
  const size_t n = before->count, bytes = n * sizeof(float);
  unsigned k = (unsigned)(pick >> 8 & 15);
  col_balls b;
  unsigned char mark[sizeof b];
  memset(&b, 0xa5, sizeof b), memcpy(mark, &b, sizeof b);
  fz_fail_allocation((long)k);
  col_status st = col_balls_create(n, before->width, before->height, &b);
  bool failed = fz_allocation_failed();
  if (st == COL_ERR_MEMORY ? !failed || memcmp(&b, mark, sizeof b) != 0 : st != COL_OK)
    starved("balls", n, frame, k, "col_balls_create", st,
            "expected COL_OK, or COL_ERR_MEMORY with *out untouched");
  if (st == COL_OK) col_balls_destroy(&b);
  failed = true;
  for (k = 0; failed && k < MAX_STARVED; k++) {
    if (col_balls_create(n, before->width, before->height, &b) != COL_OK) abort();
    fs_balls_copy(&b, before);
    col_sim_stats stats = STATS_BEFORE;
    fz_fail_allocation((long)k);
    st = col_balls_step(&b, COL_SIM_BROADPHASE, alg, &stats);
    failed = fz_allocation_failed();
    const col_balls *want = st == COL_ERR_MEMORY ? before : after;
    if (st == COL_ERR_MEMORY ? !failed || memcmp(&stats, &STATS_BEFORE, sizeof stats) != 0
                             : st != COL_OK)
      starved("balls", n, frame, k, "col_balls_step", st,
              "expected COL_OK, or COL_ERR_MEMORY with the statistics unchanged");
    if (memcmp(b.x, want->x, bytes) || memcmp(b.y, want->y, bytes) ||
        memcmp(b.vx, want->vx, bytes) || memcmp(b.vy, want->vy, bytes))
      starved("balls", n, frame, k, "col_balls_step", st,
              st == COL_OK ? "the balls differ from the naive step"
                           : "the balls changed (sims.h: unchanged)");
    col_balls_destroy(&b);
  }
}

static bool same_entity(const col_world *a, const col_world *b, size_t i) {
  return memcmp(&a->box[i], &b->box[i], sizeof a->box[i]) == 0 &&
         memcmp(&a->velocity[i], &b->velocity[i], sizeof a->velocity[i]) == 0;
}

/* The statistics of a world step that failed part way: entity k is at most `first` (the
 * first entity without the whole step's bits: those before k have them) and at least `last`
 * (the last entity that changed: those after k are unchanged), so the collisions added lie
 * between those of the naive turns before `last` and those up to `first` (per_entity: the
 * naive step's collisions per turn); every collision took a test, and no count goes down. */
static void world_starved_stats(col_sim_stats got, const uint64_t *per_entity, size_t n,
                                size_t first, size_t last, int frame, unsigned k) {
  uint64_t low = 0, high = 0;
  for (size_t i = 0; i < n && i <= first; i++) {
    if (i < last) low += per_entity[i];
    high += per_entity[i];
  }
  const uint64_t contacts = got.contacts - STATS_BEFORE.contacts;
  const uint64_t tests = got.tests - STATS_BEFORE.tests;
  if (got.tests >= STATS_BEFORE.tests && got.contacts >= STATS_BEFORE.contacts &&
      got.fallbacks >= STATS_BEFORE.fallbacks && contacts >= low && contacts <= high &&
      tests >= contacts && tests <= (uint64_t)n * (n - 1))
    return;
  fprintf(stderr,
          "fuzz sim: world, %zu objects, frame %d, allocation %u of col_world_step failing: the "
          "statistics added tests %lld, contacts %lld, fallbacks %lld; expected contacts from "
          "%llu to %llu (the turns before entity %zu, up to entity %zu), tests from the contacts "
          "to %llu, nothing lowered\n",
          n, frame, k, (long long)(got.tests - STATS_BEFORE.tests), (long long)contacts,
          (long long)(got.fallbacks - STATS_BEFORE.fallbacks), (unsigned long long)low,
          (unsigned long long)high, last, first, (unsigned long long)n * (n - 1));
  fz_fail();
}

void fs_world_starved(const col_world *before, const col_world *after, col_broadphase alg,
                      uint64_t pick, int frame) {
  const size_t n = before->count;
  unsigned k = (unsigned)(pick >> 8 & 15);
  col_world w;
  unsigned char mark[sizeof w];
  memset(&w, 0xa5, sizeof w), memcpy(mark, &w, sizeof w);
  fz_fail_allocation((long)k);
  col_status st = col_world_create(n, before->gravity, &w);
  bool failed = fz_allocation_failed();
  if (st == COL_ERR_MEMORY ? !failed || memcmp(&w, mark, sizeof w) != 0 : st != COL_OK)
    starved("world", n, frame, k, "col_world_create", st,
            "expected COL_OK, or COL_ERR_MEMORY with *out untouched");
  if (st == COL_OK) col_world_destroy(&w);
  /* Each turn's collisions in the naive step, for the statistics of a step that fails. */
  uint64_t *per_entity = fz_alloc(n * sizeof *per_entity);
  memset(per_entity, 0, n * sizeof *per_entity);
  if (col_world_create(n, before->gravity, &w) != COL_OK) abort();
  fs_world_copy(&w, before);
  fs_world_oracle(&w, 0.5f, per_entity, false);
  col_world_destroy(&w);
  failed = true;
  for (k = 0; failed && k < MAX_STARVED; k++) {
    if (col_world_create(n, before->gravity, &w) != COL_OK) abort();
    fs_world_copy(&w, before);
    col_sim_stats stats = STATS_BEFORE;
    fz_fail_allocation((long)k);
    st = col_world_step(&w, 0.5f, COL_SIM_BROADPHASE, alg, &stats);
    failed = fz_allocation_failed();
    if (st == COL_ERR_MEMORY ? !failed : st != COL_OK)
      starved("world", n, frame, k, "col_world_step", st, "expected COL_OK or COL_ERR_MEMORY");
    size_t first = 0; /* the first entity the whole step does not give its bits */
    while (first < n && same_entity(&w, after, first)) first++;
    if (st == COL_OK && first < n)
      starved("world", n, frame, k, "col_world_step", st, "the world differs from the naive step");
    for (size_t i = first + 1; i < n; i++)
      if (!same_entity(&w, before, i))
        starved("world", n, frame, k, "col_world_step", st,
                "an entity after the one whose turn failed changed (sims.h: unchanged)");
    if (st != COL_OK) {
      size_t last = n; /* the last entity the step changed (n: none) */
      for (size_t i = n; i-- > 0 && last == n;)
        if (!same_entity(&w, before, i)) last = i;
      world_starved_stats(stats, per_entity, n, first, last == n ? 0 : last, frame, k);
    }
    col_world_destroy(&w);
  }
  free(per_entity);
}
