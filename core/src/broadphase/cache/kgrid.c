/* The kept grid of resting boxes (kgrid.h): built over the boxes that rest, boxes joining and
 * leaving one at a time (each cell keeps a quarter more room than it was built with); a moving
 * box's look-up is in kgrid_query.c. A cell's room is a multiple of four entries, those past its
 * count NaN (they never overlap), so a look-up tests whole vectors: a level's cells hold a few
 * tiles each, where a call of the backend's query kernel per cell cost about three times the
 * tests (its set-up and tail). */
#include "kgrid.h"

#include "../../validate.h"

#include <stdlib.h>
#include <string.h>

/* Builds are numbered across every grid of the process, so that a neighbourhood copied from
 * one grid never matches another's cells. */
static uint32_t builds;

void col__kgrid_free(col__kgrid *g) {
  free(g->base), free(g->count), free(g->v), free(g->gen);
  free(g->big_v), free(g->big_id), free(g->big_flag), free(g->place), free(g->range);
  *g = (col__kgrid){0};
}

/* The grid's shape from the resting boxes: bounds and mean extent per axis over the finite
 * ones, cells of about two mean extents, at most about two cells a box. */
static void shape(col__kgrid *g, const col_boxes *b, const bool *moving) {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, size[3] = {0, 0, 0};
  size_t m = 0;
  for (size_t i = 0; i < b->count; i++) {
    if (moving[i]) continue;
    bool finite = true;
    float l[3], h[3];
    for (unsigned k = 0; k < b->dims; k++) {
      extent(b, k, (uint32_t)i, &l[k], &h[k]);
      finite &= l[k] >= -3e38f && h[k] <= 3e38f; /* false for NaN and infinities */
    }
    if (!finite) continue;
    for (unsigned k = 0; k < b->dims; k++) {
      if (m == 0 || l[k] < lo[k]) lo[k] = l[k];
      if (m == 0 || h[k] > hi[k]) hi[k] = h[k];
      size[k] += (double)h[k] - l[k];
    }
    m++;
  }
  /* 64 bits: three axes of up to 65,536 cells are 2^48, past a 32-bit size_t (it wrapped, and
   * the cells were miscounted, on i386, armhf and wasm32). */
  uint64_t total = 1;
  for (unsigned k = 0; k < 3; k++) {
    g->n[k] = 1, g->lo[k] = (float)lo[k], g->inv[k] = 0.0f;
    if (k >= b->dims || m == 0) continue;
    const double range = hi[k] - lo[k], side = 2.0 * size[k] / (double)m;
    if (range > 0 && side > 0) {
      const double cells = range / side;
      g->n[k] = cells >= 65536.0 ? 65536u : (uint32_t)cells + 1;
    }
    total *= g->n[k];
  }
  const uint64_t limit = 2 * (uint64_t)m > 16 ? 2 * (uint64_t)m : 16;
  while (total > limit) {
    unsigned w = 0;
    for (unsigned k = 1; k < b->dims; k++)
      if (g->n[k] > g->n[w]) w = k;
    total = total / g->n[w] * ((g->n[w] + 1) / 2);
    g->n[w] = (g->n[w] + 1) / 2;
  }
  for (unsigned k = 0; k < b->dims; k++)
    if (g->n[k] > 1) g->inv[k] = (float)((double)g->n[k] / (hi[k] - lo[k]));
  g->cells = (size_t)total; /* at most `limit` */
}

/* Entry s of the cells or the big list gets box i. */
static void put(float *v, size_t stride, size_t s, const col_boxes *b, uint32_t i) {
  for (unsigned k = 0; k < b->dims; k++)
    v[2 * k * stride + s] = b->min[k][i], v[(2 * k + 1) * stride + s] = b->max[k][i];
}

static bool big_insert(col__kgrid *g, const col_boxes *b, uint32_t i, bool is_static) {
  if (g->big_count == g->big_cap) {
    const size_t cap = g->big_cap ? 2 * g->big_cap : 16, arrays = 2 * (size_t)g->dims;
    float *v = malloc(cap * arrays * sizeof(float));
    uint32_t *id = realloc(g->big_id, cap * sizeof(uint32_t));
    if (id != NULL) g->big_id = id;
    uint8_t *flag = realloc(g->big_flag, cap);
    if (flag != NULL) g->big_flag = flag;
    if (v == NULL || id == NULL || flag == NULL) {
      free(v);
      return false;
    }
    for (size_t a = 0; a < arrays && g->big_count > 0; a++)
      memcpy(v + a * cap, g->big_v + a * g->big_cap, g->big_count * sizeof(float));
    free(g->big_v);
    g->big_v = v, g->big_cap = cap;
  }
  put(g->big_v, g->big_cap, g->big_count, b, i);
  g->big_id[g->big_count] = i;
  g->big_flag[g->big_count] = is_static ? COL__ENTRY_STATIC : 0;
  g->place[i] = COL__PLACE_BIG, g->range[6 * (size_t)i] = (uint32_t)g->big_count++;
  return true;
}

bool col__kgrid_insert(col__kgrid *g, const col_boxes *b, uint32_t i, bool is_static) {
  if (col__bp_has_nan(b, i)) return true; /* never pairs: rests nowhere */
  uint32_t *r = g->range + 6 * (size_t)i;
  if (range_of(g, b, i, r) > COL__KG_BIG_CELLS) return big_insert(g, b, i, is_static);
  for (uint32_t z = r[2]; z <= r[5]; z++)
    for (uint32_t y = r[1]; y <= r[4]; y++)
      for (uint32_t x = r[0]; x <= r[3]; x++) {
        const size_t c = cell_index(g, x, y, z);
        if (g->base[c + 1] - g->base[c] == g->count[c]) return false;
      }
  for (uint32_t z = r[2]; z <= r[5]; z++)
    for (uint32_t y = r[1]; y <= r[4]; y++)
      for (uint32_t x = r[0]; x <= r[3]; x++) {
        const size_t c = cell_index(g, x, y, z), s = g->base[c] + g->count[c]++;
        g->gen[c]++, g->changes++;
        for (unsigned k = 0; k < b->dims; k++)
          *entry_at(g, s, 2 * k) = b->min[k][i], *entry_at(g, s, 2 * k + 1) = b->max[k][i];
        set_word(g, s, COL__KG_INDEX(g), i);
        set_word(g, s, COL__KG_FLAGS(g),
                 (uint32_t)((x == r[0]) | (y == r[1]) << 1 | (z == r[2]) << 2 |
                            (is_static ? COL__ENTRY_STATIC : 0)));
      }
  g->place[i] = COL__PLACE_CELLS;
  return true;
}

/* Entry `from` of an array set moved to `to` (the arrays of `stride` floats). */
static void move_entry(float *v, size_t stride, unsigned dims, size_t from, size_t to) {
  for (unsigned a = 0; a < 2 * dims; a++) v[a * stride + to] = v[a * stride + from];
}

void col__kgrid_remove(col__kgrid *g, uint32_t i) {
  const uint32_t *r = g->range + 6 * (size_t)i;
  if (g->place[i] == COL__PLACE_BIG) {
    const size_t at = r[0], last = --g->big_count;
    move_entry(g->big_v, g->big_cap, g->dims, last, at);
    g->big_id[at] = g->big_id[last], g->big_flag[at] = g->big_flag[last];
    g->range[6 * (size_t)g->big_id[at]] = (uint32_t)at;
  } else if (g->place[i] == COL__PLACE_CELLS) {
    for (uint32_t z = r[2]; z <= r[5]; z++)
      for (uint32_t y = r[1]; y <= r[4]; y++)
        for (uint32_t x = r[0]; x <= r[3]; x++) {
          const size_t c = cell_index(g, x, y, z), first = g->base[c];
          const size_t last = first + --g->count[c];
          g->gen[c]++, g->changes++;
          size_t s = first;
          while (word_at(g, s, COL__KG_INDEX(g)) != i) s++;
          for (unsigned a = 0; a < 2 * g->dims + 2; a++) {
            set_word(g, s, a, word_at(g, last, a));
            set_word(g, last, a, 0xffffffffu); /* NaN */
          }
        }
  }
  g->place[i] = COL__PLACE_NONE;
}

col_status col__kgrid_build(col__kgrid *g, const col_boxes *b, const bool *moving,
                            const uint8_t *statics) {
  const size_t n = b->count;
  col__kgrid_free(g);
  g->dims = b->dims, g->boxes = n;
  shape(g, b, moving);
  g->place = calloc(n ? n : 1, 1);
  g->range = malloc((n ? n : 1) * 6 * sizeof(uint32_t));
  g->base = calloc(g->cells + 1, sizeof(uint32_t));
  g->count = calloc(g->cells, sizeof(uint32_t));
  g->gen = calloc(g->cells, sizeof(uint32_t));
  g->epoch = ++builds ? builds : ++builds; /* never 0: an empty neighbourhood's epoch */
  if (g->place == NULL || g->range == NULL || g->base == NULL || g->count == NULL ||
      g->gen == NULL) {
    col__kgrid_free(g);
    return COL_ERR_MEMORY;
  }
  /* Count each cell's boxes (in count), then give each a quarter more room, and two. */
  for (size_t i = 0; i < n; i++) {
    uint32_t *r = g->range + 6 * i;
    if (moving[i] || col__bp_has_nan(b, i) || range_of(g, b, (uint32_t)i, r) > COL__KG_BIG_CELLS)
      continue;
    for (uint32_t z = r[2]; z <= r[5]; z++)
      for (uint32_t y = r[1]; y <= r[4]; y++)
        for (uint32_t x = r[0]; x <= r[3]; x++) g->count[cell_index(g, x, y, z)]++;
  }
  size_t slots = 0;
  for (size_t c = 0; c < g->cells; c++) {
    g->base[c] = (uint32_t)slots;
    slots +=
        (g->count[c] + g->count[c] / 4 + 2 + COL__KG_LANES - 1) / COL__KG_LANES * COL__KG_LANES;
    g->count[c] = 0;
  }
  g->base[g->cells] = (uint32_t)slots;
  g->slots = slots;
  const size_t words = slots * (2 * b->dims + 2);
  g->v = malloc(words * sizeof(float));
  if (g->v == NULL) {
    col__kgrid_free(g);
    return COL_ERR_MEMORY;
  }
  memset(g->v, 0xff, words * sizeof(float)); /* all NaN */
  for (size_t i = 0; i < n; i++)
    if (!moving[i] && !col__kgrid_insert(g, b, (uint32_t)i, statics != NULL && statics[i])) {
      col__kgrid_free(g); /* only the big list's growth can fail here */
      return COL_ERR_MEMORY;
    }
  return COL_OK;
}
