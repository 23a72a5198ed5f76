/* The quadtree's work at one node (quadtree.c builds the tree): the node's own boxes against
 * each other and against the boxes handed down to it, swept by classes of the centre planes
 * they touch when all against all would be many tests, all against all four boxes a step
 * otherwise. Each pair of boxes is tested once: in one pair of classes, or in one step. */
#include "quadtree_state.h"

#include <math.h>
#include <stdlib.h>

/* (quadtree_state.h; defined here, the file quadtree.c calls, so that no call runs back up) */
size_t col__qt_leaf_size = 64, col__qt_direct_tests = 16384;

void col__qt_free_node(col__qt *q) {
  free(q->rec), free(q->ent), free(q->keys), free(q->order), free(q->rscratch), free(q->cls);
  free(q->lane), free(q->hit);
  q->rec = NULL, q->ent = NULL, q->keys = q->order = q->rscratch = NULL, q->cls = NULL;
  q->lane = NULL, q->hit = NULL;
  q->cap = 0;
}

static col_status reserve_node(col__qt *q, size_t need) {
  if (need <= q->cap) return COL_OK;
  size_t cap = 2 * q->cap;
  if (cap < need) cap = need;
  col__qt_free_node(q);
  q->rec = malloc(cap * sizeof *q->rec);
  q->ent = malloc(cap * q->dims * sizeof *q->ent);
  q->keys = malloc(cap * sizeof *q->keys);
  q->order = malloc(cap * sizeof *q->order);
  q->rscratch = malloc(2 * cap * sizeof *q->rscratch);
  q->cls = malloc(cap * sizeof *q->cls);
  q->lane = malloc(6 * (cap + 4) * sizeof *q->lane);
  q->hit = malloc((cap + 4) * sizeof *q->hit);
  if (!q->rec || !q->ent || !q->keys || !q->order || !q->rscratch || !q->cls || !q->lane ||
      !q->hit) {
    col__qt_free_node(q);
    return COL_ERR_MEMORY;
  }
  q->cap = cap;
  col__qt_account(q);
  return COL_OK;
}

/* The exact rule on two records, all lanes at once (the reference rule's compares, aabb_ref.h). */
static inline col_status test_pair(col__qt *q, uint32_t t, uint32_t u) {
  q->bp->stats.tests++;
  const col__qt_rec *x = &q->rec[t], *y = &q->rec[u];
  const col__i4 m = q->bp->touch == COL_TOUCH_SEPARATES ? (x->hi > y->lo) & (y->hi > x->lo)
                                                        : (x->hi >= y->lo) & (y->hi >= x->lo);
  if (lanes_set(m) == 15) return col__bp_push(q->bp, q->id_of[x->id], q->id_of[y->id]);
  return COL_OK;
}

/* Every pair of e[0, n) (sorted on lo) whose extents meet on the axis. */
static col_status sweep_self(col__qt *q, const col__qt_ent *e, size_t n) {
  col_status st = COL_OK;
  for (size_t i = 0; i < n && st == COL_OK; i++)
    for (size_t j = i + 1; j < n && e[j].lo <= e[i].hi && st == COL_OK; j++)
      st = test_pair(q, e[i].t, e[j].t);
  return st;
}

/* Every pair of p[0, np) with r[0, nr) (each sorted on lo) whose extents meet: the two lists
 * merged on lo, each entry taken tested against the other list's entries from its place on
 * while their lo is within its extent. */
static col_status sweep_cross(col__qt *q, const col__qt_ent *p, size_t np, const col__qt_ent *r,
                              size_t nr) {
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
static col_status node_sweep(col__qt *q, const uint32_t *s, size_t ns, const uint32_t *a, size_t na,
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
    const col_aabb3 nb = q->norm[id], b = q->box[id];
    const bool flat = d == 2;
    q->rec[t] = (col__qt_rec){{b.min.x, b.min.y, flat ? -1.0f : b.min.z, -1.0f},
                              {b.max.x, b.max.y, flat ? 1.0f : b.max.z, 1.0f},
                              id};
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
      q->keys[t] = col__float_key(axis_lo(q->norm[q->rec[t].id], k)), q->order[t] = (uint32_t)t;
    sort_keys(q->keys, q->order, nt, q->rscratch);
    size_t at[16];
    for (unsigned c = 0; c < classes; c++) at[c] = start[c];
    col__qt_ent *ent = q->ent + k * q->cap;
    for (size_t i = 0; i < nt; i++) {
      const uint32_t t = q->order[i];
      const col_aabb3 nb = q->norm[q->rec[t].id];
      ent[at[q->cls[t]]++] = (col__qt_ent){axis_lo(nb, k), axis_hi(nb, k), t};
    }
  }
  for (unsigned c = 0; c < own && st == COL_OK; c++)
    for (unsigned e = c; e < classes && st == COL_OK; e++) {
      if (axis[c][e] < 0) continue;
      const col__qt_ent *ent = q->ent + (size_t)axis[c][e] * q->cap;
      st = c == e ? sweep_self(q, ent + start[c], count[c])
                  : sweep_cross(q, ent + start[c], count[c], ent + start[e], count[e]);
    }
  return st;
}

/* For each 4-bit lane mask, the set lanes' numbers left-packed, and how many there are. */
static const uint32_t packed_lanes[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
    {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
    {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
static const uint8_t lanes_in[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* Box i of the arrays v (the node's own boxes s[0, ns), then its list a) against every box
 * after it, four a step, then the row's pairs written at once. `open` (the rule), `flat` (2D:
 * no z) and `dense` are constants at each call, so each gets its own loop. Dense: a step's hits
 * are appended without a branch (on a mesh a step in three hits, and a branch on "any lane"
 * mispredicted); sparse, the branch skips the append (a step in thirty hits). */
COL__BP_INLINE col_status direct_rows(col__qt *q, float *const v[6], const uint32_t *s, size_t ns,
                                      const uint32_t *a, size_t nt, bool open, bool flat,
                                      bool dense) {
  col_pairs *out = q->bp->out;
  uint32_t *hit = q->hit;
  for (size_t i = 0; i < ns; i++) {
    const col__f4 lx = splat4(v[0][i]), ly = splat4(v[1][i]), lz = splat4(v[2][i]);
    const col__f4 hx = splat4(v[3][i]), hy = splat4(v[4][i]), hz = splat4(v[5][i]);
    size_t found = 0;
    for (size_t j = i + 1; j < nt; j += 4) {
      const col__f4 bx = load4(v[0] + j), by = load4(v[1] + j);
      const col__f4 cx = load4(v[3] + j), cy = load4(v[4] + j);
      /* The reference rule (aabb_ref.h) lane by lane: IEEE compares, the same answers. */
      col__i4 m = open ? (hx > bx) & (cx > lx) & (hy > by) & (cy > ly)
                       : (hx >= bx) & (cx >= lx) & (hy >= by) & (cy >= ly);
      if (!flat) {
        const col__f4 bz = load4(v[2] + j), cz = load4(v[5] + j);
        m &= open ? (hz > bz) & (cz > lz) : (hz >= bz) & (cz >= lz);
      }
      const unsigned bits = lanes_set(m);
      if (!dense && bits == 0) continue;
      col__u4 at;
      memcpy(&at, packed_lanes[bits], sizeof at);
      at += (col__u4){(uint32_t)j, (uint32_t)j, (uint32_t)j, (uint32_t)j};
      memcpy(hit + found, &at, sizeof at);
      found += lanes_in[bits];
    }
    if (found == 0) continue;
    const col_status st = col__bp_reserve(q->bp, found);
    if (st != COL_OK) return st;
    const uint32_t p = q->id_of[s[i]];
    col_pair *dst = out->data + out->count;
    for (size_t h = 0; h < found; h++) {
      const uint32_t t = hit[h], r = q->id_of[t < ns ? s[t] : a[t - ns]];
      dst[h] = p < r ? (col_pair){p, r} : (col_pair){r, p};
    }
    out->count += found, q->bp->stats.pairs += found;
  }
  return COL_OK;
}

/* The node's own boxes against each other and against its ancestor list: by node_sweep when
 * all against all would be many tests; otherwise all against all, four boxes a step. The own
 * boxes come first in the arrays, so box i meets every box after it: the rest of its own and
 * the whole list. */
col_status col__qt_node_pairs(col__qt *q, const uint32_t *s, size_t ns, const uint32_t *a,
                              size_t na, col_vec3 centre) {
  if (ns == 0) return COL_OK;
  if (ns * (ns - 1) / 2 + ns * na > col__qt_direct_tests)
    return node_sweep(q, s, ns, a, na, centre);
  const size_t nt = ns + na;
  col_status st = reserve_node(q, nt);
  if (st != COL_OK) return st;
  const size_t stride = q->cap + 4;
  float *v[6];
  for (int k = 0; k < 6; k++) v[k] = q->lane + k * stride;
  for (size_t t = 0; t < nt; t++) {
    const col_aabb3 b = q->box[t < ns ? s[t] : a[t - ns]];
    v[0][t] = b.min.x, v[1][t] = b.min.y, v[3][t] = b.max.x, v[4][t] = b.max.y;
    v[2][t] = b.min.z, v[5][t] = b.max.z; /* read only for 3D sets */
  }
  for (size_t t = nt; t < nt + 4; t++) /* NaN never meets: the last step's spare lanes */
    for (int k = 0; k < 6; k++) v[k][t] = NAN;
  q->bp->stats.tests += ns * (ns - 1) / 2 + ns * na;
  /* Dense while the call so far has found a pair in more than one test in sixteen. */
  const bool dense = q->bp->stats.pairs * 16 > q->bp->stats.tests, flat = q->dims == 2;
  const bool open = q->bp->touch == COL_TOUCH_SEPARATES;
  /* each combination its own loop: the rule, 2D or 3D, dense or sparse */
#define ROWS(f, d)                                                                                 \
  (open ? direct_rows(q, v, s, ns, a, nt, true, f, d)                                              \
        : direct_rows(q, v, s, ns, a, nt, false, f, d))
  if (flat) return dense ? ROWS(true, true) : ROWS(true, false);
  return dense ? ROWS(false, true) : ROWS(false, false);
#undef ROWS
}
