/* The kept grid's check (COL_VALIDATE; kgrid.h): every resting box in exactly the cells of its
 * extent with its first-cell flags, each cell's room whole blocks and NaN past its count, the
 * big list's positions, no moving box placed. */
#include "kgrid.h"

#include "../../validate.h"

#include <string.h>

#ifdef COL_VALIDATE
static _Noreturn void fail(const char *rule, size_t at) {
  col__validate_fail("kept grid", rule, at);
}

/* Whether entry s of an array set holds box i's coordinates, bit for bit. */
static bool same_box(const float *v, size_t stride, size_t s, const col_boxes *b, uint32_t i) {
  for (unsigned k = 0; k < b->dims; k++)
    if (memcmp(&v[2 * k * stride + s], &b->min[k][i], sizeof(float)) != 0 ||
        memcmp(&v[(2 * k + 1) * stride + s], &b->max[k][i], sizeof(float)) != 0)
      return false;
  return true;
}

void col__kgrid_validate(const col__kgrid *g, const col_boxes *b, const bool *moving) {
  size_t entries = 0, covered = 0;
  for (size_t c = 0; c < g->cells; c++) {
    if (g->base[c + 1] < g->base[c] || g->count[c] > g->base[c + 1] - g->base[c])
      fail("a cell's entries exceed its room", c);
    const uint32_t x = (uint32_t)(c % g->n[0]), y = (uint32_t)(c / g->n[0] % g->n[1]),
                   z = (uint32_t)(c / g->n[0] / g->n[1]);
    for (size_t s = g->base[c]; s < g->base[c] + g->count[c]; s++) {
      const uint32_t i = word_at(g, s, COL__KG_INDEX(g));
      if (i >= g->boxes || g->place[i] != COL__PLACE_CELLS)
        fail("an entry's box is not placed in the cells", s);
      const uint32_t *r = g->range + 6 * (size_t)i;
      if (x < r[0] || x > r[3] || y < r[1] || y > r[4] || z < r[2] || z > r[5])
        fail("an entry lies outside its box's cells", s);
      const unsigned starts = (x == r[0]) | (y == r[1]) << 1 | (z == r[2]) << 2;
      if ((word_at(g, s, COL__KG_FLAGS(g)) & 7u) != starts)
        fail("an entry's first-cell flags are wrong", s);
      for (unsigned k = 0; k < b->dims; k++)
        if (memcmp(entry_at(g, s, 2 * k), &b->min[k][i], sizeof(float)) != 0 ||
            memcmp(entry_at(g, s, 2 * k + 1), &b->max[k][i], sizeof(float)) != 0)
          fail("an entry's box differs from the box", s);
      for (size_t t = g->base[c]; t < s; t++)
        if (word_at(g, t, COL__KG_INDEX(g)) == i) fail("a box twice in one cell", s);
      entries++;
    }
    for (size_t s = g->base[c] + g->count[c]; s < g->base[c + 1]; s++)
      for (unsigned a = 0; a < 2 * g->dims + 2; a++)
        if (word_at(g, s, a) != 0xffffffffu) fail("a cell's room is not NaN", s);
    if ((g->base[c + 1] - g->base[c]) % COL__KG_LANES != 0)
      fail("a cell's room is not whole blocks", c);
  }
  for (size_t i = 0; i < g->boxes; i++) {
    if (g->place[i] != COL__PLACE_NONE && moving != NULL && moving[i])
      fail("a moving box rests in the grid", i);
    if (g->place[i] == COL__PLACE_CELLS) {
      uint32_t r[6];
      const size_t cover = range_of(g, b, (uint32_t)i, r);
      if (cover > COL__KG_BIG_CELLS || memcmp(r, g->range + 6 * i, sizeof r) != 0)
        fail("a box's cells are not those of its extent", i);
      covered += cover;
    } else if (g->place[i] == COL__PLACE_BIG) {
      const size_t at = g->range[6 * i];
      if (at >= g->big_count || g->big_id[at] != i) fail("a big box's position is wrong", i);
    }
  }
  if (covered != entries) fail("the cells' entries are not the boxes' cells", entries);
  for (size_t p = 0; p < g->big_count; p++) {
    const uint32_t i = g->big_id[p];
    if (i >= g->boxes || g->place[i] != COL__PLACE_BIG) fail("a big entry's box is not big", p);
    if (!same_box(g->big_v, g->big_cap, p, b, i)) fail("a big entry differs from its box", p);
  }
}
#endif
