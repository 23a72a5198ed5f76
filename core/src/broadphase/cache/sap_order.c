/* The order of the cache's kept sweep and prune brought up to date with a frame's moved boxes
 * (sap.c then looks them up): in place, each moved box shifted to its new position, while
 * the shifts stay few; otherwise one merge pass of the unmoved boxes with the moved ones,
 * sorted, into the second set of arrays. */
#include "state.h"

#include <string.h>

/* col__cache_sap_merge_moved's pass, `arrays` a constant (4 or 6) once inlined; returns how many
 * boxes of the result are inverted on x (the sweep's x_lower). */
static inline __attribute__((always_inline)) size_t
merge_pass(col_broadphase_cache *c, unsigned arrays, const float *const *sorted,
           const float *const *now, float *const *to_sorted, const uint32_t *moved_keys,
           const uint32_t *moved_order, size_t k, size_t total) {
  const uint32_t *order = c->sap_order, *keys = c->sap_keys;
  uint32_t *to_order = c->sap_order_back, *to_keys = c->sap_keys_back;
  size_t x_inverted = 0;
  for (size_t a = c->sap_m, b = k, w = total; w > 0;) {
    while (a > 0 && c->moved[order[a - 1]]) a--;
    --w;
    if (a > 0 && (b == 0 || keys[a - 1] > moved_keys[b - 1])) {
      --a;
      to_keys[w] = keys[a], to_order[w] = order[a];
      for (unsigned x = 0; x < arrays; x++) to_sorted[x][w] = sorted[x][a];
    } else {
      --b;
      const uint32_t i = moved_order[b];
      to_keys[w] = moved_keys[b], to_order[w] = i, c->moved_list[b] = (uint32_t)w;
      for (unsigned x = 0; x < arrays; x++) to_sorted[x][w] = now[x][i];
    }
    x_inverted += to_sorted[1][w] < to_sorted[0][w];
  }
  return x_inverted;
}

/* The order kept up to date when few boxes moved: the unmoved boxes keep their order and keys
 * (compacted), the moved ones that are usable are sorted on their new min x (radix) and merged
 * in from the back. Only moved boxes can have gained or lost a NaN. `scratch` has 4 words
 * per moved box.
 * Returns the number of boxes in the order; the positions of the *placed moved boxes, in
 * ascending order, replace the moved list. */
size_t col__cache_sap_merge_moved(col_broadphase_cache *c, const col_boxes *boxes,
                                  uint32_t *scratch, size_t moved, size_t *placed) {
  const unsigned arrays = 2 * boxes->dims;
  const float *sorted[6], *now[6];
  float *to_sorted[6];
  for (unsigned a = 0; a < arrays; a++)
    sorted[a] = col__cache_sap_array(c, a),
    to_sorted[a] = c->sap_sorted_back + a * (c->count + COL_SAP_PAD);
  for (unsigned k = 0; k < boxes->dims; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  /* The moved boxes usable now, sorted; `left` counts those that were in the order. */
  uint32_t *moved_keys = scratch, *moved_order = scratch + moved;
  size_t k = 0, left = 0;
  for (size_t q = 0; q < moved; q++) {
    const uint32_t i = c->moved_list[q];
    left += c->usable[i];
    c->usable[i] = !col__bp_has_nan(boxes, i);
    if (c->usable[i]) moved_order[k] = i, moved_keys[k++] = col__float_key(boxes->min[0][i]);
  }
  if (k > 0) col__radix_sort32(moved_keys, moved_order, k, scratch + 2 * moved);
  /* One pass from the back into the other set: the unmoved boxes in their order (moved ones
   * skipped) merged with the moved ones; then the sets swap. */
  const size_t total = c->sap_m - left + k;
  c->sap_inverted =
      boxes->dims == 3
          ? merge_pass(c, 6, sorted, now, to_sorted, moved_keys, moved_order, k, total)
          : merge_pass(c, 4, sorted, now, to_sorted, moved_keys, moved_order, k, total);
  uint32_t *t = c->sap_order;
  c->sap_order = c->sap_order_back, c->sap_order_back = t;
  t = c->sap_keys, c->sap_keys = c->sap_keys_back, c->sap_keys_back = t;
  float *f = c->sap_sorted;
  c->sap_sorted = c->sap_sorted_back, c->sap_sorted_back = f;
  for (size_t r = 0; r < total; r++) c->sap_pos[c->sap_order[r]] = (uint32_t)r;
  *placed = k;
  return total;
}

/* The kept order's arrays, held in locals while boxes are shifted. */
typedef struct {
  uint32_t *keys, *order, *pos;
  float *coords[6];
} kept_order;

/* One position of the kept order copied to another (its box's position follows); `count`
 * (4 or 6) a constant once inlined, the copies written out so that none is a loop. */
static inline __attribute__((always_inline)) void shift_one(const kept_order *o, unsigned count,
                                                            size_t from, size_t to) {
  o->keys[to] = o->keys[from];
  const uint32_t i = o->order[from];
  o->order[to] = i, o->pos[i] = (uint32_t)to;
  o->coords[0][to] = o->coords[0][from], o->coords[1][to] = o->coords[1][from];
  o->coords[2][to] = o->coords[2][from], o->coords[3][to] = o->coords[3][from];
  if (count == 6) o->coords[4][to] = o->coords[4][from], o->coords[5][to] = o->coords[5][from];
}

/* The moved boxes put back in place (col__cache_sap_move_in_place's loop), `count` a constant (4 or
 * 6) once inlined. Returns false once the shifts pass `budget` places. */
static inline __attribute__((always_inline)) bool place_moved(col_broadphase_cache *c,
                                                              const col_boxes *boxes,
                                                              unsigned count, size_t moved,
                                                              size_t budget) {
  kept_order o = {c->sap_keys, c->sap_order, c->sap_pos, {NULL}};
  const float *now[6];
  for (unsigned a = 0; a < count; a++) o.coords[a] = col__cache_sap_array(c, a);
  for (unsigned k = 0; k < count / 2; k++)
    now[2 * k] = boxes->min[k], now[2 * k + 1] = boxes->max[k];
  float *const *arrays = o.coords;
  uint32_t *keys = o.keys;
  size_t m = c->sap_m, shifted = 0;
  for (size_t q = 0; q < moved; q++) {
    const uint32_t i = c->moved_list[q];
    const bool was = c->usable[i], is = !col__bp_has_nan(boxes, i);
    if (!was && !is) continue;
    size_t p = m; /* a box joining the order starts past its end */
    if (was) {
      p = o.pos[i];
      c->sap_inverted -= arrays[1][p] < arrays[0][p];
    } else {
      m++;
    }
    size_t j = p;
    if (!is) { /* leaves the order: the boxes after it move up */
      for (; j + 1 < m; j++) shift_one(&o, count, j + 1, j);
      m--, c->usable[i] = false;
    } else {
      const uint32_t key = col__float_key(boxes->min[0][i]);
      for (; j > 0 && keys[j - 1] > key; j--) shift_one(&o, count, j - 1, j);
      if (j == p)
        for (; j + 1 < m && keys[j + 1] < key; j++) shift_one(&o, count, j + 1, j);
      keys[j] = key, o.order[j] = i, o.pos[i] = (uint32_t)j;
      for (unsigned a = 0; a < count; a++) arrays[a][j] = now[a][i];
      c->sap_inverted += arrays[1][j] < arrays[0][j];
      c->usable[i] = true;
    }
    shifted += j > p ? j - p : p - j;
    if (shifted > budget) {
      c->sap_m = m;
      return false;
    }
  }
  c->sap_m = m;
  return true;
}

/* The order kept up to date in place when the moved boxes go a few places: each is taken out
 * of its position and put where its new min x belongs, the boxes in between shifted one place
 * (the order stays sorted on the keys it holds after every box). Gives up, the order still
 * valid (each moved box at its new place or still at its old one, usable[] saying which boxes
 * it holds), once the shifts pass `budget` places; col__cache_sap_merge_moved then redoes
 * the frame.
 * On success the positions of the usable moved boxes, ascending, are the first *placed
 * entries of the moved list. `scratch` has 4 words per moved box and at least n / 32 + 1. */
bool col__cache_sap_move_in_place(col_broadphase_cache *c, const col_boxes *boxes,
                                  uint32_t *scratch, size_t moved, size_t budget, size_t *placed) {
  if (!(boxes->dims == 3 ? place_moved(c, boxes, 6, moved, budget)
                         : place_moved(c, boxes, 4, moved, budget)))
    return false;
  /* The moved boxes' positions in ascending order: when they are not too sparse, a bit per
   * position read back word by word (a tenth of the boxes moving sets about three bits a
   * word); otherwise a radix sort on the positions. */
  const size_t words = c->sap_m / 32 + 1;
  size_t k = 0;
  if (words <= 4 * moved) {
    uint32_t *bits = scratch;
    memset(bits, 0, words * sizeof *bits);
    for (size_t q = 0; q < moved; q++) {
      const uint32_t i = c->moved_list[q];
      const uint32_t at = c->sap_pos[i];
      if (c->usable[i]) bits[at / 32] |= 1u << (at % 32);
    }
    for (size_t w = 0; w < words; w++)
      for (uint32_t b = bits[w]; b != 0; b &= b - 1)
        c->moved_list[k++] = (uint32_t)(32 * w) + (uint32_t)__builtin_ctz(b);
  } else {
    uint32_t *at = scratch, *ids = scratch + moved;
    for (size_t q = 0; q < moved; q++) {
      const uint32_t i = c->moved_list[q];
      if (c->usable[i]) at[k] = c->sap_pos[i], ids[k++] = i;
    }
    col__radix_sort32(at, ids, k, scratch + 2 * moved);
    memcpy(c->moved_list, at, k * sizeof *at);
  }
  *placed = k;
  return true;
}
