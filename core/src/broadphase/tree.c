/* Dynamic AABB tree (bounding volume hierarchy): leaves hold the boxes, every inner node the
 * union of its children. Built from scratch top-down (median split of the centres on the
 * widest axis), then kept up to date incrementally: a moved box whose new box leaves its
 * leaf's fat box (the box grown by a margin) is removed and reinserted, descending to the
 * sibling that minimizes the surface-area cost of the union (the SAH insertion of Box2D's
 * b2DynamicTree and Bullet's btDbvt, written from the idea, not their code).
 * Node boxes are normalized (min <= max per axis), so an inverted box still bounds everything
 * it can overlap; the exact rule is applied to the real boxes at the leaves. */
#include "tree.h"
#include "validate.h"

#include <math.h>
#include <stdlib.h>

/* fminf / fmaxf as compares (a NaN on either side ignored, as they do; which zero of -0 and +0
 * comes back may differ, which no box test sees): gcc 12 calls the library for fminf without
 * -ffinite-math-only, and the build made six such calls per box and level. */
static inline float lesser(float a, float b) { return b < a || a != a ? b : a; }
static inline float greater(float a, float b) { return b > a || a != a ? b : a; }

static col_aabb3 unite(col_aabb3 a, col_aabb3 b) {
  return (col_aabb3){
      {lesser(a.min.x, b.min.x), lesser(a.min.y, b.min.y), lesser(a.min.z, b.min.z)},
      {greater(a.max.x, b.max.x), greater(a.max.y, b.max.y), greater(a.max.z, b.max.z)}};
}

static bool contains(col_aabb3 outer, col_aabb3 inner) {
  return outer.min.x <= inner.min.x && outer.min.y <= inner.min.y && outer.min.z <= inner.min.z &&
         outer.max.x >= inner.max.x && outer.max.y >= inner.max.y && outer.max.z >= inner.max.z;
}

static bool touches(col_aabb3 a, col_aabb3 b) {
  return a.max.x >= b.min.x && b.max.x >= a.min.x && a.max.y >= b.min.y && b.max.y >= a.min.y &&
         a.max.z >= b.min.z && b.max.z >= a.min.z;
}

/* Surface-area measure (half the surface in 3D; the perimeter in 2D, where z is flat). */
static double cost(col_aabb3 b) {
  const double x = (double)b.max.x - b.min.x, y = (double)b.max.y - b.min.y;
  const double z = (double)b.max.z - b.min.z;
  return x * y + y * z + z * x + x + y;
}

static int32_t new_node(col__tree *t) {
  if (t->free_list >= 0) {
    const int32_t n = t->free_list;
    t->free_list = t->nodes[n].parent;
    return n;
  }
  if (t->used == t->capacity) {
    const size_t grown = t->capacity ? 2 * t->capacity : 64;
    col__tree_node *nodes = realloc(t->nodes, grown * sizeof *nodes);
    if (nodes == NULL) return -1;
    t->nodes = nodes, t->capacity = grown;
  }
  return (int32_t)t->used++;
}

static void release_node(col__tree *t, int32_t n) {
  t->nodes[n].parent = t->free_list;
  t->nodes[n].left = -2; /* marks a free node */
  t->free_list = n;
}

static void refit_up(col__tree *t, int32_t n) {
  for (; n >= 0; n = t->nodes[n].parent) {
    col__tree_node *node = &t->nodes[n];
    node->box = unite(t->nodes[node->left].box, t->nodes[node->right].box);
  }
}

#ifdef COL_VALIDATE
/* Does a coordinate of inner lie strictly outside outer? (NaN coordinates are not judged:
 * the tree never holds them, and unite() would drop them anyway.) */
static bool sticks_out(col_aabb3 outer, col_aabb3 inner) {
  return outer.min.x > inner.min.x || outer.min.y > inner.min.y || outer.min.z > inner.min.z ||
         outer.max.x < inner.max.x || outer.max.y < inner.max.y || outer.max.z < inner.max.z;
}

static _Noreturn void tree_fail(const char *invariant, size_t index) {
  col__validate_fail("dynamic tree", invariant, index);
}

/* The tree's invariants: every node is either reachable once from the root or on the free
 * list (left == -2), never both; each child's parent link points back to its parent; each
 * inner node's box contains its children's; each leaf's item maps back to it (leaf_of), and
 * every mapped item has a leaf in the tree. O(nodes), and no memory of its own: the fuzzers
 * count the library's allocations to make a chosen one fail. The walk follows the parent
 * links back up, which is safe because each is checked before the walk goes down. */
static void tree_validate(const col__tree *t) {
  const int64_t used = (int64_t)t->used;
  if (t->used > t->capacity) tree_fail("more nodes used than allocated", t->used);
  if (t->root < -1 || t->root >= used) tree_fail("root index out of range", 0);
  if (t->free_list < -1 || t->free_list >= used) tree_fail("free list head out of range", 0);
  size_t free_count = 0, reached = 0, leaves = 0;
  for (int32_t n = t->free_list; n >= 0; n = t->nodes[n].parent) {
    if (++free_count > t->used) tree_fail("free list has a cycle", (size_t)n);
    if (t->nodes[n].left != -2) tree_fail("node on the free list not marked free", (size_t)n);
    if (t->nodes[n].parent < -1 || t->nodes[n].parent >= used)
      tree_fail("free list link out of range", (size_t)n);
  }
  if (t->root >= 0 && t->nodes[t->root].parent != -1)
    tree_fail("root has a parent", (size_t)t->root);
  int32_t prev = -1, n = t->root;
  while (n >= 0) {
    const col__tree_node *node = &t->nodes[n];
    if (prev == node->parent) { /* first arrival, from above: check the node */
      if (++reached > t->used) tree_fail("tree links form a cycle", (size_t)n);
      if (node->left == -2) tree_fail("free node linked into the tree", (size_t)n);
      if (node->left < 0) {
        if (node->left != -1 || node->right != -1) tree_fail("leaf with a child link", (size_t)n);
        if (node->item >= t->items) tree_fail("leaf item out of range", (size_t)n);
        if (t->leaf_of[node->item] != n)
          tree_fail("leaf map does not point back to the leaf", (size_t)n);
        leaves++;
        prev = n, n = node->parent;
        continue;
      }
      if (node->left == node->right) tree_fail("both children are one node", (size_t)n);
      const int32_t kids[2] = {node->left, node->right};
      for (int k = 0; k < 2; k++) {
        if (kids[k] < 0 || kids[k] >= used) tree_fail("child index out of range", (size_t)n);
        if (t->nodes[kids[k]].parent != n)
          tree_fail("child's parent link is wrong", (size_t)kids[k]);
        if (sticks_out(node->box, t->nodes[kids[k]].box))
          tree_fail("node box does not contain its child's box", (size_t)n);
      }
      prev = n, n = node->left;
    } else if (prev == node->left) {
      prev = n, n = node->right;
    } else {
      prev = n, n = node->parent;
    }
  }
  /* Free nodes have left == -2 and tree nodes not, so the two counts cannot overlap. */
  if (reached + free_count != t->used)
    tree_fail("node count: nodes neither in the tree nor free", reached + free_count);
  /* Each reached leaf's item maps to it, so equal counts mean every mapped item's leaf was
   * reached. */
  size_t mapped = 0;
  for (size_t i = 0; i < t->items; i++) {
    const int32_t leaf = t->leaf_of[i];
    if (leaf < -1 || leaf >= used) tree_fail("leaf map index out of range", i);
    if (leaf >= 0 && (t->nodes[leaf].left != -1 || t->nodes[leaf].item != i))
      tree_fail("leaf map points to a node that is not the item's leaf", i);
    mapped += leaf >= 0;
  }
  if (mapped != leaves) tree_fail("leaf count differs from the mapped items", mapped);
}
#endif

void col__tree_free(col__tree *t) {
  free(t->nodes), free(t->leaf_of);
  *t = (col__tree){0};
  t->root = t->free_list = -1;
}

/* Reorders items[lo, hi) (with their keys) so that position k holds the k-th smallest key:
 * quickselect with a three-way partition (robust to many equal keys). */
static void select_kth(uint32_t *items, float *keys, size_t lo, size_t hi, size_t k) {
  while (hi - lo > 1) {
    const float pivot = keys[lo + (hi - lo) / 2];
    size_t lt = lo, i = lo, gt = hi;
    while (i < gt) {
      if (keys[i] < pivot) {
        const uint32_t it = items[lt];
        const float kt = keys[lt];
        items[lt] = items[i], keys[lt] = keys[i], items[i] = it, keys[i] = kt;
        lt++, i++;
      } else if (keys[i] > pivot) {
        gt--;
        const uint32_t it = items[gt];
        const float kt = keys[gt];
        items[gt] = items[i], keys[gt] = keys[i], items[i] = it, keys[i] = kt;
      } else {
        i++;
      }
    }
    if (k < lt)
      hi = lt;
    else if (k >= gt)
      lo = gt;
    else
      return;
  }
}

/* Top-down build over items[lo, hi): median split of the centres on their widest axis. */
static int32_t build(col__tree *t, uint32_t *items, float *keys, const col_aabb3 *boxes,
                     const float (*centres)[3], size_t lo, size_t hi, int32_t parent) {
  const int32_t n = new_node(t);
  if (n < 0) return -1;
  t->nodes[n].parent = parent;
  if (hi - lo == 1) {
    t->nodes[n].left = t->nodes[n].right = -1;
    t->nodes[n].item = items[lo];
    t->nodes[n].box = boxes[items[lo]];
    t->leaf_of[items[lo]] = n;
    return n;
  }
  float lo_c[3] = {INFINITY, INFINITY, INFINITY}, hi_c[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (size_t i = lo; i < hi; i++) {
    const float *c = centres[items[i]];
    for (int k = 0; k < 3; k++) lo_c[k] = lesser(lo_c[k], c[k]), hi_c[k] = greater(hi_c[k], c[k]);
  }
  const float ex = hi_c[0] - lo_c[0], ey = hi_c[1] - lo_c[1], ez = hi_c[2] - lo_c[2];
  const int axis = !(ex < ey) && !(ex < ez) ? 0 : !(ey < ez) ? 1 : 2;
  for (size_t i = lo; i < hi; i++) keys[i] = centres[items[i]][axis];
  const size_t mid = lo + (hi - lo) / 2;
  select_kth(items, keys, lo, hi, mid);
  const int32_t left = build(t, items, keys, boxes, centres, lo, mid, n);
  const int32_t right = left < 0 ? -1 : build(t, items, keys, boxes, centres, mid, hi, n);
  if (right < 0) return -1;
  t->nodes[n].left = left, t->nodes[n].right = right;
  t->nodes[n].box = unite(t->nodes[left].box, t->nodes[right].box);
  return n;
}

col_status col__tree_build(col__tree *t, const col_aabb3 *boxes, const bool *usable, size_t n) {
  col__tree_free(t);
  t->leaf_of = malloc((n ? n : 1) * sizeof *t->leaf_of);
  uint32_t *items = malloc((n ? n : 1) * sizeof *items);
  float *keys = malloc((n ? n : 1) * sizeof *keys);
  /* Each box's doubled centre, computed once: every level of the build reads these twelve bytes
   * instead of the whole box. */
  float(*centres)[3] = malloc((n ? n : 1) * sizeof *centres);
  if (t->leaf_of == NULL || items == NULL || keys == NULL || centres == NULL) {
    free(items), free(keys), free(centres);
    col__tree_free(t);
    return COL_ERR_MEMORY;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    t->leaf_of[i] = -1;
    if (usable[i]) items[m++] = (uint32_t)i;
    const col_aabb3 b = boxes[i];
    const float c[3] = {b.min.x + b.max.x, b.min.y + b.max.y, b.min.z + b.max.z};
    /* inf - inf centres: any key will do, it only costs balance */
    for (int k = 0; k < 3; k++) centres[i][k] = c[k] == c[k] ? c[k] : 0.0f;
  }
  t->items = n;
  if (m > 0 && (t->root = build(t, items, keys, boxes, centres, 0, m, -1)) < 0) {
    free(items), free(keys), free(centres);
    col__tree_free(t);
    return COL_ERR_MEMORY;
  }
  free(items), free(keys), free(centres);
  COL_VALIDATE_CALL(tree_validate(t));
  return COL_OK;
}

/* Removes item's leaf; its sibling takes the parent's place. */
static void remove_leaf(col__tree *t, int32_t leaf) {
  const int32_t parent = t->nodes[leaf].parent;
  if (parent < 0) {
    t->root = -1;
    release_node(t, leaf);
    return;
  }
  const int32_t sibling =
      t->nodes[parent].left == leaf ? t->nodes[parent].right : t->nodes[parent].left;
  const int32_t grand = t->nodes[parent].parent;
  t->nodes[sibling].parent = grand;
  if (grand < 0)
    t->root = sibling;
  else {
    if (t->nodes[grand].left == parent)
      t->nodes[grand].left = sibling;
    else
      t->nodes[grand].right = sibling;
    refit_up(t, grand);
  }
  release_node(t, parent);
  release_node(t, leaf);
}

/* Inserts a leaf: descend towards the child whose union with the leaf costs least. */
static col_status insert_leaf(col__tree *t, uint32_t item, col_aabb3 fat) {
  const int32_t leaf = new_node(t);
  if (leaf < 0) return COL_ERR_MEMORY;
  t->nodes[leaf] = (col__tree_node){fat, -1, -1, -1, item};
  t->leaf_of[item] = leaf;
  if (t->root < 0) {
    t->root = leaf;
    return COL_OK;
  }
  int32_t at = t->root;
  while (t->nodes[at].left >= 0) {
    const col__tree_node *node = &t->nodes[at];
    const double combined = cost(unite(node->box, fat));
    const double here = 2.0 * combined;                          /* new parent of node + leaf */
    const double inherited = 2.0 * (combined - cost(node->box)); /* growth of every ancestor */
    const col__tree_node *l = &t->nodes[node->left], *r = &t->nodes[node->right];
    const double to_left =
        cost(unite(l->box, fat)) - (l->left >= 0 ? cost(l->box) : 0.0) + inherited;
    const double to_right =
        cost(unite(r->box, fat)) - (r->left >= 0 ? cost(r->box) : 0.0) + inherited;
    if (here < to_left && here < to_right) break;
    at = to_left <= to_right ? node->left : node->right;
  }
  const int32_t parent = new_node(t);
  if (parent < 0) return COL_ERR_MEMORY;
  const int32_t old_parent = t->nodes[at].parent;
  t->nodes[parent] = (col__tree_node){unite(t->nodes[at].box, fat), old_parent, at, leaf, 0};
  t->nodes[at].parent = parent;
  t->nodes[leaf].parent = parent;
  if (old_parent < 0)
    t->root = parent;
  else {
    if (t->nodes[old_parent].left == at)
      t->nodes[old_parent].left = parent;
    else
      t->nodes[old_parent].right = parent;
    refit_up(t, old_parent);
  }
  return COL_OK;
}

col_status col__tree_move(col__tree *t, uint32_t item, col_aabb3 box, float margin, bool usable,
                          bool *reinserted) {
  *reinserted = false;
  const int32_t leaf = t->leaf_of[item];
  if (leaf >= 0 && usable && contains(t->nodes[leaf].box, box)) return COL_OK;
  if (leaf >= 0) remove_leaf(t, leaf), t->leaf_of[item] = -1;
  COL_VALIDATE_CALL(tree_validate(t));
  if (!usable) return COL_OK;
  *reinserted = true;
  const col_aabb3 fat = {{box.min.x - margin, box.min.y - margin, box.min.z - margin},
                         {box.max.x + margin, box.max.y + margin, box.max.z + margin}};
  const col_status st = insert_leaf(t, item, fat);
  if (st == COL_OK) COL_VALIDATE_CALL(tree_validate(t));
  return st;
}

/* The query's stack starts on the C stack (128 entries: a tree 127 levels deep) and moves to the
 * heap past that. A variable so that the cache fuzzer can start it smaller (fuzz_cache.c) and
 * reach the move with small trees: since a frame where most boxes move builds its tree top-down,
 * no short input makes a chain that deep. */
size_t col__tree_stack_local = 128;

col_status col__tree_query(const col__tree *t, col_aabb3 box, uint32_t **out, size_t *cap,
                           size_t *found) {
  *found = 0;
  if (t->root < 0) return COL_OK;
  int32_t stack_local[128];
  int32_t *stack = stack_local;
  size_t top = 0;
  size_t stack_cap = col__tree_stack_local - 2 < 127 ? col__tree_stack_local : 128;
  col_status st = COL_OK;
  stack[top++] = t->root;
  while (top > 0 && st == COL_OK) {
    const int32_t n = stack[--top];
    const col__tree_node *node = &t->nodes[n];
    if (!touches(node->box, box)) continue;
    if (node->left < 0) {
      if (*found == *cap) {
        const size_t grown = *cap ? 2 * *cap : 64;
        uint32_t *more = realloc(*out, grown * sizeof **out);
        if (more == NULL) {
          st = COL_ERR_MEMORY;
          break;
        }
        *out = more, *cap = grown;
      }
      (*out)[(*found)++] = node->item;
      continue;
    }
    if (top + 2 > stack_cap) {
      int32_t *more = malloc(2 * stack_cap * sizeof *more);
      if (more == NULL) {
        st = COL_ERR_MEMORY;
        break;
      }
      for (size_t i = 0; i < top; i++) more[i] = stack[i];
      if (stack != stack_local) free(stack);
      stack = more, stack_cap *= 2;
    }
    stack[top++] = node->left;
    stack[top++] = node->right;
  }
  if (stack != stack_local) free(stack);
  return st;
}

col_status col__tree_all_pairs(col__bp *bp, const col__tree *t, const bool *usable, uint32_t **cand,
                               size_t *cap) {
  const col_boxes *boxes = bp->boxes;
  col_status st = COL_OK;
  for (size_t i = 0; i < boxes->count && st == COL_OK; i++) {
    if (!usable[i]) continue;
    const col_aabb3 a = col__bp_box(boxes, i);
    size_t found = 0;
    st = col__tree_query(t, col__normalized(a), cand, cap, &found);
    for (size_t k = 0; k < found && st == COL_OK; k++) {
      const uint32_t j = (*cand)[k];
      if (j <= i) continue;
      bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, j), bp->touch))
        st = col__bp_push(bp, (uint32_t)i, j);
    }
  }
  return st;
}

/* The tree as a from-scratch broadphase: build, then every box queries the tree and keeps the
 * candidates after it (j > i), tested with the exact rule. */
col_status col__bp_tree(col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col_aabb3 *norm = calloc(n, sizeof *norm);
  bool *usable = calloc(n, sizeof *usable);
  col__tree t = {0};
  t.root = t.free_list = -1;
  col_status st = norm && usable ? COL_OK : COL_ERR_MEMORY;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    usable[i] = !col__bp_has_nan(boxes, i);
    norm[i] = col__normalized(col__bp_box(boxes, i));
  }
  if (st == COL_OK) st = col__tree_build(&t, norm, usable, n);
  uint32_t *cand = NULL;
  size_t cap = 0;
  if (st == COL_OK) st = col__tree_all_pairs(bp, &t, usable, &cand, &cap);
  /* The copies, the tree (nodes, leaf map, and the build's items and keys) and candidates. */
  col__bp_scratch(bp, n * (sizeof *norm + sizeof *usable + 3 * sizeof(uint32_t)) +
                          t.capacity * sizeof(col__tree_node) + cap * sizeof *cand);
  free(cand), free(norm), free(usable);
  col__tree_free(&t);
  return st;
}
