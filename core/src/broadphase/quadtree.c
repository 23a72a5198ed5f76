/* Quadtree (2D) / octree (3D), the classic form: a node keeps the boxes that straddle its
 * centre lines and passes the others down to the child cell that holds them strictly (a box
 * touching a centre line stays, so boxes in sibling cells are strictly apart and can never pair,
 * touching included). Each box is then tested against the boxes of its own node and of the
 * ancestor nodes: each pair exactly once. Placement uses the normalized box (it contains the
 * real one's overlaps); the exact rule decides. Boxes with NaN never pair; infinite ones stay at
 * the root.
 *
 * On meshes (triangles' boxes sharing vertices) the classic form tested every box against every
 * ancestor's box and a node's boxes all against each other: the triangles that cross a centre
 * plane stay high in the tree, about 2,800 ancestors per box and 250 M tests on an 89,000
 * triangle mesh (docs/tuning.md). Two changes keep the tree and its pair set:
 *   - a child is handed only the ancestors' boxes that meet the bounds of the child's own
 *     boxes (no other ancestor can pair with a box below it);
 *   - a large node's pairs are swept rather than tested all against all: its boxes are sorted
 *     into classes by which centre planes they touch (those touching plane x lie in a slab
 *     around it, spread over y and z, so a sweep on x would meet them all), and each pair of
 *     classes is swept on the axis where their boxes are most spread out for their size;
 *     smaller nodes test all against all, four boxes a step.
 * The boxes are renumbered in the Morton order of their centres first, so that a node's boxes
 * lie close together in memory. */
#include "quadtree_state.h"
#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Which child cell holds b strictly, or -1 when it straddles (or touches) a centre line. A
 * branch per axis: in Morton order neighbours mostly go the same way, and the branches beat
 * computing every compare. */
static int child_of(col_aabb3 b, col_vec3 centre, unsigned dims) {
  int k = 0;
  if (b.max.x < centre.x)
    k |= 0;
  else if (b.min.x > centre.x)
    k |= 1;
  else
    return -1;
  if (b.max.y < centre.y)
    k |= 0;
  else if (b.min.y > centre.y)
    k |= 2;
  else
    return -1;
  if (dims == 3) {
    if (b.max.z < centre.z)
      k |= 0;
    else if (b.min.z > centre.z)
      k |= 4;
    else
      return -1;
  }
  return k;
}

static col_vec3 centre_of(col_aabb3 cell) {
  return (col_vec3){0.5f * cell.min.x + 0.5f * cell.max.x, 0.5f * cell.min.y + 0.5f * cell.max.y,
                    0.5f * cell.min.z + 0.5f * cell.max.z};
}

#ifdef COL_VALIDATE
static _Noreturn void qt_fail(const char *invariant, size_t index) {
  col__validate_fail("quadtree", invariant, index);
}

static int by_index(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* One node right after its partition: the parts' sizes add up, every item is a box index
 * held once, the staying boxes straddle or touch a centre line, and each child's boxes lie
 * strictly inside that child's side of every centre line (what makes sibling cells unable to
 * pair). Boxes above and in the node never outnumber the boxes. Sorts a copy in `scratch`
 * (n entries, free at this point of visit) to find a repeated item: no memory of its own. */
void col__quadtree_validate(const col__qt_node *node, uint32_t *scratch) {
  const size_t n = node->n;
  const unsigned children = node->dims == 3 ? 8 : 4;
  size_t parts = node->stay;
  for (unsigned k = 0; k < children; k++) parts += node->count[k];
  if (parts != n) qt_fail("partition sizes do not add up to the node's boxes", parts);
  if (n > node->box_count || node->above > node->box_count - n)
    qt_fail("more boxes above and in the node than boxes", node->above);
  const col_vec3 centre = centre_of(node->cell);
  size_t first = node->stay;
  unsigned child = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t item = node->items[i];
    if (item >= node->box_count) qt_fail("box index out of range", i);
    while (i >= node->stay && child < children && i >= first + node->count[child])
      first += node->count[child++];
    const int k = child_of(node->norm[item], centre, node->dims);
    if (i < node->stay && k >= 0) qt_fail("staying box lies inside one child cell", i);
    if (i >= node->stay && k != (int)child) qt_fail("box not strictly inside its child cell", i);
    scratch[i] = item;
  }
  qsort(scratch, n, sizeof *scratch, by_index);
  for (size_t i = 1; i < n; i++)
    if (scratch[i] == scratch[i - 1]) qt_fail("box held twice in the node", scratch[i]);
}
#endif

static col_status reserve_above(col__qt *q, size_t need) {
  if (need <= q->above_cap) return COL_OK;
  size_t cap = 2 * q->above_cap;
  if (cap < need) cap = need;
  uint32_t *p = realloc(q->above, cap * sizeof *p);
  if (!p) return COL_ERR_MEMORY;
  q->above = p, q->above_cap = cap;
  col__qt_account(q);
  return COL_OK;
}

static col_status reserve_mask(col__qt *q, size_t need) {
  if (need <= q->mask_cap) return COL_OK;
  size_t cap = 2 * q->mask_cap;
  if (cap < need) cap = need;
  uint8_t *p = realloc(q->mask, cap);
  if (!p) return COL_ERR_MEMORY;
  q->mask = p, q->mask_cap = cap;
  col__qt_account(q);
  return COL_OK;
}

/* The children's bounds as lanes: group g holds children 4g..4g+3, lo/hi[g][axis]. A child
 * without boxes has NaN bounds, which no box meets. */
typedef struct kid_bounds {
  col__f4 lo[2][3], hi[2][3];
} kid_bounds;

/* Bit k set when normalized box b meets the bounds of child k's boxes (closed: a box touching
 * them may pair); no other box held above a child can pair with a box below it. */
static inline unsigned kids_met(col_aabb3 b, const kid_bounds *kb, unsigned groups, unsigned dims) {
  unsigned mask = 0;
  for (unsigned g = 0; g < groups; g++) {
    col__i4 m = (splat4(b.min.x) <= kb->hi[g][0]) & (kb->lo[g][0] <= splat4(b.max.x)) &
                (splat4(b.min.y) <= kb->hi[g][1]) & (kb->lo[g][1] <= splat4(b.max.y));
    if (dims == 3) m &= (splat4(b.min.z) <= kb->hi[g][2]) & (kb->lo[g][2] <= splat4(b.max.z));
    mask |= lanes_set(m) << 4 * g;
  }
  return mask;
}

/* Finds the node's pairs (its own boxes against each other and against its ancestor list,
 * above[a_first, +a_count)), then recurses into the children, each handed the boxes of that
 * list and of this node that meet the bounds of the child's boxes. items[0, n) is reordered in
 * place. */
static col_status visit(col__qt *q, uint32_t *items, size_t n, col_aabb3 cell, size_t a_first,
                        size_t a_count, int depth) {
  const col_vec3 centre = centre_of(cell);
  const unsigned children = q->dims == 3 ? 8 : 4;
  size_t count[8] = {0}, stay = 0;
  col_aabb3 bounds[8];
  const bool split =
      n > (depth == 0 ? COL__QT_ROOT_SPLIT : col__qt_leaf_size) && depth < COL__QT_MAX_DEPTH;
  if (split) {
    /* Stable partition: staying items first, then children 0..7, via the scratch space (each
     * item's child kept from the first pass); the bounds of each child's boxes on the way. */
    for (unsigned k = 0; k < children; k++)
      bounds[k] = (col_aabb3){{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}};
    for (size_t i = 0; i < n; i++) {
      const col_aabb3 b = q->norm[items[i]];
      const int k = child_of(b, centre, q->dims);
      q->kid[i] = (signed char)k;
      if (k < 0) {
        stay++;
        continue;
      }
      count[k]++;
      col_aabb3 *r = &bounds[k];
      r->min.x = b.min.x < r->min.x ? b.min.x : r->min.x;
      r->max.x = b.max.x > r->max.x ? b.max.x : r->max.x;
      r->min.y = b.min.y < r->min.y ? b.min.y : r->min.y;
      r->max.y = b.max.y > r->max.y ? b.max.y : r->max.y;
      r->min.z = b.min.z < r->min.z ? b.min.z : r->min.z;
      r->max.z = b.max.z > r->max.z ? b.max.z : r->max.z;
    }
    size_t at[9];
    at[0] = stay;
    for (unsigned k = 0; k < children; k++) at[k + 1] = at[k] + count[k];
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
      const int k = q->kid[i];
      q->scratch[k < 0 ? s++ : at[k]++] = items[i];
    }
    for (size_t i = 0; i < n; i++) items[i] = q->scratch[i];
    COL_VALIDATE_CALL(
        col__quadtree_validate(&(col__qt_node){q->norm, items, n, stay, count, cell, q->dims,
                                               q->bp->boxes->count, q->held_above},
                               q->scratch));
  } else {
    stay = n;
  }
  col_status st =
      col__qt_node_pairs(q, items, stay, a_count ? q->above + a_first : NULL, a_count, centre);
  if (!split || st != COL_OK) return st;
  /* Which children each box of the list and of this node meets, in one pass over the boxes;
   * each child's list is then copied out of the bytes without a branch. */
  const size_t nl = a_count + stay, mbase = q->mask_len;
  st = reserve_mask(q, mbase + nl);
  if (st == COL_OK) st = reserve_above(q, q->above_len + nl);
  if (st != COL_OK) return st;
  float lanes[2][2][3][4]; /* [lo, hi][group][axis][child in the group] */
  const col_aabb3 none = {{NAN, NAN, NAN}, {NAN, NAN, NAN}};
  for (unsigned k = 0; k < 8; k++) {
    const col_aabb3 r = k < children && count[k] > 0 ? bounds[k] : none;
    float *lo = &lanes[0][k / 4][0][k % 4], *hi = &lanes[1][k / 4][0][k % 4];
    lo[0] = r.min.x, lo[4] = r.min.y, lo[8] = r.min.z;
    hi[0] = r.max.x, hi[4] = r.max.y, hi[8] = r.max.z;
  }
  kid_bounds kb;
  memcpy(kb.lo, lanes[0], sizeof kb.lo), memcpy(kb.hi, lanes[1], sizeof kb.hi);
  const unsigned groups = children / 4;
  for (size_t j = 0; j < a_count; j++)
    q->mask[mbase + j] = (uint8_t)kids_met(q->norm[q->above[a_first + j]], &kb, groups, q->dims);
  for (size_t j = 0; j < stay; j++)
    q->mask[mbase + a_count + j] = (uint8_t)kids_met(q->norm[items[j]], &kb, groups, q->dims);
  q->mask_len = mbase + nl;
  q->held_above += stay;
  size_t first = stay;
  for (unsigned k = 0; k < children && st == COL_OK; k++) {
    col_aabb3 sub = cell;
    if (k & 1)
      sub.min.x = centre.x;
    else
      sub.max.x = centre.x;
    if (k & 2)
      sub.min.y = centre.y;
    else
      sub.max.y = centre.y;
    if (q->dims == 3) {
      if (k & 4)
        sub.min.z = centre.z;
      else
        sub.max.z = centre.z;
    }
    if (count[k] > 0) {
      const size_t base = q->above_len;
      st = reserve_above(q, base + nl);
      if (st != COL_OK) break;
      size_t m = 0;
      if (nl > 0) { /* (the arrays are NULL until first grown) */
        uint32_t *out = q->above + base;
        const uint32_t *list = q->above + a_first;
        const uint8_t *mk = q->mask + mbase;
        for (size_t j = 0; j < a_count; j++) out[m] = list[j], m += mk[j] >> k & 1;
        for (size_t j = 0; j < stay; j++) out[m] = items[j], m += mk[a_count + j] >> k & 1;
      }
      q->above_len = base + m;
      st = visit(q, items + first, count[k], sub, base, m, depth + 1);
      q->above_len = base;
    }
    first += count[k];
  }
  q->mask_len = mbase;
  q->held_above -= stay;
  return st;
}

/* Which of `cells` slices of lo..hi holds c (the first or last for values outside, 0 for NaN). */
static uint32_t slice_of(float c, float lo, float scale, uint32_t cells) {
  const float t = (c - lo) * scale;
  if (!(t > 0.0f)) return 0;
  return t < (float)cells ? (uint32_t)t : cells - 1;
}

/* x's low bits spread out with two zero bits (3D) or one (2D) between them, for a Morton key. */
static uint32_t spread3(uint32_t x) {
  x &= 0x3ff;
  x = (x | (x << 16)) & 0x030000ffu, x = (x | (x << 8)) & 0x0300f00fu;
  x = (x | (x << 4)) & 0x030c30c3u, x = (x | (x << 2)) & 0x09249249u;
  return x;
}
static uint32_t spread2(uint32_t x) {
  x &= 0xffff;
  x = (x | (x << 8)) & 0x00ff00ffu, x = (x | (x << 4)) & 0x0f0f0f0fu;
  x = (x | (x << 2)) & 0x33333333u, x = (x | (x << 1)) & 0x55555555u;
  return x;
}

col_status col__bp_quadtree(col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  uint32_t *items = calloc(n, sizeof *items), *scratch = calloc(n, sizeof *scratch);
  signed char *kid = calloc(n, sizeof *kid);
  col_status st = items && scratch && kid ? COL_OK : COL_ERR_MEMORY;
  col__qt q = {.bp = bp, .scratch = scratch, .kid = kid, .dims = boxes->dims};
  size_t m = 0;
  col_aabb3 root = {{INFINITY, INFINITY, 0.0f}, {-INFINITY, -INFINITY, 0.0f}};
  if (boxes->dims == 3) root.min.z = INFINITY, root.max.z = -INFINITY;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    if (col__bp_has_nan(boxes, i)) continue;
    items[m++] = (uint32_t)i;
    const col_aabb3 b = col__normalized(col__bp_box(boxes, i));
    /* The root cell spans the finite coordinates; infinite boxes straddle it and stay. */
    root.min.x = b.min.x < root.min.x && isfinite(b.min.x) ? b.min.x : root.min.x;
    root.max.x = b.max.x > root.max.x && isfinite(b.max.x) ? b.max.x : root.max.x;
    root.min.y = b.min.y < root.min.y && isfinite(b.min.y) ? b.min.y : root.min.y;
    root.max.y = b.max.y > root.max.y && isfinite(b.max.y) ? b.max.y : root.max.y;
    root.min.z = b.min.z < root.min.z && isfinite(b.min.z) ? b.min.z : root.min.z;
    root.max.z = b.max.z > root.max.z && isfinite(b.max.z) ? b.max.z : root.max.z;
  }
  /* The boxes renumbered by position in the Morton order of their centres over the root cell:
   * a node's boxes then lie close together in memory, and the passes over them (the split,
   * the lists handed down) read a few cache lines instead of one per box; on a 89,000-triangle
   * mesh they spent most of their time waiting for memory (docs/tuning.md). */
  uint32_t *pos = NULL, *sort_scratch = NULL;
  col_aabb3 *pnorm = NULL, *pbox = NULL;
  if (st == COL_OK && m > 1) {
    pos = malloc(m * sizeof *pos), sort_scratch = malloc(2 * m * sizeof *sort_scratch);
    pnorm = malloc(m * sizeof *pnorm), pbox = malloc(m * sizeof *pbox);
    if (!pos || !sort_scratch || !pnorm || !pbox) st = COL_ERR_MEMORY;
  }
  q.base_bytes = n * (2 * sizeof(uint32_t) + sizeof *kid) +
                 (pos ? m * (3 * sizeof(uint32_t) + sizeof *pnorm + sizeof *pbox) : 0);
  col__qt_account(&q);
  if (st == COL_OK && m > 1) {
    const bool three = boxes->dims == 3;
    const uint32_t cells = three ? 1024 : 65536;
    const float lo[3] = {root.min.x, root.min.y, root.min.z},
                hi[3] = {root.max.x, root.max.y, root.max.z};
    float scale[3];
    for (unsigned k = 0; k < 3; k++) scale[k] = hi[k] > lo[k] ? (float)cells / (hi[k] - lo[k]) : 0;
    for (size_t p = 0; p < m; p++) {
      const col_aabb3 b = col__normalized(col__bp_box(boxes, items[p]));
      const uint32_t x = slice_of(0.5f * b.min.x + 0.5f * b.max.x, lo[0], scale[0], cells);
      const uint32_t y = slice_of(0.5f * b.min.y + 0.5f * b.max.y, lo[1], scale[1], cells);
      if (three) {
        const uint32_t z = slice_of(0.5f * b.min.z + 0.5f * b.max.z, lo[2], scale[2], cells);
        pos[p] = spread3(x) | spread3(y) << 1 | spread3(z) << 2;
      } else {
        pos[p] = spread2(x) | spread2(y) << 1;
      }
    }
    col__radix_sort32(pos, items, m, sort_scratch);
    for (size_t p = 0; p < m; p++) {
      pbox[p] = col__bp_box(boxes, items[p]), pnorm[p] = col__normalized(pbox[p]);
      pos[p] = (uint32_t)p;
    }
    q.norm = pnorm, q.box = pbox, q.id_of = items;
    st = visit(&q, pos, m, root, 0, 0, 0);
  }
  free(items), free(scratch), free(kid), free(q.above), free(q.mask);
  free(pos), free(sort_scratch), free(pnorm), free(pbox);
  col__qt_free_node(&q);
  return st;
}
