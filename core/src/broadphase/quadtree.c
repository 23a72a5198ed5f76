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
 *     classes is swept on the axis where their boxes are most spread out for their size. */
#include "../aabb_ref.h"
#include "broadphase.h"
#include "validate.h"

#include <math.h>
#include <stdlib.h>

/* DIRECT_TESTS: a node whose own tests, all against all, would be at most this many tests its
 * boxes directly; sorting them into classes costs more there (docs/tuning.md). */
enum { LEAF_SIZE = 8, MAX_DEPTH = 20, DIRECT_TESTS = 16384 };

typedef struct qt_rec { /* a box of the node being swept: real box (for the rule), normalized */
  col_aabb3 box, norm;
  uint32_t id;
} qt_rec;
typedef struct qt_ent { /* a sweep entry: the normalized box's extent on the swept axis */
  float lo, hi;
  uint32_t t; /* index into the node's records */
} qt_ent;

typedef struct qt {
  col__bp *bp;
  /* By position in Morton order (see col__bp_quadtree): the normalized boxes, the boxes, and
   * each position's box index. */
  const col_aabb3 *norm, *box;
  const uint32_t *id_of;
  uint32_t *scratch; /* partition space, n entries */
  signed char *kid;  /* the child of each item of the node being split (-1: it stays) */
  /* The ancestor lists, a stack: a node's list is the boxes held above it that meet the bounds
   * of its boxes; its children's lists are pushed after it. */
  uint32_t *above;
  size_t above_len, above_cap;
  size_t held_above; /* boxes held by the nodes above (unfiltered), for the check */
  /* One node's sweep, reused by every node and grown to the largest: records, the sweep
   * entries of each axis (dims x cap), sort keys, order and radix scratch, classes. */
  qt_rec *rec;
  qt_ent *ent;
  uint32_t *keys, *order, *rscratch;
  uint8_t *cls;
  float *lane; /* direct tests: min x, y, z, max x, y, z, each cap + 4 floats */
  size_t cap, base_bytes;
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

static void account(qt *q) {
  col__bp_scratch(q->bp, q->base_bytes + q->above_cap * sizeof *q->above +
                             q->cap * (sizeof *q->rec + q->dims * sizeof *q->ent +
                                       4 * sizeof(uint32_t) + sizeof *q->cls) +
                             (q->cap ? 6 * (q->cap + 4) * sizeof *q->lane : 0));
}

static col_status reserve_above(qt *q, size_t need) {
  if (need <= q->above_cap) return COL_OK;
  size_t cap = 2 * q->above_cap;
  if (cap < need) cap = need;
  uint32_t *p = realloc(q->above, cap * sizeof *p);
  if (!p) return COL_ERR_MEMORY;
  q->above = p, q->above_cap = cap;
  account(q);
  return COL_OK;
}

static void free_node(qt *q) {
  free(q->rec), free(q->ent), free(q->keys), free(q->order), free(q->rscratch), free(q->cls);
  free(q->lane);
  q->rec = NULL, q->ent = NULL, q->keys = q->order = q->rscratch = NULL, q->cls = NULL;
  q->lane = NULL;
  q->cap = 0;
}

static col_status reserve_node(qt *q, size_t need) {
  if (need <= q->cap) return COL_OK;
  size_t cap = 2 * q->cap;
  if (cap < need) cap = need;
  free_node(q);
  q->rec = malloc(cap * sizeof *q->rec);
  q->ent = malloc(cap * q->dims * sizeof *q->ent);
  q->keys = malloc(cap * sizeof *q->keys);
  q->order = malloc(cap * sizeof *q->order);
  q->rscratch = malloc(2 * cap * sizeof *q->rscratch);
  q->cls = malloc(cap * sizeof *q->cls);
  q->lane = malloc(6 * (cap + 4) * sizeof *q->lane);
  if (!q->rec || !q->ent || !q->keys || !q->order || !q->rscratch || !q->cls || !q->lane) {
    free_node(q);
    return COL_ERR_MEMORY;
  }
  q->cap = cap;
  account(q);
  return COL_OK;
}

/* The single-pair rule of the set's dimension, inline (col__bp_overlap calls the public one). */
static inline bool rule(const qt *q, col_aabb3 a, col_aabb3 b) {
  if (q->dims == 3) return col__aabb3_overlap_ref(a, b, q->bp->touch);
  return col__aabb2_overlap_ref((col_aabb2){{a.min.x, a.min.y}, {a.max.x, a.max.y}},
                                (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}, q->bp->touch);
}

static inline col_status test_pair(qt *q, uint32_t t, uint32_t u) {
  q->bp->stats.tests++;
  if (rule(q, q->rec[t].box, q->rec[u].box))
    return col__bp_push(q->bp, q->id_of[q->rec[t].id], q->id_of[q->rec[u].id]);
  return COL_OK;
}

/* Every pair of e[0, n) (sorted on lo) whose extents meet on the axis. */
static col_status sweep_self(qt *q, const qt_ent *e, size_t n) {
  col_status st = COL_OK;
  for (size_t i = 0; i < n && st == COL_OK; i++)
    for (size_t j = i + 1; j < n && e[j].lo <= e[i].hi && st == COL_OK; j++)
      st = test_pair(q, e[i].t, e[j].t);
  return st;
}

/* Every pair of p[0, np) with r[0, nr) (each sorted on lo) whose extents meet: the two lists
 * merged on lo, each entry taken tested against the other list's entries from its place on
 * while their lo is within its extent. */
static col_status sweep_cross(qt *q, const qt_ent *p, size_t np, const qt_ent *r, size_t nr) {
  col_status st = COL_OK;
  size_t i = 0, j = 0;
  while (i < np && j < nr && st == COL_OK) {
    if (p[i].lo <= r[j].lo) {
      for (size_t k = j; k < nr && r[k].lo <= p[i].hi && st == COL_OK; k++)
        st = test_pair(q, p[i].t, r[k].t);
      i++;
    } else {
      for (size_t k = i; k < np && p[k].lo <= r[j].hi && st == COL_OK; k++)
        st = test_pair(q, p[k].t, r[j].t);
      j++;
    }
  }
  return st;
}

/* order[0, n) by keys (both permuted): by insertion while that is cheaper than the radix
 * sort's fixed cost of four passes over 256 counters. */
static void sort_keys(uint32_t *keys, uint32_t *order, size_t n, uint32_t *scratch) {
  if (n > 64) {
    col__radix_sort32(keys, order, n, scratch);
    return;
  }
  for (size_t i = 1; i < n; i++) {
    const uint32_t key = keys[i], t = order[i];
    size_t j = i;
    for (; j > 0 && keys[j - 1] > key; j--) keys[j] = keys[j - 1], order[j] = order[j - 1];
    keys[j] = key, order[j] = t;
  }
}

static float axis_lo(col_aabb3 b, unsigned k) {
  return k == 0 ? b.min.x : k == 1 ? b.min.y : b.min.z;
}
static float axis_hi(col_aabb3 b, unsigned k) {
  return k == 0 ? b.max.x : k == 1 ? b.max.y : b.max.z;
}
static float axis_of(col_vec3 v, unsigned k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

/* The node's own boxes s[0, ns) against each other and against its ancestor list a[0, na),
 * swept by classes. A box's class: whether it is the node's own or an ancestor's, and the
 * centre planes its normalized box touches. Each pair of classes (one of them the node's own)
 * is swept on the axis with the least expected work: the classes' mean extents on it over the
 * range their centres span. Each pair of boxes falls in exactly one pair of classes. */
static col_status node_sweep(qt *q, const uint32_t *s, size_t ns, const uint32_t *a, size_t na,
                             col_vec3 centre) {
  const size_t nt = ns + na;
  col_status st = reserve_node(q, nt);
  if (st != COL_OK) return st;
  const unsigned d = q->dims, own = 1u << d, classes = 2u << d;
  size_t count[16] = {0};
  double lo[16][3], hi[16][3], ext[16][3];
  for (unsigned c = 0; c < classes; c++)
    for (unsigned k = 0; k < d; k++) lo[c][k] = INFINITY, hi[c][k] = -INFINITY, ext[c][k] = 0.0;
  for (size_t t = 0; t < nt; t++) {
    const uint32_t id = t < ns ? s[t] : a[t - ns];
    const col_aabb3 nb = q->norm[id];
    q->rec[t] = (qt_rec){q->box[id], nb, id};
    unsigned c = t < ns ? 0 : own;
    for (unsigned k = 0; k < d; k++) {
      const float l = axis_lo(nb, k), h = axis_hi(nb, k), m = axis_of(centre, k);
      if (l <= m && m <= h) c |= 1u << k;
    }
    q->cls[t] = (uint8_t)c;
    count[c]++;
    for (unsigned k = 0; k < d; k++) {
      const double l = axis_lo(nb, k), h = axis_hi(nb, k), mid = 0.5 * l + 0.5 * h;
      if (mid < lo[c][k]) lo[c][k] = mid;
      if (mid > hi[c][k]) hi[c][k] = mid;
      ext[c][k] += h - l;
    }
  }
  signed char axis[8][16]; /* [own class][other class]: the axis to sweep on, -1 none */
  bool need[3] = {false, false, false};
  for (unsigned c = 0; c < own; c++)
    for (unsigned e = c; e < classes; e++) {
      axis[c][e] = -1;
      if (count[c] == 0 || count[e] == 0) continue;
      double best = INFINITY;
      axis[c][e] = 0;
      for (unsigned k = 0; k < d; k++) {
        /* Centres all in one place (range 0), or not finite (NaN): no estimate, not chosen
         * unless no axis has one. */
        const double range = fmax(hi[c][k], hi[e][k]) - fmin(lo[c][k], lo[e][k]);
        if (!(range > 0.0)) continue;
        const double est = (ext[c][k] / (double)count[c] + ext[e][k] / (double)count[e]) / range;
        if (est < best) best = est, axis[c][e] = (signed char)k;
      }
      need[axis[c][e]] = true;
    }
  size_t start[17];
  start[0] = 0;
  for (unsigned c = 0; c < classes; c++) start[c + 1] = start[c] + count[c];
  for (unsigned k = 0; k < d; k++) {
    if (!need[k]) continue;
    for (size_t t = 0; t < nt; t++)
      q->keys[t] = col__float_key(axis_lo(q->rec[t].norm, k)), q->order[t] = (uint32_t)t;
    sort_keys(q->keys, q->order, nt, q->rscratch);
    size_t at[16];
    for (unsigned c = 0; c < classes; c++) at[c] = start[c];
    qt_ent *ent = q->ent + k * q->cap;
    for (size_t i = 0; i < nt; i++) {
      const uint32_t t = q->order[i];
      const col_aabb3 nb = q->rec[t].norm;
      ent[at[q->cls[t]]++] = (qt_ent){axis_lo(nb, k), axis_hi(nb, k), t};
    }
  }
  for (unsigned c = 0; c < own && st == COL_OK; c++)
    for (unsigned e = c; e < classes && st == COL_OK; e++) {
      if (axis[c][e] < 0) continue;
      const qt_ent *ent = q->ent + (size_t)axis[c][e] * q->cap;
      st = c == e ? sweep_self(q, ent + start[c], count[c])
                  : sweep_cross(q, ent + start[c], count[c], ent + start[e], count[e]);
    }
  return st;
}

/* Box i of the arrays v (the node's own boxes s[0, ns), then its list a) against every box
 * after it, four a step; `open` is a constant at both calls, so each gets its own loop. */
COL__BP_INLINE col_status direct_rows(qt *q, float *const v[6], const uint32_t *s, size_t ns,
                                      const uint32_t *a, size_t nt, bool open) {
  for (size_t i = 0; i < ns; i++) {
    const col__f4 lx = splat4(v[0][i]), ly = splat4(v[1][i]), lz = splat4(v[2][i]);
    const col__f4 hx = splat4(v[3][i]), hy = splat4(v[4][i]), hz = splat4(v[5][i]);
    for (size_t j = i + 1; j < nt; j += 4) {
      const col__f4 bx = load4(v[0] + j), by = load4(v[1] + j), bz = load4(v[2] + j);
      const col__f4 cx = load4(v[3] + j), cy = load4(v[4] + j), cz = load4(v[5] + j);
      /* The reference rule (aabb_ref.h) lane by lane: IEEE compares, the same answers. */
      const col__i4 m =
          open ? (hx > bx) & (cx > lx) & (hy > by) & (cy > ly) & (hz > bz) & (cz > lz)
               : (hx >= bx) & (cx >= lx) & (hy >= by) & (cy >= ly) & (hz >= bz) & (cz >= lz);
      uint64_t w[2]; /* any lane set: two 64-bit halves, cheaper than four lane reads */
      memcpy(w, &m, sizeof w);
      if ((w[0] | w[1]) == 0) continue;
      for (unsigned l = 0; l < 4; l++)
        if (m[l]) {
          const size_t t = j + l;
          const col_status st =
              col__bp_push(q->bp, q->id_of[s[i]], q->id_of[t < ns ? s[t] : a[t - ns]]);
          if (st != COL_OK) return st;
        }
    }
  }
  return COL_OK;
}

/* The node's own boxes against each other and against its ancestor list: by node_sweep when
 * all against all would be many tests; otherwise all against all, four boxes a step. The own
 * boxes come first in the arrays, so box i meets every box after it: the rest of its own and
 * the whole list. */
static col_status node_pairs(qt *q, const uint32_t *s, size_t ns, const uint32_t *a, size_t na,
                             col_vec3 centre) {
  if (ns == 0) return COL_OK;
  if (ns * (ns - 1) / 2 + ns * na > DIRECT_TESTS) return node_sweep(q, s, ns, a, na, centre);
  const size_t nt = ns + na;
  col_status st = reserve_node(q, nt);
  if (st != COL_OK) return st;
  const size_t stride = q->cap + 4;
  float *v[6];
  for (int k = 0; k < 6; k++) v[k] = q->lane + k * stride;
  for (size_t t = 0; t < nt; t++) {
    const col_aabb3 b = q->box[t < ns ? s[t] : a[t - ns]];
    v[0][t] = b.min.x, v[1][t] = b.min.y, v[3][t] = b.max.x, v[4][t] = b.max.y;
    /* A 2D set's z is -1..1 here, which meets under both rules: the 3D rule decides. */
    v[2][t] = q->dims == 3 ? b.min.z : -1.0f, v[5][t] = q->dims == 3 ? b.max.z : 1.0f;
  }
  for (size_t t = nt; t < nt + 4; t++) /* NaN never meets: the last step's spare lanes */
    for (int k = 0; k < 6; k++) v[k][t] = NAN;
  q->bp->stats.tests += ns * (ns - 1) / 2 + ns * na;
  if (q->bp->touch == COL_TOUCH_SEPARATES) return direct_rows(q, v, s, ns, a, nt, true);
  return direct_rows(q, v, s, ns, a, nt, false);
}

/* Whether normalized box b meets `bounds` (closed: a box touching them may pair). */
static bool meets(col_aabb3 b, col_aabb3 bounds, unsigned dims) {
  return b.min.x <= bounds.max.x && bounds.min.x <= b.max.x && b.min.y <= bounds.max.y &&
         bounds.min.y <= b.max.y &&
         (dims == 2 || (b.min.z <= bounds.max.z && bounds.min.z <= b.max.z));
}

/* Finds the node's pairs (its own boxes against each other and against its ancestor list,
 * above[a_first, +a_count)), then recurses into the children, each handed the boxes of that
 * list and of this node that meet the bounds of the child's boxes. items[0, n) is reordered in
 * place. */
static col_status visit(qt *q, uint32_t *items, size_t n, col_aabb3 cell, size_t a_first,
                        size_t a_count, int depth) {
  const col_vec3 centre = centre_of(cell);
  const unsigned children = q->dims == 3 ? 8 : 4;
  size_t count[8] = {0}, stay = 0;
  col_aabb3 bounds[8];
  const bool split = n > LEAF_SIZE && depth < MAX_DEPTH;
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
  col_status st = node_pairs(q, items, stay, a_count ? q->above + a_first : NULL, a_count, centre);
  if (!split || st != COL_OK) return st;
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
      st = reserve_above(q, base + a_count + stay);
      if (st != COL_OK) break;
      size_t m = 0;
      for (size_t j = 0; j < a_count; j++) {
        const uint32_t id = q->above[a_first + j];
        if (meets(q->norm[id], bounds[k], q->dims)) q->above[base + m++] = id;
      }
      for (size_t j = 0; j < stay; j++)
        if (meets(q->norm[items[j]], bounds[k], q->dims)) q->above[base + m++] = items[j];
      q->above_len = base + m;
      st = visit(q, items + first, count[k], sub, base, m, depth + 1);
      q->above_len = base;
    }
    first += count[k];
  }
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
  qt q = {.bp = bp, .scratch = scratch, .kid = kid, .dims = boxes->dims};
  size_t m = 0;
  col_aabb3 root = {{INFINITY, INFINITY, 0.0f}, {-INFINITY, -INFINITY, 0.0f}};
  if (boxes->dims == 3) root.min.z = INFINITY, root.max.z = -INFINITY;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    if (col__bp_has_nan(boxes, i)) continue;
    items[m++] = (uint32_t)i;
    const col_aabb3 b = col__normalized(col__bp_box(boxes, i));
    /* The root cell spans the finite coordinates; infinite boxes straddle it and stay. */
    if (isfinite(b.min.x)) root.min.x = fminf(root.min.x, b.min.x);
    if (isfinite(b.max.x)) root.max.x = fmaxf(root.max.x, b.max.x);
    if (isfinite(b.min.y)) root.min.y = fminf(root.min.y, b.min.y);
    if (isfinite(b.max.y)) root.max.y = fmaxf(root.max.y, b.max.y);
    if (boxes->dims == 3 && isfinite(b.min.z)) root.min.z = fminf(root.min.z, b.min.z);
    if (boxes->dims == 3 && isfinite(b.max.z)) root.max.z = fmaxf(root.max.z, b.max.z);
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
  account(&q);
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
  free(items), free(scratch), free(kid), free(q.above);
  free(pos), free(sort_scratch), free(pnorm), free(pbox);
  free_node(&q);
  return st;
}
