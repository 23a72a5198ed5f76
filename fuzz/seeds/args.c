/* The args target's seeds: registrations of one's own backend or broadphase, and the calls added
 * after them (operation bytes 0xE0-0xEF: the registry, the thread pool, the parallel calls,
 * scene files, the cache's settings and the pair list), each over the picks its operation
 * decodes. Written by `make seeds` (fuzz/make_seeds.c runs seeds_write). */
#include "encode.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One seed: the bytes given (count first), then `floats` floats of `f` (NULL: none). */
static void seed(const char *name, const float *f, size_t floats, size_t count, ...) {
  enc e = {.n = 0};
  va_list ap;
  va_start(ap, count);
  for (size_t k = 0; k < count; k++) put8(&e, (uint8_t)va_arg(ap, int));
  va_end(ap);
  for (size_t k = 0; k < floats; k++) putf(&e, f[k]);
  save(&e, name);
}

/* Registrations (operation bytes 0xF8-0xFF): a name from the target's list (top bit: a
 * backend), flag bits, the version byte. */
static void registrations(void) {
  static const uint8_t regs[][4] = {
      {0xF8, 6, 2, 0},       {0xF9, 7, 4, 0},       {0xFA, 10, 6, 0},      {0xFB, 2, 6, 0},
      {0xFC, 5, 0, 0},       {0xFD, 8, 6, 0xF1},    {0xF8, 0x8A, 0x21, 0}, {0xF9, 0x8B, 0x41, 0},
      {0xFA, 0x8A, 0x21, 0}, {0xFB, 0x89, 0x01, 0}, {0xFC, 0x85, 0x21, 0}, {0xFD, 0x8B, 0x20, 0}};
  for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
    char name[64];
    snprintf(name, sizeof name, "register-%zu", i);
    seed(name, NULL, 0, 4, regs[i][0], regs[i][1], regs[i][2], regs[i][3]);
  }
}

/* The registry (0xE0): status strings (-16..2), kernel names (each bit, none, two), a name
 * picked by col_backend_select and by COLLIDE_BACKEND (NULL, empty, unknown, every listed
 * backend), with both batch calls. */
static void registry(void) {
  char name[64];
  for (int s = -16; s <= 2; s++) {
    snprintf(name, sizeof name, "registry-status-%d", s);
    seed(name, NULL, 0, 3, 0xE0, 0, s & 0xFF);
  }
  for (int b = 0; b < 16; b++) {
    snprintf(name, sizeof name, "registry-kernel-bit-%d", b);
    seed(name, NULL, 0, 3, 0xE0, 1, b);
  }
  seed("registry-kernel-none", NULL, 0, 7, 0xE0, 1, 0x80, 0, 0, 0, 0);
  seed("registry-kernel-two", NULL, 0, 7, 0xE0, 1, 0x80, 3, 0, 0, 0);
  for (int pick = 0; pick < 24; pick++) {
    snprintf(name, sizeof name, "registry-select-%d", pick);
    seed(name, NULL, 0, 3, 0xE0, 2, pick);
    for (int which = 0; which < 2; which++) {
      snprintf(name, sizeof name, "registry-environment-%d-%d", pick, which);
      seed(name, NULL, 0, 4, 0xE0, 3, pick, which);
    }
  }
}

/* The pool (0xE4): every threads pick with COLLIDE_THREADS unset and each value with threads
 * 0; NULL out; allocation failures; task counts 0, 1, 5, 64. */
static void pool(void) {
  char name[64];
  for (int t = 0; t < 8; t++)
    for (int tasks = 0; tasks < 4; tasks++) {
      static const int counts[4] = {0, 1, 5, 64};
      snprintf(name, sizeof name, "pool-threads-%d-tasks-%d", t, counts[tasks]);
      seed(name, NULL, 0, 5, 0xE4, t, 0, counts[tasks] << 1, 0);
    }
  for (int env = 0; env < 13; env++) {
    snprintf(name, sizeof name, "pool-environment-%d", env);
    seed(name, NULL, 0, 5, 0xE4, 0, env, 10, 0);
  }
  seed("pool-null-out", NULL, 0, 5, 0xE4, 2, 0, 1, 0);
  for (int k = 0; k < 3; k++) {
    snprintf(name, sizeof name, "pool-starved-%d", k);
    seed(name, NULL, 0, 5, 0xE4, 3, 0, 6, 0x80 | k);
  }
}

/* The parallel calls (0xE6): each task system with 255, 256 and 512 boxes, fallback off and
 * on, both forms; the built-in pool's sizes and COLLIDE_THREADS values; the argument errors. */
static void parallel(void) {
  char name[64];
  for (int choice = 0; choice < 6; choice++)
    for (int count = 2; count < 6; count += 1)
      for (int fb = 0; fb < 2; fb++) {
        const int flags = (choice & 3) << 6 | fb << 5 | (count & 1);
        const int how = (choice >> 2) | (choice == 3 ? (count == 4 ? 1 : 4) << 2 : 0);
        snprintf(name, sizeof name, "parallel-tasks-%d-count-%d-fallback-%d", choice, count, fb);
        seed(name, NULL, 0, 9, 0xE6, flags, how, count, count & 1, 0, 0, 0, 7);
      }
  for (int size = 0; size < 4; size++)
    for (int env = 0; env < 13; env += 3) {
      snprintf(name, sizeof name, "parallel-builtin-size-%d-env-%d", size, env);
      seed(name, NULL, 0, 9, 0xE6, 1 << 6, 0, 4, 0, 0, size, env, 3);
    }
  static const int errors[][3] = {{2, 4, 0},  {4, 4, 0}, {8, 4, 0},
                                  {16, 4, 0}, {0, 4, 2}, {0, 4, 3}};
  for (size_t k = 0; k < sizeof errors / sizeof errors[0]; k++) {
    snprintf(name, sizeof name, "parallel-error-%zu", k);
    seed(name, NULL, 0, 9, 0xE6, errors[k][0], 0, errors[k][1], errors[k][2], 0xC1, 0, 0, 1);
  }
}

/* Scene files (0xE8): each reader with each flag set, validate's cases, the writers' cases
 * with plain, NaN, inverted and special boxes in both forms and dims. */
static void scenes(void) {
  char name[64];
  for (int choice = 0; choice < 3; choice++)
    for (int flags = 0; flags < 32; flags++) {
      snprintf(name, sizeof name, "scene-read-%d-flags-%d", choice, flags);
      seed(name, NULL, 0, 4, 0xE8, choice | flags << 3, flags & 1, 0);
    }
  for (int starve = 0; starve < 3; starve++) {
    snprintf(name, sizeof name, "scene-read-starved-%d", starve);
    seed(name, NULL, 0, 4, 0xE8, 1 << 4 | 1, 0, 0x80 | starve);
  }
  const float inf = INFINITY;
  static float boxes[4][24];
  const float plain[12] = {0, 1, 0, 1, 0, 1, 1, 2, 1, 2, 1, 2};
  for (int k = 0; k < 24; k++) boxes[0][k] = plain[k % 12] + (float)(k / 12);
  for (int k = 0; k < 24; k++) boxes[1][k] = boxes[0][k], boxes[2][k] = boxes[0][k];
  boxes[1][3] = NAN, boxes[2][6] = 9;
  const float special[24] = {-0.0f, 0x1p-149f, -inf, 0,       -3, 0x1p-126f, 0.0f, 0x1p-148f,
                             inf,   0,         -2,   3.4e38f, -1, -1,        -1,   -1,
                             -1,    -1,        2,    2,       2,  2,         2,    2};
  for (int k = 0; k < 24; k++) boxes[3][k] = special[k];
  for (int flags = 0; flags < 32; flags++) {
    snprintf(name, sizeof name, "scene-validate-flags-%d", flags);
    seed(name, boxes[flags % 4], 24, 4, 0xE8, 3 | flags << 3, 0, 0);
  }
  /* The variants of flags bit 1 (other dims, counts past the limits, a NULL min array, a
   * stream that fails after 0..255 bytes), each form. */
  for (int what = 3; what < 8; what++)
    for (int form = 0; form < 2; form++)
      for (int room = 0; room < (what == 7 ? 256 : 1); room += 24) {
        enc e = {.n = 0};
        put8(&e, (uint8_t)(5 | 2 << 3)), put8(&e, (uint8_t)(what << 3 | form << 1)), put8(&e, 0);
        for (int k = 0; k < 24; k++) putf(&e, boxes[0][k]);
        put8(&e, (uint8_t)room);
        snprintf(name, sizeof name, "scene-write-other-%d-form-%d-room-%d", what, form, room);
        save(&e, name);
      }
  for (int starve = 0; starve < 2; starve++) {
    snprintf(name, sizeof name, "scene-read-large-%d", starve);
    seed(name, NULL, 0, 4, 0xE8, 1 | (1 << 1 | 1 << 3) << 3, 0, starve ? 0x81 : 0);
  }
  for (int what = 0; what < 8; what++)
    for (int form = 0; form < 4; form++)
      for (int path = 0; path < 2; path++) {
        const int box = what == 0 ? form : 0;
        snprintf(name, sizeof name, "scene-write-%d-form-%d-path-%d", what, form, path);
        seed(name, boxes[box], 24, 4, 0xE8, 5 | path << 3, (what << 3 | form << 1 | (box & 1)), 0);
      }
}

/* The cache's settings and the pair list (0xEC): every algorithm pick, NULL cache and out,
 * each kept task system, a failing create, lists of 0 to 7 pairs. */
static void settings(void) {
  char name[64];
  for (int choice = 0; choice < 16; choice++)
    for (int algorithm = 0; algorithm < 8; algorithm += choice < 4 ? 1 : 4) {
      snprintf(name, sizeof name, "cache-settings-%d-algorithm-%d", choice, algorithm);
      seed(name, NULL, 0, 4, 0xEC, choice, algorithm, 0);
    }
  seed("cache-settings-starved", NULL, 0, 4, 0xEC, 0, 0, 0x80);
  for (int n = 0; n < 8; n++) {
    snprintf(name, sizeof name, "pairs-sort-%d", n);
    seed(name, NULL, 0, 18, 0xEC, n << 4, 0, 0, 4, 1, 3, 0, 4, 0, 2, 2, 0, 1, 3, 0, 1, 4, 0);
  }
}

/* Registrations with names of the input's bytes (registry choice 4): each character class
 * around backends.h's [A-Za-z0-9_.-], 32 and 33 characters, and sixteen distinct valid names
 * of each kind, which fill the registry to COL_USER_MAX and past it. */
static void named(void) {
  static const char *const odd[] = {"a~", "A{", "Z[", "z`", "0/", "9:", "_^", ".,", "-+", "\x80x"};
  char name[64];
  for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++) {
    enc e = {.n = 0};
    put8(&e, 0xE0), put8(&e, 4), put8(&e, (uint8_t)strlen(odd[k]));
    for (const char *c = odd[k]; *c; c++) put8(&e, (uint8_t)*c);
    put8(&e, k & 1 ? 0x80 : 0), put8(&e, k & 1 ? 1 | 0x20 : 6), put8(&e, 0);
    snprintf(name, sizeof name, "registry-name-class-%zu", k);
    save(&e, name);
  }
  for (int kind = 0; kind < 2; kind++)
    for (int k = 0; k < 16; k++) {
      enc e = {.n = 0};
      char text[16];
      snprintf(text, sizeof text, "fill-%02d", k);
      put8(&e, 0xE0), put8(&e, 4), put8(&e, (uint8_t)strlen(text));
      for (const char *c = text; *c; c++) put8(&e, (uint8_t)*c);
      put8(&e, kind ? 0x80 : 0), put8(&e, kind ? 1 | 0x20 : 6), put8(&e, 0);
      snprintf(name, sizeof name, "registry-fill-%s-%02d", kind ? "backend" : "broadphase", k);
      save(&e, name);
    }
}

/* The masks' constructors (0xEE): from a sprite (each shape pick, NULL out, failing
 * allocations) and from words (each width, height and stride pick, NULL bits and out). */
static void masks(void) {
  char name[64];
  for (int w = 0; w < 8; w++)
    for (int h = 0; h < 3; h++) {
      snprintf(name, sizeof name, "mask-sprite-%d-%d", w, h);
      /* choice, starve, then fa_decode_sprite's bytes: width, height, stride (the width), x,
       * y, the NULL byte; the pixels and the threshold from the exhausted input (zeros) */
      seed(name, NULL, 0, 9, 0xEE, 0, 0, w, h + 1, 0, 3, 4, 0);
    }
  seed("mask-sprite-null-out", NULL, 0, 9, 0xEE, 1, 0, 1, 1, 0, 0, 0, 0);
  for (int k = 0; k < 2; k++) {
    snprintf(name, sizeof name, "mask-sprite-starved-%d", k);
    seed(name, NULL, 0, 9, 0xEE, 0, 0x80 | k, 2, 2, 0, 0, 0, 0);
  }
  for (int w = 0; w < 8; w++)
    for (int d = 0; d < 4; d++) {
      snprintf(name, sizeof name, "mask-words-%d-stride-%d", w, d);
      seed(name, NULL, 0, 8, 0xEE, 0x80, 0, w, 2 + (w & 1), d, 5, 0xFB);
    }
  for (int f = 1; f < 4; f++) {
    snprintf(name, sizeof name, "mask-words-nulls-%d", f);
    seed(name, NULL, 0, 7, 0xEE, 0x80 | f, 0, 2, 2, 1, 0);
  }
  seed("mask-words-starved", NULL, 0, 7, 0xEE, 0x80, 0x80, 4, 2, 1, 0, 0);
}

/* The streamed search (0xEF): every batch pick, NULL buffer, sink and boxes, each algorithm,
 * bad dims and touch, failing allocations. */
static void stream(void) {
  char name[64];
  const float boxes[4][4] = {{0, 0, 1, 1}, {0.5f, 0.5f, 2, 2}, {3, 3, 4, 4}, {1, 1, 3, 3}};
  for (int batch = 0; batch < 16; batch++) {
    enc e = {.n = 0};
    put8(&e, 0xEF), put8(&e, 0), put8(&e, 4), put8(&e, 0), put8(&e, 0), put8(&e, 1);
    put8(&e, (uint8_t)batch);
    for (int k = 0; k < 6; k++)
      for (int i = 0; i < 4; i++) putf(&e, k % 3 < 2 ? boxes[i][k % 3 + (k >= 3 ? 2 : 0)] : 0);
    put8(&e, 0);
    snprintf(name, sizeof name, "stream-batch-%d", batch);
    save(&e, name);
  }
  for (int algorithm = 0; algorithm < 8; algorithm++)
    for (int nulls = 0; nulls < 3; nulls++) {
      const int flags = nulls == 0 ? 0 : nulls == 1 ? 0x40 : 0x80;
      snprintf(name, sizeof name, "stream-algorithm-%d-nulls-%d", algorithm, nulls);
      seed(name, NULL, 0, 7, 0xEF, flags, 3, 1, 0, algorithm, 5);
    }
  seed("stream-dims-0", NULL, 0, 7, 0xEF, 0, 3, 2, 0, 1, 5);
  seed("stream-touch-odd", NULL, 0, 7, 0xEF, 0, 3, 0, 0xC1, 1, 5);
  seed("stream-algorithm-odd", NULL, 0, 7, 0xEF, 0, 3, 0, 0, 0x81, 5);
  for (int k = 0; k < 3; k++) {
    snprintf(name, sizeof name, "stream-starved-%d", k);
    enc e = {.n = 0};
    put8(&e, 0xEF), put8(&e, 0), put8(&e, 4), put8(&e, 0), put8(&e, 0), put8(&e, 1), put8(&e, 5);
    for (int f = 0; f < 24; f++) putf(&e, (float)(f % 5));
    put8(&e, (uint8_t)(0x80 | k));
    save(&e, name);
  }
}

/* The parallel calls with task systems that fail at each pass (0xE6, task systems 4 and 5):
 * 512 and 2,048 boxes, 2 and 9 workers, failing from the first, second, third and fourth
 * call, fallback off and on. */
static void failing_passes(void) {
  char name[80];
  for (int choice = 4; choice < 6; choice++)
    for (int count = 5; count < 7; count++)
      for (int workers = 0; workers < 2; workers++)
        for (int runs = 0; runs < 4; runs++)
          for (int fb = 0; fb < 2; fb++) {
            const int flags = (choice & 3) << 6 | fb << 5;
            const int how = (choice >> 2) | runs << 2 | (workers ? 7 : 0) << 4;
            snprintf(name, sizeof name,
                     "parallel-failing-%d-count-%d-workers-%d-runs-%d-fallback-%d", choice, count,
                     workers ? 9 : 2, runs, fb);
            seed(name, NULL, 0, 9, 0xE6, flags, how, count, count & 1, 0, 0, 0, 11);
          }
}

/* The shape checks' last array NULL alone (the other arrays there): a 2D query's max y, a 3D
 * query's max z, a 2D slab set's max y. */
static void last_arrays(void) {
  seed("aabb2-null-max-y", NULL, 0, 4, 0x00, 0x08, 3, 0);
  seed("aabb3-null-max-z", NULL, 0, 4, 0x01, 0x20, 3, 0);
  seed("slab2-null-max-y", NULL, 0, 5, 0x06, 0x28, 0, 0, 3);
}

void seeds_write(void) {
  registrations();
  registry();
  pool();
  parallel();
  scenes();
  settings();
  named();
  masks();
  stream();
  failing_passes();
  last_arrays();
}
