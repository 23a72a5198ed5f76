/* A moving box's look-up in the kept grid (kgrid.h): its neighbourhood (the entries of the
 * cells around its fat box, copied into an arena and copied again only when the box leaves the
 * fat box or a cell changes) tested four entries at a time (eight in the AVX2 build); a cell's
 * room past its count is NaN, so whole vectors are tested. The big list goes through the
 * backend's query kernel. */
#include "kgrid.h"

#include <stdlib.h>
#include <string.h>

/* Box q against entries [first, first + count) of an array set, hits' offsets in idx. */
static size_t query_set(const col__bp *bp, col_aabb3 q, const float *v, size_t stride, size_t first,
                        size_t count, uint32_t *idx) {
  const float *min[3] = {v, v + 2 * stride, v + 4 * stride};
  const float *max[3] = {v + stride, v + 3 * stride, v + 5 * stride};
  return col__bp_query_run(bp, q, min, max, first, count, idx);
}

/* Blocks [v, end) of a neighbourhood's entries tested against box i (q) by the reference rule
 * (aabb_ref.h: closed a_max >= b_min && b_max >= a_min, open with >; NaN lanes never), kept
 * when they have none of the `skip` flags; the hits written to dst, their number returned. The
 * same text is built for four lanes (two steps a block) and, on x86, for eight under
 * target("avx2") (one step), the same answers; `dims` and `open` are constants where it is
 * expanded. */
#define TEST_BLOCKS(name, attr, vf, vi, W, load, movemask)                                         \
  attr size_t name(const float *v, const float *end, col_aabb3 q, unsigned skip, uint32_t i,       \
                   col_pair *dst, unsigned dims, bool open) {                                      \
    const vf lo_x = (vf){0} + q.min.x, lo_y = (vf){0} + q.min.y, lo_z = (vf){0} + q.min.z;         \
    const vf hi_x = (vf){0} + q.max.x, hi_y = (vf){0} + q.max.y, hi_z = (vf){0} + q.max.z;         \
    const vi skip_v = (vi){0} + (int32_t)skip;                                                     \
    const size_t block = COL__KG_LANES * (2 * (size_t)dims + 2);                                   \
    size_t got = 0;                                                                                \
    for (; v < end; v += block)                                                                    \
      for (unsigned h = 0; h < COL__KG_LANES; h += W) {                                            \
        const float *u = v + h;                                                                    \
        const vf ax = load(u), bx = load(u + COL__KG_LANES), ay = load(u + 2 * COL__KG_LANES),     \
                 by = load(u + 3 * COL__KG_LANES);                                                 \
        vi m = open ? (bx > lo_x) & (hi_x > ax) & (by > lo_y) & (hi_y > ay)                        \
                    : (bx >= lo_x) & (hi_x >= ax) & (by >= lo_y) & (hi_y >= ay);                   \
        if (dims == 3) {                                                                           \
          const vf az = load(u + 4 * COL__KG_LANES), bz = load(u + 5 * COL__KG_LANES);             \
          m &= open ? (bz > lo_z) & (hi_z > az) : (bz >= lo_z) & (hi_z >= az);                     \
        }                                                                                          \
        const vi flags = (vi)load(u + 2 * dims * COL__KG_LANES);                                   \
        m &= (flags & skip_v) == 0;                                                                \
        unsigned bits = movemask(m);                                                               \
        while (bits != 0) {                                                                        \
          uint32_t j;                                                                              \
          memcpy(&j, u + (2 * dims + 1) * COL__KG_LANES + __builtin_ctz(bits), sizeof j);          \
          bits &= bits - 1;                                                                        \
          dst[got++] = i < j ? (col_pair){i, j} : (col_pair){j, i};                                \
        }                                                                                          \
      }                                                                                            \
    return got;                                                                                    \
  }

TEST_BLOCKS(blocks4, COL__BP_INLINE, col__f4, col__i4, 4, load4, lanes_set)

#if defined(__x86_64__) || defined(__i386__)
typedef float col__f8 __attribute__((vector_size(32)));
typedef int32_t col__i8 __attribute__((vector_size(32)));
COL__AVX2_BUILD static inline col__f8 load8(const float *p) {
  col__f8 v;
  memcpy(&v, p, sizeof v);
  return v;
}
COL__AVX2_BUILD static inline unsigned lanes_set8(col__i8 m) {
  return (unsigned)__builtin_ia32_movmskps256((col__f8)m);
}
TEST_BLOCKS(blocks8_body, COL__AVX2_BUILD __attribute__((always_inline)) static inline, col__f8,
            col__i8, 8, load8, lanes_set8)
/* The AVX2 build, one copy per dims and rule. */
COL__AVX2_BUILD static size_t blocks8(const float *v, const float *end, col_aabb3 q, unsigned skip,
                                      uint32_t i, col_pair *dst, unsigned dims, bool open) {
  if (dims == 2)
    return open ? blocks8_body(v, end, q, skip, i, dst, 2, true)
                : blocks8_body(v, end, q, skip, i, dst, 2, false);
  return open ? blocks8_body(v, end, q, skip, i, dst, 3, true)
              : blocks8_body(v, end, q, skip, i, dst, 3, false);
}
#endif

/* Box i against its neighbourhood's blocks [v, end), then the big list: `room` entries at
 * most, written into bp's list. */
static col_status look_up(const col__kgrid *g, col__bp *bp, uint32_t i, bool is_static, bool avx2,
                          uint32_t *idx, const float *v, const float *end, size_t room) {
  bp->stats.tests += room;
  if (room == 0) return COL_OK; /* the list may hold no memory yet */
  const col_status st = col__bp_reserve(bp, room);
  if (st != COL_OK) return st;
  const col_aabb3 q = col__bp_box(bp->boxes, i);
  const bool open = bp->touch == COL_TOUCH_SEPARATES;
  col_pair *dst = bp->out->data + bp->out->count;
  const unsigned skip = is_static ? COL__ENTRY_STATIC : 0;
  size_t got;
#if defined(__x86_64__) || defined(__i386__)
  if (avx2)
    got = blocks8(v, end, q, skip, i, dst, g->dims, open);
  else
#else
  (void)avx2; /* no AVX2 build off x86 */
#endif
      if (g->dims == 2)
    got = open ? blocks4(v, end, q, skip, i, dst, 2, true)
               : blocks4(v, end, q, skip, i, dst, 2, false);
  else
    got = open ? blocks4(v, end, q, skip, i, dst, 3, true)
               : blocks4(v, end, q, skip, i, dst, 3, false);
  if (g->big_count > 0) {
    const size_t hits = query_set(bp, q, g->big_v, g->big_cap, 0, g->big_count, idx);
    for (size_t h = 0; h < hits; h++) {
      const uint32_t j = g->big_id[idx[h]];
      dst[got] = i < j ? (col_pair){i, j} : (col_pair){j, i};
      got += !(g->big_flag[idx[h]] & skip);
    }
  }
  bp->out->count += got, bp->stats.pairs += got;
  return COL_OK;
}

/* A fat box's cell range, the cells' join-and-leave sum and their entries. */
static void fat_cells(const col__kgrid *g, const float lo[3], const float hi[3], uint32_t r[6],
                      uint64_t *gen, size_t *entries) {
  r[2] = r[5] = 0;
  for (unsigned k = 0; k < g->dims; k++)
    r[k] = cell_of(g, k, lo[k]), r[3 + k] = cell_of(g, k, hi[k]);
  *gen = 0, *entries = 0;
  for (uint32_t z = r[2]; z <= r[5]; z++)
    for (uint32_t y = r[1]; y <= r[4]; y++)
      for (uint32_t x = r[0]; x <= r[3]; x++) {
        const size_t c = cell_index(g, x, y, z);
        *gen += g->gen[c], *entries += g->count[c];
      }
}

/* Which entries of the block at v (bits 0-7) meet the fat box by the closed rule and have
 * every flag of `need`: four lanes twice. */
static inline unsigned near_mask(const float *v, const col__kgrid_near *near, uint32_t need_bits,
                                 unsigned dims) {
  unsigned bits = 0;
  const col__i4 need = (col__i4){0} + (int32_t)need_bits;
  for (unsigned h = 0; h < COL__KG_LANES; h += 4) {
    const float *u = v + h;
    col__i4 m = (load4(u + COL__KG_LANES) >= splat4(near->lo[0])) &
                (splat4(near->hi[0]) >= load4(u)) &
                (load4(u + 3 * COL__KG_LANES) >= splat4(near->lo[1])) &
                (splat4(near->hi[1]) >= load4(u + 2 * COL__KG_LANES));
    if (dims == 3)
      m &= (load4(u + 5 * COL__KG_LANES) >= splat4(near->lo[2])) &
           (splat4(near->hi[2]) >= load4(u + 4 * COL__KG_LANES));
    const col__i4 flags = (col__i4)load4(u + 2 * dims * COL__KG_LANES);
    m &= (flags & need) == need;
    bits |= lanes_set(m) << h;
  }
  return bits;
}

/* Copies into `near` the entries of the fat box's cells that meet it by the closed rule (every
 * box that meets the box itself by either rule does: the fat box holds it) and count for it by
 * the first-cell rule, growing the arena when its room is short; false when out of memory. */
static bool copy_near(const col__kgrid *g, const uint32_t r[6], size_t entries, uint64_t gen,
                      col__kgrid_near *near, col__kgrid_arena *arena) {
  const size_t words = 2 * (size_t)g->dims + 2, block = COL__KG_LANES * words;
  const size_t need = (entries + COL__KG_LANES - 1) / COL__KG_LANES;
  memcpy(near->range, r, sizeof near->range);
  near->gen = gen, near->epoch = g->epoch, near->len = 0, near->changes = g->changes;
  if (need == 0) return true; /* no entry: nothing to copy (the arena may be empty) */
  if (near->cap < need || near->off == UINT32_MAX) {
    if (arena->blocks + need > arena->cap) {
      const size_t cap = (arena->blocks + need) * 2 + 64;
      float *v = realloc(arena->v, cap * block * sizeof(float));
      if (v == NULL) return false;
      arena->v = v, arena->cap = cap;
    }
    if (near->off != UINT32_MAX) arena->live -= near->cap; /* its old room is left unused */
    near->off = (uint32_t)arena->blocks, near->cap = (uint32_t)need;
    arena->blocks += need, arena->live += need;
  }
  float *dst = arena->v + (size_t)near->off * block;
  size_t len = 0;
  for (uint32_t z = r[2]; z <= r[5]; z++)
    for (uint32_t y = r[1]; y <= r[4]; y++)
      for (uint32_t x = r[0]; x <= r[3]; x++) {
        const size_t c = cell_index(g, x, y, z);
        const uint32_t need_bits = (x != r[0]) | (y != r[1]) << 1 | (z != r[2]) << 2;
        /* A block at a time: which of its entries count (the reference rule's closed compares
         * against the fat box, the flags), then those copied. */
        const float *v = g->v + (size_t)g->base[c] / COL__KG_LANES * block;
        const float *end = v + ((size_t)g->count[c] + COL__KG_LANES - 1) / COL__KG_LANES * block;
        for (; v < end; v += block) {
          unsigned bits = near_mask(v, near, need_bits, g->dims);
          while (bits != 0) {
            const unsigned lane = (unsigned)__builtin_ctz(bits);
            bits &= bits - 1;
            float *to = dst + len / COL__KG_LANES * block + len % COL__KG_LANES;
            for (unsigned a = 0; a < words; a++)
              to[a * COL__KG_LANES] = v[a * COL__KG_LANES + lane];
            len++;
          }
        }
      }
  for (size_t t = len; t % COL__KG_LANES != 0; t++) /* the last block's rest: NaN */
    for (unsigned a = 0; a < words; a++)
      memset(dst + t / COL__KG_LANES * block + t % COL__KG_LANES + a * COL__KG_LANES, 0xff, 4);
  near->len = (uint32_t)len;
  return true;
}

col_status col__kgrid_query_near(const col__kgrid *g, col__bp *bp, uint32_t i, bool is_static,
                                 bool avx2, uint32_t *idx, col__kgrid_near *near,
                                 col__kgrid_arena *arena) {
  const col_boxes *b = bp->boxes;
  float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  bool inside = near->epoch == g->epoch;
  for (unsigned k = 0; k < g->dims; k++) {
    extent(b, k, i, &lo[k], &hi[k]);
    inside &= lo[k] >= near->lo[k] && hi[k] <= near->hi[k];
  }
  uint64_t gen = 0;
  size_t entries = 0;
  if (inside && near->changes != g->changes) {
    /* Inside its fat box, but some cell changed: the list holds while its own are unchanged. */
    for (uint32_t z = near->range[2]; z <= near->range[5]; z++)
      for (uint32_t y = near->range[1]; y <= near->range[4]; y++)
        for (uint32_t x = near->range[0]; x <= near->range[3]; x++)
          gen += g->gen[cell_index(g, x, y, z)];
    inside = gen == near->gen;
    near->changes = g->changes;
  }
  if (!inside) {
    /* A new fat box: half a cell more on every side (none on an axis of one cell). */
    for (unsigned k = 0; k < g->dims; k++) {
      const float m = g->inv[k] > 0 ? 0.5f / g->inv[k] : 0.0f;
      near->lo[k] = lo[k] - m, near->hi[k] = hi[k] + m;
      if (!(near->lo[k] <= lo[k] && hi[k] <= near->hi[k])) /* infinities, rounding */
        near->lo[k] = lo[k], near->hi[k] = hi[k];
    }
    uint32_t r[6];
    fat_cells(g, near->lo, near->hi, r, &gen, &entries);
    if (!copy_near(g, r, entries, gen, near, arena)) return COL_ERR_MEMORY;
  }
  static const float none[1] = {0};
  const size_t block = COL__KG_LANES * (2 * (size_t)g->dims + 2);
  const float *v = near->len > 0 ? arena->v + (size_t)near->off * block : none;
  const float *end = v + ((size_t)near->len + COL__KG_LANES - 1) / COL__KG_LANES * block;
  return look_up(g, bp, i, is_static, avx2, idx, v, end, near->len + g->big_count);
}
