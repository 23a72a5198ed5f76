/* Argument fuzz target: every public entry point that takes pointers, sizes or enums, called
 * with decoded arguments that are often invalid (NULL pointers, negative or overflowing sizes,
 * strides, counts past UINT32_MAX, enums out of range). The oracle is the header's error list
 * for that function, written out here independently: a call must return one of the errors
 * that apply (OK exactly when none does), and on an error leave every output untouched (they
 * start as canaries) and read nothing (arrays are allocated to exactly what they hold, which
 * may be less than a count that is being refused, so a read past them is an ASan report).
 * Input: an operation byte, then the operation's argument bytes (see each case); the broadphase
 * operation's NULL-flags byte also picks the per-frame cache (bit 6) and a NULL cache (bit 7). */
#include "fuzz_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "args";

#define CANARY 0xA5u
enum { MAX_ALLOC = 16 };

/* A count: small ones (allocated as such) or ones past what any array here holds. */
static size_t decode_count(fz_reader *r) {
  static const size_t big[4] = {(size_t)UINT32_MAX, (size_t)UINT32_MAX + 1u, SIZE_MAX / 2,
                                SIZE_MAX};
  const uint8_t v = fz_u8(r);
  return v >= 0xF0 ? big[v & 3] : (size_t)(v % 12);
}

/* An enum: mostly 0 or 1 (the valid values everywhere here), sometimes out of range. */
static int decode_enum(fz_reader *r) {
  static const int odd[4] = {2, -1, INT_MAX, INT_MIN};
  const uint8_t v = fz_u8(r);
  return v >= 0xC0 ? odd[v & 3] : (int)(v & 1);
}

static bool valid01(int v) { return v == 0 || v == 1; }

/* A float array of `count` claimed elements: NULL (flag), or exactly min(count, MAX_ALLOC)
 * floats from the input. */
static float *floats(fz_reader *r, size_t count, bool null) {
  if (null) return NULL;
  const size_t n = count < MAX_ALLOC ? count : MAX_ALLOC;
  float *f = fz_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) f[i] = fz_float(r);
  return f;
}

/* An output buffer of `bytes` canary bytes (NULL when asked). */
static void *canaries(size_t bytes, bool null) {
  if (null) return NULL;
  unsigned char *p = fz_alloc(bytes);
  memset(p, CANARY, bytes ? bytes : 1);
  return p;
}

static bool untouched(const void *p, size_t bytes) {
  const unsigned char *c = p;
  for (size_t i = 0; p != NULL && i < bytes; i++)
    if (c[i] != CANARY) return false;
  return true;
}

/* The status against the set of documented errors that apply (bit -status); untouched outputs
 * on error. `called` false: the call was skipped (its arguments are valid but larger than what
 * was allocated: the other targets cover valid calls). */
static void judge(const char *op, col_status got, unsigned applies, bool outputs_kept) {
  const bool ok =
      applies == 0 ? got == COL_OK : got < 0 && got > -32 && (applies & (1u << -got)) != 0;
  if (ok && (got == COL_OK || outputs_kept)) return;
  fprintf(stderr, "fuzz args: %s returned %d (%s); documented errors that apply:", op, got,
          col_status_string(got));
  if (applies == 0) fputs(" none (COL_OK expected)", stderr);
  for (int s = 1; s < 32; s++)
    if (applies & (1u << s)) fprintf(stderr, " %d (%s)", -s, col_status_string((col_status)-s));
  fputc('\n', stderr);
  if (ok) fprintf(stderr, "fuzz args: %s wrote an output on error\n", op);
  fz_fail();
}

#define ERR(status) (1u << -(status))

static bool fits(size_t count) { return count <= MAX_ALLOC; }

static void aabb_query(fz_reader *r, int dims, bool aos) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = decode_count(r);
  const int touch = decode_enum(r);
  float *v[6] = {NULL};
  bool arrays = true;
  const int arrays_used = aos ? 1 : 2 * dims;
  for (int k = 0; k < arrays_used; k++) {
    v[k] = floats(r, aos ? n * 4 : n, nulls & (1u << k));
    arrays = arrays && v[k] != NULL;
  }
  const bool set_null = nulls & 0x40, count_null = nulls & 0x80;
  const bool idx_null = fz_u8(r) & 1;
  uint32_t *idx = canaries((n < MAX_ALLOC ? n : MAX_ALLOC) * sizeof(uint32_t), idx_null);
  size_t count_out;
  memset(&count_out, CANARY, sizeof count_out);
  /* collide.h: NULL (set, count, or with a non-empty set any array or indices), SIZE (count >
   * UINT32_MAX), ARGUMENT (touch). */
  unsigned applies = 0;
  if ((!aos && set_null) || count_null || (n > 0 && (!arrays || idx_null)))
    applies |= ERR(COL_ERR_NULL);
  if (n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (!valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  if (applies != 0 || fits(aos ? 4 * n : n)) {
    col_status st;
    const col_aabb3 q = {{0, 0, 0}, {1, 1, 1}};
    size_t *cnt = count_null ? NULL : &count_out;
    if (aos) {
      st = col_aabb2_query_aos((col_aabb2){{0, 0}, {1, 1}}, (const col_aabb2 *)(void *)v[0], n,
                               (col_touch)touch, idx, cnt);
    } else if (dims == 2) {
      const col_aabb2_soa set = {v[0], v[1], v[2], v[3], n};
      st = col_aabb2_query((col_aabb2){{0, 0}, {1, 1}}, set_null ? NULL : &set, (col_touch)touch,
                           idx, cnt);
    } else {
      const col_aabb3_soa set = {v[0], v[1], v[2], v[3], v[4], v[5], n};
      st = col_aabb3_query(q, set_null ? NULL : &set, (col_touch)touch, idx, cnt);
    }
    judge(aos         ? "col_aabb2_query_aos"
          : dims == 2 ? "col_aabb2_query"
                      : "col_aabb3_query",
          st, applies,
          untouched(&count_out, sizeof count_out) &&
              untouched(idx, (n < MAX_ALLOC ? n : MAX_ALLOC) * sizeof(uint32_t)));
  }
  for (int k = 0; k < 6; k++) free(v[k]);
  free(idx);
}

static void mtd_batch(fz_reader *r) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = decode_count(r);
  float *a = floats(r, 4 * n, nulls & 1), *b = floats(r, 4 * n, nulls & 2);
  const size_t out_n = n < MAX_ALLOC ? n : MAX_ALLOC;
  col_mtd *out = canaries(out_n * sizeof(col_mtd), nulls & 4);
  /* collide.h: NULL (any array NULL with n > 0). */
  const unsigned applies = n > 0 && (!a || !b || !out) ? ERR(COL_ERR_NULL) : 0;
  if (applies != 0 || fits(4 * n)) {
    const col_status st =
        col_aabb2_mtd_batch(n, (const col_aabb2 *)(void *)a, (const col_aabb2 *)(void *)b, out);
    judge("col_aabb2_mtd_batch", st, applies, untouched(out, out_n * sizeof(col_mtd)));
  }
  free(a), free(b), free(out);
}

static void circle_batch(fz_reader *r, bool elastic) {
  const uint8_t nulls = fz_u8(r);
  const size_t na = decode_count(r), nb = fz_u8(r) & 1 ? decode_count(r) : na;
  const int e = decode_enum(r);
  const bool a_null = nulls & 0x40, b_null = nulls & 0x80;
  unsigned applies = 0;
  if (!elastic) {
    float *f[6];
    for (int k = 0; k < 6; k++) f[k] = floats(r, k < 3 ? na : nb, fz_u8(r) == 0xEE);
    const size_t out_n = na < MAX_ALLOC ? na : MAX_ALLOC;
    uint8_t *hit = canaries(out_n, nulls & 1);
    const col_circle_soa a = {f[0], f[1], f[2], na}, b = {f[3], f[4], f[5], nb};
    const bool arrays = f[0] && f[1] && f[2] && f[3] && f[4] && f[5];
    /* circles.h: NULL (a, b, hit, or arrays of a non-empty batch), SIZE (counts differ),
     * ARGUMENT (test). */
    if (a_null || b_null || !hit || (na > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
    if (na != nb) applies |= ERR(COL_ERR_SIZE);
    if (!valid01(e)) applies |= ERR(COL_ERR_ARGUMENT);
    if (applies != 0 || fits(na)) {
      const col_status st =
          col_circle_overlap_batch(a_null ? NULL : &a, b_null ? NULL : &b, (col_circle_test)e, hit);
      judge("col_circle_overlap_batch", st, applies, untouched(hit, out_n));
    }
    for (int k = 0; k < 6; k++) free(f[k]);
    free(hit);
    return;
  }
  float *f[10];
  for (int k = 0; k < 10; k++) {
    const size_t n = k < 5 ? na : nb;
    f[k] = (k % 5 == 2 || k % 5 == 3)
               ? canaries((n < MAX_ALLOC ? n : MAX_ALLOC) * sizeof(float), fz_u8(r) == 0xEE)
               : floats(r, n, fz_u8(r) == 0xEE);
  }
  col_ball_soa a = {f[0], f[1], f[2], f[3], f[4], na}, b = {f[5], f[6], f[7], f[8], f[9], nb};
  bool arrays = true;
  for (int k = 0; k < 10; k++) arrays = arrays && f[k] != NULL;
  /* circles.h: NULL, SIZE (counts differ), ARGUMENT (rule). */
  if (a_null || b_null || (na > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
  if (na != nb) applies |= ERR(COL_ERR_SIZE);
  if (!valid01(e)) applies |= ERR(COL_ERR_ARGUMENT);
  if (applies != 0 || fits(na)) {
    const col_status st =
        col_elastic_batch(a_null ? NULL : &a, b_null ? NULL : &b, (col_elastic_rule)e);
    bool kept = true;
    for (int k = 0; k < 10; k++)
      if (k % 5 == 2 || k % 5 == 3)
        kept = kept &&
               untouched(f[k], ((k < 5 ? na : nb) < MAX_ALLOC ? (k < 5 ? na : nb) : MAX_ALLOC) *
                                   sizeof(float));
    judge("col_elastic_batch", st, applies, kept);
  }
  for (int k = 0; k < 10; k++) free(f[k]);
}

static void segment_spheres(fz_reader *r) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = decode_count(r);
  float *f[4];
  bool arrays = true;
  for (int k = 0; k < 4; k++) arrays = (f[k] = floats(r, n, nulls & (1u << k))) && arrays;
  const bool set_null = nulls & 0x40, out_null = nulls & 0x80;
  col_segment_hit out;
  memset(&out, CANARY, sizeof out);
  const col_sphere_soa set = {f[0], f[1], f[2], f[3], n};
  /* collide.h: NULL (set, out, or an array with count > 0), SIZE (count > UINT32_MAX). */
  unsigned applies = 0;
  if (set_null || out_null || (n > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
  if (n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (applies != 0 || fits(n)) {
    /* Bit 4 picks the robust variant (the same contract). */
    const bool robust = nulls & 0x10;
    const col_status st = (robust ? col_segment_spheres_robust : col_segment_spheres)(
        (col_vec3){0, 0, 0}, (col_vec3){1, 1, 1}, set_null ? NULL : &set, out_null ? NULL : &out);
    judge(robust ? "col_segment_spheres_robust" : "col_segment_spheres", st, applies,
          untouched(&out, sizeof out));
  }
  for (int k = 0; k < 4; k++) free(f[k]);
}

/* A sprite or mask shape: sizes from the edges, pixels allocated only when small. */
static const int32_t shape_values[8] = {0, 1, 3, 65, -1, -2, INT32_MAX, INT32_MIN};

static col_sprite decode_sprite(fz_reader *r, unsigned *applies, bool *small) {
  col_sprite s = {NULL, shape_values[fz_u8(r) & 7], shape_values[fz_u8(r) & 7], 0, 0, 0};
  const uint8_t st = fz_u8(r);
  /* The stride: an edge value, or the width, one more or one less (clamped to int32). */
  const int64_t near = (int64_t)s.width + (int64_t)(st % 3) - (st % 3 == 2 ? 3 : 0);
  s.stride = st & 0x80 ? shape_values[st & 7]
                       : (int32_t)(near > INT32_MAX   ? INT32_MAX
                                   : near < INT32_MIN ? INT32_MIN
                                                      : near);
  s.x = (int32_t)(int8_t)fz_u8(r), s.y = (int32_t)(int8_t)fz_u8(r);
  /* pixels.h, col_sprite_check: SIZE (negative width or height), STRIDE (stride < width),
   * OVERFLOW (stride * height * 4 bytes past PTRDIFF_MAX / SIZE_MAX), NULL (pixels of a
   * non-empty sprite). */
  const bool negative = s.width < 0 || s.height < 0;
  if (negative) *applies |= ERR(COL_ERR_SIZE);
  if (s.stride < s.width) *applies |= ERR(COL_ERR_STRIDE);
  const uint64_t limit = (uint64_t)(PTRDIFF_MAX < SIZE_MAX ? PTRDIFF_MAX : SIZE_MAX) / 4u;
  if (!negative && s.stride >= 0 && (uint64_t)s.stride * (uint64_t)s.height > limit)
    *applies |= ERR(COL_ERR_OVERFLOW);
  const size_t words = !negative && s.stride >= 0 ? (size_t)s.stride * (size_t)s.height : 0;
  *small = words <= 4096;
  /* Too large to allocate here: passed as NULL, which is then the documented error too. */
  const bool null = fz_u8(r) == 0xEE || !*small;
  if (s.width > 0 && s.height > 0 && null) *applies |= ERR(COL_ERR_NULL);
  if (!null && *small) {
    uint32_t *px = fz_alloc(words * sizeof(uint32_t));
    for (size_t i = 0; i < words; i++) px[i] = fz_u32(r);
    s.pixels = px;
  }
  return s;
}

static void sprite_overlap(fz_reader *r) {
  unsigned applies = 0;
  bool small_a, small_b; /* unused: a sprite too large to allocate goes in as NULL */
  const col_sprite a = decode_sprite(r, &applies, &small_a);
  const col_sprite b = decode_sprite(r, &applies, &small_b);
  const int mode = decode_enum(r);
  const bool out_null = fz_u8(r) & 1;
  /* pixels.h: NULL (out), the sprite checks, ARGUMENT (mode). */
  if (out_null) applies |= ERR(COL_ERR_NULL);
  if (!valid01(mode)) applies |= ERR(COL_ERR_ARGUMENT);
  col_pixel_hit out;
  memset(&out, CANARY, sizeof out);
  {
    const col_status st =
        col_sprite_overlap(a, b, 20, (col_pixel_mode)mode, out_null ? NULL : &out);
    judge("col_sprite_overlap", st, applies, untouched(&out, sizeof out));
  }
  free((void *)a.pixels), free((void *)b.pixels);
}

/* A level mask for the movement and mask targets: valid (built by col_mask_from_words) or
 * with one field broken. */
static col_mask decode_mask(fz_reader *r, unsigned *applies, col_mask *owned) {
  col_mask m = {0};
  const int32_t w = 1 + fz_u8(r) % 70, h = 1 + fz_u8(r) % 8;
  const size_t per_row = (size_t)(w + 63) / 64;
  uint64_t *bits = fz_alloc(per_row * (size_t)h * sizeof(uint64_t));
  for (size_t i = 0; i < per_row * (size_t)h; i++) bits[i] = fz_splitmix(&(uint64_t){fz_u8(r)});
  if (col_mask_from_words(bits, per_row, w, h, 0, 0, &m) != COL_OK) abort();
  free(bits);
  *owned = m; /* released by col_mask_free whatever is broken below */
  /* pixels.h, col_mask_check: NULL (words of a non-empty mask), SIZE (negative width or
   * height), STRIDE (stride != ceil(width / 64) + 1). */
  switch (fz_u8(r) % 8) {
  case 1: m.width = -1 - (int32_t)(fz_u8(r) % 3); break;
  case 2: m.height = -1; break;
  case 3: m.stride += 1; break;
  case 4: m.stride -= 1; break;
  case 5: m.words = NULL; break;
  default: break;
  }
  if (m.width < 0 || m.height < 0) *applies |= ERR(COL_ERR_SIZE);
  if (m.width >= 0 && m.stride != (size_t)(m.width + 63) / 64 + 1) *applies |= ERR(COL_ERR_STRIDE);
  if (m.words == NULL && m.width > 0 && m.height > 0) *applies |= ERR(COL_ERR_NULL);
  return m;
}

static void mask_overlap(fz_reader *r) {
  unsigned applies = 0;
  col_mask own_a, own_b;
  col_mask a = decode_mask(r, &applies, &own_a), b = decode_mask(r, &applies, &own_b);
  const int mode = decode_enum(r);
  const uint8_t nulls = fz_u8(r);
  /* pixels.h: NULL (out, a, b), the mask checks, ARGUMENT (mode). */
  if (nulls & 7) applies |= ERR(COL_ERR_NULL);
  if (!valid01(mode)) applies |= ERR(COL_ERR_ARGUMENT);
  col_pixel_hit out;
  memset(&out, CANARY, sizeof out);
  const col_status st = col_mask_overlap(nulls & 1 ? NULL : &a, nulls & 2 ? NULL : &b,
                                         (col_pixel_mode)mode, nulls & 4 ? NULL : &out);
  judge("col_mask_overlap", st, applies, untouched(&out, sizeof out));
  col_mask_free(&own_a), col_mask_free(&own_b);
}

static void pixel_move(fz_reader *r, bool reference) {
  unsigned applies = 0;
  col_mask owned;
  col_mask level = decode_mask(r, &applies, &owned);
  static const int32_t sizes[8] = {0, 1, 5, 30, -1, -7, INT32_MIN, INT32_MAX};
  static const int32_t far[8] = {0, 3, -3, 100, INT32_MAX, INT32_MIN, INT32_MAX - 2, -300};
  col_pixel_actor actor = {far[fz_u8(r) & 7],         far[fz_u8(r) & 7],
                           sizes[fz_u8(r) & 7],       sizes[fz_u8(r) & 7],
                           (int32_t)(int8_t)fz_u8(r), (int32_t)(int8_t)fz_u8(r)};
  const int32_t slope = (int32_t)(int8_t)fz_u8(r) % 9;
  const uint8_t nulls = fz_u8(r);
  /* pixels.h: NULL (level, actor, level words: in the mask check), the mask check, SIZE
   * (negative width or height), ARGUMENT (slope_max < 0), OVERFLOW (a reachable position or
   * the box's far edge there outside int32). */
  if (nulls & 3) applies |= ERR(COL_ERR_NULL);
  if (actor.width < 0 || actor.height < 0) applies |= ERR(COL_ERR_SIZE);
  if (slope < 0) applies |= ERR(COL_ERR_ARGUMENT);
  const int64_t vx = actor.vx < 0 ? -(int64_t)actor.vx : actor.vx;
  const int64_t reach_y =
      (actor.vy < 0 ? -(int64_t)actor.vy : actor.vy) + (slope > 0 ? slope : 0) * vx;
  if (actor.width >= 0 && actor.height >= 0 &&
      ((int64_t)actor.x - vx < INT32_MIN || (int64_t)actor.x + vx + actor.width > INT32_MAX ||
       (int64_t)actor.y - reach_y < INT32_MIN ||
       (int64_t)actor.y + reach_y + actor.height > INT32_MAX))
    applies |= ERR(COL_ERR_OVERFLOW);
  col_pixel_actor before = actor;
  /* A valid actor of a huge box would scan billions of pixels: valid calls are the move
   * target's business. */
  if (applies != 0 || (actor.width <= 64 && actor.height <= 64)) {
    col_status st;
    if (reference)
      st = col_pixel_move_reference(nulls & 1 ? NULL : &level, slope, nulls & 2 ? NULL : &actor);
    else
      st = col_pixel_move(nulls & 1 ? NULL : &level, slope, nulls & 2 ? NULL : &actor);
    judge(reference ? "col_pixel_move_reference" : "col_pixel_move", st, applies,
          memcmp(&before, &actor, sizeof actor) == 0);
  }
  col_mask_free(&owned);
}

static void broadphase(fz_reader *r) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = decode_count(r);
  static const unsigned dims_values[4] = {2, 3, 0, 4};
  const unsigned dims = dims_values[fz_u8(r) & 3];
  const int touch = decode_enum(r);
  static const int odd[4] = {-1, 1000, INT_MAX, INT_MIN};
  const uint8_t pick = fz_u8(r);
  const int algorithm = pick & 0x80 ? odd[pick & 3] : (int)(pick % 8);
  float *v[6];
  bool arrays = true;
  for (int k = 0; k < 6; k++) {
    v[k] = floats(r, n, nulls & (1u << k));
    if (k % 3 < (int)(dims < 3 ? dims : 3)) arrays = arrays && v[k] != NULL;
  }
  const bool boxes_null = fz_u8(r) == 0xEE, out_null = fz_u8(r) == 0xEE;
  const col_boxes boxes = {dims, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, n};
  col_pairs out = {0};
  col_pairs_push(&out, 7, 9);
  col_broadphase_info info = {0};
  /* Bit 6: the per-frame cache instead (its algorithm is set apart; bit 7: a NULL cache). */
  const bool cached = nulls & 0x40, cache_null = cached && (nulls & 0x80);
  const bool known = cached || (algorithm >= 0 && col_broadphase_at((size_t)algorithm, &info));
  /* collide.h: NULL (boxes, out, or an array with count > 0; the cache), SIZE (dims not 2 or 3,
   * count > UINT32_MAX, a dimension the algorithm does not take), ARGUMENT (touch, algorithm). */
  unsigned applies = 0;
  if (boxes_null || out_null || cache_null || (n > 0 && (dims == 2 || dims == 3) && !arrays))
    applies |= ERR(COL_ERR_NULL);
  if ((dims != 2 && dims != 3) || n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (!cached && known && ((dims == 2 && !info.two_d) || (dims == 3 && !info.three_d)))
    applies |= ERR(COL_ERR_SIZE);
  if (!valid01(touch) || !known) applies |= ERR(COL_ERR_ARGUMENT);
  /* The cache told which boxes moved (pick bit 0): up to 3 listed indices, each possibly past
   * the count (SIZE when the boxes are otherwise valid), or a NULL list (pick bit 6: NULL
   * when it has entries, fine when it has none). */
  const bool listed = cached && (pick & 1);
  const size_t list_count = (pick >> 1) & 3;
  const bool list_null = listed && (pick & 0x40); /* with no entry, NULL is allowed */
  uint32_t list[3];
  for (size_t q = 0; q < list_count; q++) list[q] = (uint32_t)(fz_u8(r) % (n + 2));
  if (list_null && list_count > 0) applies |= ERR(COL_ERR_NULL);
  if (listed && !list_null)
    for (size_t q = 0; q < list_count; q++)
      if (list[q] >= n) applies |= ERR(COL_ERR_SIZE);
  if (applies != 0 || fits(n)) {
    col_status st;
    if (cached) {
      col_broadphase_cache *cache = NULL;
      if (col_broadphase_cache_create(&cache) != COL_OK) abort();
      if (listed)
        st = col_broadphase_cache_update_moved(
            cache_null ? NULL : cache, boxes_null ? NULL : &boxes, list_null ? NULL : list,
            list_count, (col_touch)touch, out_null ? NULL : &out, NULL);
      else
        st = col_broadphase_cache_update(cache_null ? NULL : cache, boxes_null ? NULL : &boxes,
                                         (col_touch)touch, out_null ? NULL : &out, NULL);
      col_broadphase_cache_destroy(cache);
    } else {
      st = col_broadphase_pairs((col_broadphase)algorithm, boxes_null ? NULL : &boxes,
                                (col_touch)touch, out_null ? NULL : &out, NULL);
    }
    judge(listed   ? "col_broadphase_cache_update_moved"
          : cached ? "col_broadphase_cache_update"
                   : "col_broadphase_pairs",
          st, applies, out.count == 1 && out.data[0].a == 7 && out.data[0].b == 9);
  }
  col_pairs_free(&out);
  for (int k = 0; k < 6; k++) free(v[k]);
}

/* Bipartite sweep and prune: two sets, each NULL, of any dims (2, 3, 0, 4) and count, with
 * arrays missing (flags), touch out of range, a NULL output. collide.h: errors as
 * col_broadphase_pairs (NULL: a set, out, or an array of a set with count > 0; SIZE: dims not
 * 2 or 3, count > UINT32_MAX, and the two sets' dims differing; ARGUMENT: touch). */
static void bipartite(fz_reader *r) {
  static const unsigned dims_values[4] = {2, 3, 0, 4};
  const uint8_t nulls[2] = {fz_u8(r), fz_u8(r)};
  const int touch = decode_enum(r);
  const bool out_null = fz_u8(r) == 0xEE;
  float *v[2][6];
  col_boxes set[2];
  unsigned applies = 0;
  bool all_fit = true;
  for (int s = 0; s < 2; s++) {
    const size_t n = decode_count(r);
    const unsigned dims = dims_values[fz_u8(r) & 3];
    bool arrays = true;
    for (int k = 0; k < 6; k++) {
      v[s][k] = floats(r, n, nulls[s] & (1u << k));
      if (k % 3 < (int)(dims < 3 ? dims : 3)) arrays = arrays && v[s][k] != NULL;
    }
    set[s] = (col_boxes){dims, {v[s][0], v[s][1], v[s][2]}, {v[s][3], v[s][4], v[s][5]}, n};
    if ((nulls[s] & 0xC0) == 0xC0 || (n > 0 && (dims == 2 || dims == 3) && !arrays))
      applies |= ERR(COL_ERR_NULL);
    if ((dims != 2 && dims != 3) || n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
    all_fit = all_fit && fits(n);
  }
  if (out_null) applies |= ERR(COL_ERR_NULL);
  if (set[0].dims != set[1].dims) applies |= ERR(COL_ERR_SIZE);
  if (!valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  col_pairs out = {0};
  col_pairs_push(&out, 7, 9);
  if (applies != 0 || all_fit) {
    const col_status st = col_broadphase_bipartite((nulls[0] & 0xC0) == 0xC0 ? NULL : &set[0],
                                                   (nulls[1] & 0xC0) == 0xC0 ? NULL : &set[1],
                                                   (col_touch)touch, out_null ? NULL : &out, NULL);
    judge("col_broadphase_bipartite", st, applies,
          out.count == 1 && out.data[0].a == 7 && out.data[0].b == 9);
  }
  col_pairs_free(&out);
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 6; k++) free(v[s][k]);
}

/* The simulations: create with a NULL output or a count past UINT32_MAX (COL_ERR_OVERFLOW);
 * step with the checked arrays missing (x and scratch for the balls, box and scratch for the
 * world: COL_ERR_NULL when there is anything to move), pairing and algorithm out of range
 * (COL_ERR_ARGUMENT); nothing moves on error. */
static void sims(fz_reader *r) {
  const uint8_t bits = fz_u8(r);
  const bool world = bits & 1, out_null = bits & 2, first_null = bits & 4, scratch_null = bits & 8;
  const size_t n = decode_count(r);
  const int pairing = decode_enum(r), algorithm = decode_enum(r);
  const float width = fz_float(r), height = fz_float(r);
  col_balls b;
  col_world w;
  if (n > UINT32_MAX || out_null) {
    const col_status st = world
                              ? col_world_create(n, (col_vec2){width, height}, out_null ? NULL : &w)
                              : col_balls_create(n, width, height, out_null ? NULL : &b);
    judge(world ? "col_world_create" : "col_balls_create", st,
          out_null ? ERR(COL_ERR_NULL) | (n > UINT32_MAX ? ERR(COL_ERR_OVERFLOW) : 0)
                   : ERR(COL_ERR_OVERFLOW),
          true);
    return;
  }
  if (!fits(n)) return;
  const col_status made = world ? col_world_create(n, (col_vec2){0, 0.25f}, &w)
                                : col_balls_create(n, width, height, &b);
  if (made != COL_OK) abort();
  for (size_t i = 0; i < n; i++) {
    if (world)
      w.box[i] = (col_aabb2){{(float)i, 0}, {(float)i + 0.5f, 1}}, w.weight[i] = 1;
    else
      b.x[i] = (float)i, b.y[i] = 1, b.vx[i] = 0.5f, b.radius[i] = 0.25f;
  }
  col_balls bs = b;
  col_world ws = w;
  if (world) {
    if (first_null) ws.box = NULL;
    if (scratch_null) ws.scratch = NULL;
  } else {
    if (first_null) bs.x = NULL;
    if (scratch_null) bs.scratch = NULL;
  }
  unsigned applies = 0;
  if (n > 0 && (first_null || scratch_null)) applies |= ERR(COL_ERR_NULL);
  if ((pairing != COL_SIM_NAIVE && pairing != COL_SIM_BROADPHASE) || algorithm < 0 ||
      (size_t)algorithm >= col_broadphase_count())
    applies |= ERR(COL_ERR_ARGUMENT);
  const col_status st =
      world ? col_world_step(&ws, 1, (col_sim_pairs)pairing, (col_broadphase)algorithm, NULL)
            : col_balls_step(&bs, (col_sim_pairs)pairing, (col_broadphase)algorithm, NULL);
  bool kept = true;
  for (size_t i = 0; i < n; i++)
    kept = kept && (world ? w.box[i].min.x == (float)i : b.x[i] == (float)i);
  judge(world ? "col_world_step" : "col_balls_step", st, applies, kept);
  if (world)
    col_world_destroy(&w);
  else
    col_balls_destroy(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  /* Operation bytes 0xF0 and up (the last one added) pick the bipartite sweep; the others keep
   * the meaning they had before it, and the corpus with them. */
  const uint8_t op = fz_u8(&r);
  switch (op >= 0xF0 ? 12 : op % 13) {
  case 0: aabb_query(&r, 2, false); break;
  case 1: aabb_query(&r, 3, false); break;
  case 2: aabb_query(&r, 2, true); break;
  case 3: mtd_batch(&r); break;
  case 4: circle_batch(&r, false); break;
  case 5: circle_batch(&r, true); break;
  case 6: segment_spheres(&r); break;
  case 7: sprite_overlap(&r); break;
  case 8: mask_overlap(&r); break;
  case 9: pixel_move(&r, false); break;
  case 10: pixel_move(&r, true); break;
  case 11: sims(&r); break;
  case 12: bipartite(&r); break;
  default: broadphase(&r); break;
  }
  return 0;
}
