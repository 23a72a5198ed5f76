/* Quadtree (2D) / octree (3D), the classic form: a node keeps the boxes that straddle its
 * centre lines and passes the others down to the child cell that holds them strictly (a box
 * touching a centre line stays, so boxes in sibling cells are strictly apart and can never pair,
 * touching included). Each box is then tested against the boxes of its own node and of every
 * ancestor node: each pair exactly once. Placement uses the normalized box (it contains the
 * real one's overlaps); the exact rule decides. Boxes with NaN never pair; infinite ones stay at
 * the root. */
#include "broadphase.h"
#include "validate.h"

#include <math.h>
#include <stdlib.h>

enum { LEAF_SIZE = 8, MAX_DEPTH = 20 };

typedef struct qt {
  col__bp *bp;
  const col_aabb3 *norm;
  uint32_t *scratch;   /* partition space, n entries */
  uint32_t *ancestors; /* items of the nodes above, a stack */
  size_t depth_items;
  unsigned dims;
} qt;

/* Which child cell holds b strictly, or -1 when it straddles (or touches) a centre line. */
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

/* Tests the node's own items against each other and against the ancestors' items, then
 * recurses into the children with the node's items added to the ancestors. items[0, n) is
 * reordered in place. */
static col_status visit(qt *q, uint32_t *items, size_t n, col_aabb3 cell, int depth) {
  const col_vec3 centre = centre_of(cell);
  const unsigned children = q->dims == 3 ? 8 : 4;
  size_t count[8] = {0}, stay = 0;
  const bool split = n > LEAF_SIZE && depth < MAX_DEPTH;
  if (split) {
    /* Stable partition: staying items first, then children 0..7, via the scratch space. */
    for (size_t i = 0; i < n; i++) {
      const int k = child_of(q->norm[items[i]], centre, q->dims);
      if (k < 0)
        stay++;
      else
        count[k]++;
    }
    size_t at[9];
    at[0] = stay;
    for (unsigned k = 0; k < children; k++) at[k + 1] = at[k] + count[k];
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
      const int k = child_of(q->norm[items[i]], centre, q->dims);
      q->scratch[k < 0 ? s++ : at[k]++] = items[i];
    }
    for (size_t i = 0; i < n; i++) items[i] = q->scratch[i];
    COL_VALIDATE_CALL(
        col__quadtree_validate(&(col__qt_node){q->norm, items, n, stay, count, cell, q->dims,
                                               q->bp->boxes->count, q->depth_items},
                               q->scratch));
  } else {
    stay = n;
  }
  const col_boxes *boxes = q->bp->boxes;
  col_status st = COL_OK;
  for (size_t i = 0; i < stay && st == COL_OK; i++) {
    const col_aabb3 a = col__bp_box(boxes, items[i]);
    for (size_t j = i + 1; j < stay && st == COL_OK; j++) {
      q->bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, items[j]), q->bp->touch))
        st = col__bp_push(q->bp, items[i], items[j]);
    }
    for (size_t j = 0; j < q->depth_items && st == COL_OK; j++) {
      q->bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, q->ancestors[j]), q->bp->touch))
        st = col__bp_push(q->bp, items[i], q->ancestors[j]);
    }
  }
  if (!split || st != COL_OK) return st;
  /* The children items meet this node's staying items as ancestors. */
  const size_t below = q->depth_items;
  for (size_t i = 0; i < stay; i++) q->ancestors[q->depth_items++] = items[i];
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
    if (count[k] > 0) st = visit(q, items + first, count[k], sub, depth + 1);
    first += count[k];
  }
  q->depth_items = below;
  return st;
}

col_status col__bp_quadtree(col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col_aabb3 *norm = calloc(n, sizeof *norm);
  uint32_t *items = calloc(n, sizeof *items), *scratch = calloc(n, sizeof *scratch);
  uint32_t *ancestors = calloc(n, sizeof *ancestors);
  col_status st = norm && items && scratch && ancestors ? COL_OK : COL_ERR_MEMORY;
  col__bp_scratch(bp, n * (sizeof *norm + 3 * sizeof(uint32_t)));
  size_t m = 0;
  col_aabb3 root = {{INFINITY, INFINITY, 0.0f}, {-INFINITY, -INFINITY, 0.0f}};
  if (boxes->dims == 3) root.min.z = INFINITY, root.max.z = -INFINITY;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    if (col__bp_has_nan(boxes, i)) continue;
    norm[i] = col__normalized(col__bp_box(boxes, i));
    items[m++] = (uint32_t)i;
    const col_aabb3 b = norm[i];
    /* The root cell spans the finite coordinates; infinite boxes straddle it and stay. */
    if (isfinite(b.min.x)) root.min.x = fminf(root.min.x, b.min.x);
    if (isfinite(b.max.x)) root.max.x = fmaxf(root.max.x, b.max.x);
    if (isfinite(b.min.y)) root.min.y = fminf(root.min.y, b.min.y);
    if (isfinite(b.max.y)) root.max.y = fmaxf(root.max.y, b.max.y);
    if (boxes->dims == 3 && isfinite(b.min.z)) root.min.z = fminf(root.min.z, b.min.z);
    if (boxes->dims == 3 && isfinite(b.max.z)) root.max.z = fmaxf(root.max.z, b.max.z);
  }
  if (st == COL_OK && m > 1) {
    qt q = {bp, norm, scratch, ancestors, 0, boxes->dims};
    st = visit(&q, items, m, root, 0);
  }
  free(norm), free(items), free(scratch), free(ancestors);
  return st;
}
