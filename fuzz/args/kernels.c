/* Argument fuzzing of the kernels: box queries, minimum translation, circles, segments (against
 * spheres and boxes), sprites,
 * masks and pixel movement (see fuzz_args.c). */
#include "args.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void fa_aabb_query(fz_reader *r, int dims, bool aos) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = fa_count(r);
  const int touch = fa_enum(r);
  float *v[6] = {NULL};
  bool arrays = true;
  const int arrays_used = aos ? 1 : 2 * dims;
  for (int k = 0; k < arrays_used; k++) {
    v[k] = fa_floats(r, aos ? n * 4 : n, nulls & (1u << k));
    arrays = arrays && v[k] != NULL;
  }
  const bool set_null = nulls & 0x40, count_null = nulls & 0x80;
  const bool idx_null = fz_u8(r) & 1;
  uint32_t *idx = fa_canaries((n < MAX_ALLOC ? n : MAX_ALLOC) * sizeof(uint32_t), idx_null);
  size_t count_out;
  memset(&count_out, CANARY, sizeof count_out);
  /* collide.h: NULL (set, count, or with a non-empty set any array or indices), SIZE (count >
   * UINT32_MAX), ARGUMENT (touch). */
  unsigned applies = 0;
  if ((!aos && set_null) || count_null || (n > 0 && (!arrays || idx_null)))
    applies |= ERR(COL_ERR_NULL);
  if (n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  if (applies != 0 || fa_fits(aos ? 4 * n : n)) {
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
    fa_judge(aos         ? "col_aabb2_query_aos"
             : dims == 2 ? "col_aabb2_query"
                         : "col_aabb3_query",
             st, applies,
             fa_untouched(&count_out, sizeof count_out) &&
                 fa_untouched(idx, (n < MAX_ALLOC ? n : MAX_ALLOC) * sizeof(uint32_t)));
  }
  for (int k = 0; k < 6; k++) free(v[k]);
  free(idx);
}

void fa_mtd_batch(fz_reader *r) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = fa_count(r);
  float *a = fa_floats(r, 4 * n, nulls & 1), *b = fa_floats(r, 4 * n, nulls & 2);
  const size_t out_n = n < MAX_ALLOC ? n : MAX_ALLOC;
  col_mtd *out = fa_canaries(out_n * sizeof(col_mtd), nulls & 4);
  /* collide.h: NULL (any array NULL with n > 0). */
  const unsigned applies = n > 0 && (!a || !b || !out) ? ERR(COL_ERR_NULL) : 0;
  if (applies != 0 || fa_fits(4 * n)) {
    const col_status st =
        col_aabb2_mtd_batch(n, (const col_aabb2 *)(void *)a, (const col_aabb2 *)(void *)b, out);
    fa_judge("col_aabb2_mtd_batch", st, applies, fa_untouched(out, out_n * sizeof(col_mtd)));
  }
  free(a), free(b), free(out);
}

void fa_circle_batch(fz_reader *r, bool elastic) {
  const uint8_t nulls = fz_u8(r);
  const size_t na = fa_count(r), nb = fz_u8(r) & 1 ? fa_count(r) : na;
  const int e = fa_enum(r);
  const bool a_null = nulls & 0x40, b_null = nulls & 0x80;
  unsigned applies = 0;
  if (!elastic) {
    float *f[6];
    for (int k = 0; k < 6; k++) f[k] = fa_floats(r, k < 3 ? na : nb, fz_u8(r) == 0xEE);
    const size_t out_n = na < MAX_ALLOC ? na : MAX_ALLOC;
    uint8_t *hit = fa_canaries(out_n, nulls & 1);
    const col_circle_soa a = {f[0], f[1], f[2], na}, b = {f[3], f[4], f[5], nb};
    const bool arrays = f[0] && f[1] && f[2] && f[3] && f[4] && f[5];
    /* circles.h: NULL (a, b, hit, or arrays of a non-empty batch), SIZE (counts differ),
     * ARGUMENT (test). */
    if (a_null || b_null || !hit || (na > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
    if (na != nb) applies |= ERR(COL_ERR_SIZE);
    if (!fa_valid01(e)) applies |= ERR(COL_ERR_ARGUMENT);
    if (applies != 0 || fa_fits(na)) {
      const col_status st =
          col_circle_overlap_batch(a_null ? NULL : &a, b_null ? NULL : &b, (col_circle_test)e, hit);
      fa_judge("col_circle_overlap_batch", st, applies, fa_untouched(hit, out_n));
    }
    for (int k = 0; k < 6; k++) free(f[k]);
    free(hit);
    return;
  }
  float *f[10];
  for (int k = 0; k < 10; k++) {
    const size_t n = k < 5 ? na : nb;
    f[k] = (k % 5 == 2 || k % 5 == 3)
               ? fa_canaries((n < MAX_ALLOC ? n : MAX_ALLOC) * sizeof(float), fz_u8(r) == 0xEE)
               : fa_floats(r, n, fz_u8(r) == 0xEE);
  }
  col_ball_soa a = {f[0], f[1], f[2], f[3], f[4], na}, b = {f[5], f[6], f[7], f[8], f[9], nb};
  bool arrays = true;
  for (int k = 0; k < 10; k++) arrays = arrays && f[k] != NULL;
  /* circles.h: NULL, SIZE (counts differ), ARGUMENT (rule). */
  if (a_null || b_null || (na > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
  if (na != nb) applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(e)) applies |= ERR(COL_ERR_ARGUMENT);
  /* circles.h: masses must be positive (m1 + m2 = 0 divides by zero); a valid call whose
   * masses break that precondition is outside the contract, so it is not made. */
  bool masses = true;
  for (size_t i = 0; applies == 0 && arrays && i < na && i < MAX_ALLOC; i++)
    masses = masses && f[4][i] + f[9][i] != 0.0f;
  if (masses && (applies != 0 || fa_fits(na))) {
    const col_status st =
        col_elastic_batch(a_null ? NULL : &a, b_null ? NULL : &b, (col_elastic_rule)e);
    bool kept = true;
    for (int k = 0; k < 10; k++)
      if (k % 5 == 2 || k % 5 == 3)
        kept = kept &&
               fa_untouched(f[k], ((k < 5 ? na : nb) < MAX_ALLOC ? (k < 5 ? na : nb) : MAX_ALLOC) *
                                      sizeof(float));
    fa_judge("col_elastic_batch", st, applies, kept);
  }
  for (int k = 0; k < 10; k++) free(f[k]);
}

/* The slab calls (collide/slab.h: NULL (set, out, or an array with count > 0), SIZE (count >
 * UINT32_MAX), ARGUMENT (touch)), reached through bit 5 of the segment operation's flags. A
 * second byte: bit 0 3D, bit 1 the moving box's form, bits 2-3 NULL for arrays 4 and 5. */
static void slab_call(float *const f[6], size_t n, unsigned dims, bool box, bool set_null,
                      bool out_null, col_touch t, unsigned applies) {
  const col_vec3 p = {0, 0, 0}, q = {1, 1, 1};
  if (dims == 3) {
    const col_aabb3_soa set = {f[0], f[1], f[2], f[3], f[4], f[5], n};
    col_aabb3_hit out;
    memset(&out, CANARY, sizeof out);
    const col_aabb3_soa *s = set_null ? NULL : &set;
    col_aabb3_hit *o = out_null ? NULL : &out;
    const col_status st = box ? col_sweep_aabb3_first((col_aabb3){p, q}, q, s, t, o)
                              : col_segment_aabb3_first(p, q, s, t, o);
    fa_judge(box ? "col_sweep_aabb3_first" : "col_segment_aabb3_first", st, applies,
             fa_untouched(&out, sizeof out));
    return;
  }
  const col_aabb2_soa set = {f[0], f[1], f[2], f[3], n};
  col_aabb2_hit out;
  memset(&out, CANARY, sizeof out);
  const col_aabb2_soa *s = set_null ? NULL : &set;
  col_aabb2_hit *o = out_null ? NULL : &out;
  const col_vec2 p2 = {0, 0}, q2 = {1, 1};
  const col_status st = box ? col_sweep_aabb2_first((col_aabb2){p2, q2}, q2, s, t, o)
                            : col_segment_aabb2_first(p2, q2, s, t, o);
  fa_judge(box ? "col_sweep_aabb2_first" : "col_segment_aabb2_first", st, applies,
           fa_untouched(&out, sizeof out));
}

/* The slab calls (collide/slab.h: NULL (set, out, or an array with count > 0), SIZE (count >
 * UINT32_MAX), ARGUMENT (touch)), reached through bit 5 of the segment operation's flags. A
 * second byte: bit 0 3D, bit 1 the moving box's form, bits 2-3 NULL for arrays 4 and 5. */
static void fa_slab(fz_reader *r, uint8_t nulls) {
  const uint8_t form = fz_u8(r);
  const int touch = fa_enum(r);
  const size_t n = fa_count(r);
  const unsigned dims = form & 1 ? 3 : 2;
  float *f[6] = {NULL};
  bool arrays = true;
  for (unsigned k = 0; k < 2 * dims; k++) {
    const bool null = k < 4 ? nulls & (1u << k) : form & (1u << (k - 2));
    arrays = (f[k] = fa_floats(r, n, null)) && arrays;
  }
  const bool set_null = nulls & 0x40, out_null = nulls & 0x80;
  unsigned applies = 0;
  if (set_null || out_null || (n > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
  if (n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  if (applies != 0 || fa_fits(n))
    slab_call(f, n, dims, form & 2, set_null, out_null, (col_touch)touch, applies);
  for (unsigned k = 0; k < 6; k++) free(f[k]);
}

void fa_segment_spheres(fz_reader *r) {
  const uint8_t nulls = fz_u8(r);
  if (nulls & 0x20) {
    fa_slab(r, nulls);
    return;
  }
  const size_t n = fa_count(r);
  float *f[4];
  bool arrays = true;
  for (int k = 0; k < 4; k++) arrays = (f[k] = fa_floats(r, n, nulls & (1u << k))) && arrays;
  const bool set_null = nulls & 0x40, out_null = nulls & 0x80;
  col_segment_hit out;
  memset(&out, CANARY, sizeof out);
  const col_sphere_soa set = {f[0], f[1], f[2], f[3], n};
  /* collide.h: NULL (set, out, or an array with count > 0), SIZE (count > UINT32_MAX). */
  unsigned applies = 0;
  if (set_null || out_null || (n > 0 && !arrays)) applies |= ERR(COL_ERR_NULL);
  if (n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (applies != 0 || fa_fits(n)) {
    /* Bit 4 picks the robust variant (the same contract). */
    const bool robust = nulls & 0x10;
    const col_status st = (robust ? col_segment_spheres_robust : col_segment_spheres)(
        (col_vec3){0, 0, 0}, (col_vec3){1, 1, 1}, set_null ? NULL : &set, out_null ? NULL : &out);
    fa_judge(robust ? "col_segment_spheres_robust" : "col_segment_spheres", st, applies,
             fa_untouched(&out, sizeof out));
  }
  for (int k = 0; k < 4; k++) free(f[k]);
}

/* A sprite or mask shape: sizes from the edges, pixels allocated only when small (args.h). */
static const int32_t shape_values[8] = {0, 1, 3, 65, -1, -2, INT32_MAX, INT32_MIN};

col_sprite fa_decode_sprite(fz_reader *r, unsigned *applies, bool *small) {
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

void fa_sprite_overlap(fz_reader *r) {
  unsigned applies_a = 0, applies_b = 0;
  bool small_a, small_b; /* unused: a sprite too large to allocate goes in as NULL */
  const col_sprite a = fa_decode_sprite(r, &applies_a, &small_a);
  const col_sprite b = fa_decode_sprite(r, &applies_b, &small_b);
  /* col_sprite_check on each: exactly that sprite's errors. */
  fa_judge("col_sprite_check", col_sprite_check(a), applies_a, true);
  fa_judge("col_sprite_check", col_sprite_check(b), applies_b, true);
  unsigned applies = applies_a | applies_b;
  const int mode = fa_enum(r);
  const bool out_null = fz_u8(r) & 1;
  /* pixels.h: NULL (out), the sprite checks, ARGUMENT (mode). */
  if (out_null) applies |= ERR(COL_ERR_NULL);
  if (!fa_valid01(mode)) applies |= ERR(COL_ERR_ARGUMENT);
  col_pixel_hit out;
  memset(&out, CANARY, sizeof out);
  {
    const col_status st =
        col_sprite_overlap(a, b, 20, (col_pixel_mode)mode, out_null ? NULL : &out);
    fa_judge("col_sprite_overlap", st, applies, fa_untouched(&out, sizeof out));
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
  for (size_t i = 0; i < per_row * (size_t)h; i++) bits[i] = splitmix64(&(uint64_t){fz_u8(r)});
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

void fa_mask_overlap(fz_reader *r) {
  unsigned applies_a = 0, applies_b = 0;
  col_mask own_a, own_b;
  col_mask a = decode_mask(r, &applies_a, &own_a), b = decode_mask(r, &applies_b, &own_b);
  const int mode = fa_enum(r);
  const uint8_t nulls = fz_u8(r);
  /* col_mask_check on each (NULL when the overlap gets NULL): exactly that mask's errors. */
  fa_judge("col_mask_check", col_mask_check(nulls & 1 ? NULL : &a),
           nulls & 1 ? ERR(COL_ERR_NULL) : applies_a, true);
  fa_judge("col_mask_check", col_mask_check(nulls & 2 ? NULL : &b),
           nulls & 2 ? ERR(COL_ERR_NULL) : applies_b, true);
  unsigned applies = applies_a | applies_b;
  /* pixels.h: NULL (out, a, b), the mask checks, ARGUMENT (mode). */
  if (nulls & 7) applies |= ERR(COL_ERR_NULL);
  if (!fa_valid01(mode)) applies |= ERR(COL_ERR_ARGUMENT);
  col_pixel_hit out;
  memset(&out, CANARY, sizeof out);
  const col_status st = col_mask_overlap(nulls & 1 ? NULL : &a, nulls & 2 ? NULL : &b,
                                         (col_pixel_mode)mode, nulls & 4 ? NULL : &out);
  fa_judge("col_mask_overlap", st, applies, fa_untouched(&out, sizeof out));
  col_mask_free(&own_a), col_mask_free(&own_b);
}

void fa_pixel_move(fz_reader *r, bool reference) {
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
    fa_judge(reference ? "col_pixel_move_reference" : "col_pixel_move", st, applies,
             memcmp(&before, &actor, sizeof actor) == 0);
  }
  col_mask_free(&owned);
}
