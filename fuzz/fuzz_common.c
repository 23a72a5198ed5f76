/* Decoding and reporting for the differential fuzz targets (see fuzz_common.h). */
#include "fuzz_common.h"
#include "backend_filter.h"
#include "user_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint8_t fz_u8(fz_reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

uint32_t fz_u32(fz_reader *r) {
  uint32_t v = 0;
  for (int k = 0; k < 4; k++) v |= (uint32_t)fz_u8(r) << (8 * k);
  return v;
}

static float bits_to_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

float fz_grid(uint8_t index) { return (float)((int)(index & 0x7f) - 64) * 0.25f; }

const uint32_t fz_special_bits[16] = {
    0x00000000u, 0x80000000u, /* +0, -0 */
    0x7f800000u, 0xff800000u, /* +inf, -inf */
    0x00000001u, 0x80000001u, /* the smallest denormals */
    0x007fffffu, 0x00800000u, /* the largest denormal, FLT_MIN */
    0x7f7fffffu, 0xff7fffffu, /* +-FLT_MAX */
    0x3f800000u, 0xbf800000u, /* +-1 */
    0x7fc00000u, 0xffc00000u, /* quiet NaN, negative quiet NaN */
    0x7f800001u, 0x7fc12345u, /* signalling NaN, NaN with a payload */
};

float fz_float(fz_reader *r) {
  const uint8_t tag = fz_u8(r);
  if (tag < 0x80) return fz_grid(tag);
  if (tag < 0x90) {
    const float base = fz_grid(fz_u8(r));
    return nextafterf(base, (tag & 1) ? -INFINITY : INFINITY);
  }
  if (tag < 0xa0) {
    return bits_to_float(fz_special_bits[tag & 15u]);
  }
  return bits_to_float(fz_u32(r));
}

/* The reference first (the judge), then every other kind the harnesses' rule gives. */
size_t fz_backends(const char **names, size_t max, unsigned kernels) {
  size_t n = 0;
  if (n < max) names[n++] = "scalar";
  col_backend_info others[FZ_MAX_BACKENDS];
  const size_t found = harness_backends(others, FZ_MAX_BACKENDS, kernels,
                                        HARNESS_ALL_KINDS & ~HARNESS_KIND(COL_BACKEND_REFERENCE));
  for (size_t i = 0; i < found && n < max; i++) names[n++] = others[i].name;
  return n;
}

/* The user kernels the build brought in (USER_KERNELS), registered before the first input;
 * libFuzzer calls this, the replay driver too. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  if (harness_register_user_kernels() != 0) exit(2);
  return 0;
}

/* AddressSanitizer's settings unless ASAN_OPTIONS says otherwise: a 16 MB quarantine of freed
 * blocks instead of 256 MB. A use after free within an input (and well beyond: an input
 * allocates at most a few hundred KB) is still reported, but the allocator reuses memory
 * instead of mapping fresh pages for every input, whose page faults cost the broadphase
 * target a tenth of its time (docs/tuning.md). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=16"; }

void *fz_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL) abort();
  return p;
}

/* Every fuzz link wraps the allocator (scripts/fuzz/fuzz-targets.sh link-flags: the linker sends
 * the library's malloc, calloc and realloc calls here), so that a target can make one chosen
 * allocation fail and check what the library then promises. */
void *__real_malloc(size_t bytes);
void *__real_calloc(size_t count, size_t bytes);
void *__real_realloc(void *p, size_t bytes);
static long fail_countdown = -1; /* allocations to let through before one fails; -1: none */
static bool failed;

static bool fail_this_one(void) {
  if (fail_countdown < 0 || fail_countdown-- > 0) return false;
  failed = true;
  return true;
}

void *__wrap_malloc(size_t bytes) { return fail_this_one() ? NULL : __real_malloc(bytes); }
void *__wrap_calloc(size_t count, size_t bytes) {
  return fail_this_one() ? NULL : __real_calloc(count, bytes);
}
void *__wrap_realloc(void *p, size_t bytes) {
  return fail_this_one() ? NULL : __real_realloc(p, bytes);
}

void fz_fail_allocation(long k) { fail_countdown = k, failed = false; }

bool fz_allocation_failed(void) {
  fail_countdown = -1;
  return failed;
}

void fz_select(const char *name) {
  const col_status st = col_backend_select(name);
  if (st != COL_OK) {
    fprintf(stderr, "fuzz %s: cannot select backend %s: %s\n", fz_target, name,
            col_status_string(st));
    abort();
  }
}

void fz_print_floats(const char *label, const float *v, size_t n) {
  fprintf(stderr, "  %s:", label);
  for (size_t i = 0; i < n; i++) fprintf(stderr, " %a", (double)v[i]);
  fputc('\n', stderr);
}

_Noreturn void fz_fail(void) {
  fprintf(stderr, "fuzz %s: DISAGREEMENT between backends (see above); aborting\n", fz_target);
  fflush(stderr);
  abort();
}

static bool sprite_solid(const col_sprite *s, int64_t wx, int64_t wy, uint8_t thr) {
  if (wx < s->x || wx >= (int64_t)s->x + s->width) return false;
  if (wy < s->y || wy >= (int64_t)s->y + s->height) return false;
  return (s->pixels[(size_t)(wy - s->y) * (size_t)s->stride + (size_t)(wx - s->x)] >> 24) > thr;
}

col_pixel_hit fz_sprite_brute_force(const col_sprite *a, const col_sprite *b, uint8_t thr) {
  col_pixel_hit h = {false, 0, 0, 0};
  const int64_t x0 = a->x > b->x ? a->x : b->x, y0 = a->y > b->y ? a->y : b->y;
  const int64_t ax1 = (int64_t)a->x + a->width, bx1 = (int64_t)b->x + b->width;
  const int64_t ay1 = (int64_t)a->y + a->height, by1 = (int64_t)b->y + b->height;
  const int64_t x1 = ax1 < bx1 ? ax1 : bx1, y1 = ay1 < by1 ? ay1 : by1;
  for (int64_t wy = y0; wy < y1; wy++)
    for (int64_t wx = x0; wx < x1; wx++)
      if (sprite_solid(a, wx, wy, thr) && sprite_solid(b, wx, wy, thr)) {
        if (!h.hit) h = (col_pixel_hit){true, wx, wy, 0};
        h.count++;
      }
  return h;
}

FZ_ORACLE void fz_box_set_decode(const uint8_t *data, size_t size, bool always_large,
                                 fz_box_set *out) {
  fz_reader r = {data, size};
  const uint8_t flags = fz_u8(&r);
  const unsigned dims = (flags & 1) ? 3 : 2;
  const uint8_t n_low = fz_u8(&r), n_high = fz_u8(&r);
  /* Up to 1023 boxes when the second byte's top four bits are set (past the 256 where sweep
   * and prune starts its cells), else up to 127: the cost grows with the boxes, and one input
   * in sixteen large keeps the broadphase target's average near a millisecond. */
  const bool wide = always_large || (n_high & 0xF0) == 0xF0;
  const size_t n = ((size_t)n_low | (size_t)n_high << 8) % (wide ? 1024 : 128);
  /* Bits 2-3 of the second n byte (n never reads them) shape the set: 0 as decoded; 1 every
   * box flat on y (max y = min y): no mean size for the cells; 2 on an integer lattice
   * (generated coordinates 0..15, extents 0..3, every 16th box up to 15, the last 8..15; large
   * sets on 0..127, every 32nd up to 31 and the last 32..63, so that they keep their pairs
   * within the targets' budgets: ties and touching edges everywhere, and boxes over one, two,
   * three or more of sweep and prune's cells, also in the vector loops' scalar tails); 3
   * points (every extent zero). */
  const unsigned shape = n_high >> 2 & 3u;
  const bool large = n > FZ_SMALL_SET;
  const uint64_t side = large ? 127u : 15u, wide_every = large ? 32u : 16u;
  float **v = out->v;
  for (int k = 0; k < 6; k++) v[k] = fz_alloc(n * sizeof(float));
  /* A one-round variant of splitmix64 (another shift, no second round): the committed corpora
   * decode through it, so it stays as it is. */
  uint64_t seed = size * SPLITMIX64_GAMMA;
  for (size_t i = 0; i < n; i++) {
    const int order[6] = {0, 1, 3, 4, 2, 5};
    for (unsigned k = 0; k < 2 * dims; k++) {
      float f;
      if (r.n > 0) {
        f = fz_float(&r);
      } else {
        seed += SPLITMIX64_GAMMA;
        const uint64_t z = (seed ^ (seed >> 29)) * SPLITMIX64_MIX1;
        const float c =
            shape == 2 ? (float)(z >> 40 & side) : (float)(z >> 40) * 0x1p-24f * 1000.0f;
        uint64_t reach = 7u, least = 0u; /* extents least..least + reach */
        if (shape == 2 && i + 1 == n)
          least = large ? 32u : 8u, reach = least - 1u; /* the last box: tall */
        else if (shape == 2)
          reach = i % wide_every ? 3u : large ? 31u : 15u;
        f = order[k] >= 3 ? v[order[k] - 3][i] + (float)(least + (z & reach)) : c;
      }
      v[order[k]][i] = f;
    }
    if (dims == 2) v[2][i] = v[5][i] = 0.0f;
    if (shape == 1) v[4][i] = v[1][i];
    if (shape == 3)
      for (int k = 0; k < 3; k++) v[3 + k][i] = v[k][i];
  }
  out->boxes = (col_boxes){dims, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, n};
  out->touch = (flags & 2) ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
  out->flags = flags, out->n_low = n_low, out->n_high = n_high;
}

void fz_box_set_free(fz_box_set *set) {
  for (int k = 0; k < 6; k++) free(set->v[k]), set->v[k] = NULL;
}
