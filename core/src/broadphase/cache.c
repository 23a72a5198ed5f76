/* The incremental broadphase (col_broadphase_cache): per frame, only the boxes that moved are
 * looked up again; the pairs between boxes that did not move are carried over. The tree's fat
 * leaves make most small moves free (no reinsertion). See collide.h for the contract. */
#include "broadphase.h"

#include <stdlib.h>
#include <string.h>

struct col_broadphase_cache {
  col_broadphase algorithm; /* TREE or SAP */
  uint32_t *sap_order;      /* SAP: usable boxes sorted on min x, sap_m of them */
  uint32_t *sap_keys;       /* SAP: their keys, then n * (1 + 2 * dims) words for the sweep */
  size_t sap_m;
  unsigned dims;
  col_touch touch;
  size_t count;
  bool valid;    /* a previous frame is cached */
  float *coords; /* count x 6 floats: min x y z, max x y z of the previous frame */
  bool *moved;
  bool *usable;
  float margin;
  size_t reinserted; /* leaves reinserted since the tree was built */
  col__tree tree;
  col_pairs pairs; /* the previous frame's pairs */
  uint32_t *cand;
  size_t cand_cap;
};

col_status col_broadphase_cache_create(col_broadphase_cache **cache) {
  if (cache == NULL) return COL_ERR_NULL;
  col_broadphase_cache *c = calloc(1, sizeof *c);
  if (c == NULL) return COL_ERR_MEMORY;
  c->tree.root = c->tree.free_list = -1;
  c->algorithm = COL_BROADPHASE_TREE;
  *cache = c;
  return COL_OK;
}

static void reset(col_broadphase_cache *c) {
  free(c->coords), free(c->moved), free(c->usable), free(c->cand);
  free(c->sap_order), free(c->sap_keys);
  c->sap_order = c->sap_keys = NULL, c->sap_m = 0;
  col__tree_free(&c->tree);
  col_pairs_free(&c->pairs);
  c->coords = NULL, c->moved = NULL, c->usable = NULL, c->cand = NULL;
  c->cand_cap = 0, c->count = 0, c->valid = false;
}

col_status col_broadphase_cache_set_algorithm(col_broadphase_cache *cache,
                                              col_broadphase algorithm) {
  if (cache == NULL) return COL_ERR_NULL;
  if (algorithm != COL_BROADPHASE_TREE && algorithm != COL_BROADPHASE_SAP) return COL_ERR_ARGUMENT;
  if (algorithm != cache->algorithm) reset(cache), cache->algorithm = algorithm;
  return COL_OK;
}

/* Sweep and prune kept up to date: last frame's order, filtered to the boxes usable now and
 * completed with the newly usable ones, re-sorted on the current min x by insertion sort
 * (stable; nearly linear when the order barely changed), then swept. */
static col_status sap_frame(col_broadphase_cache *c, col__bp *bp, bool first) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count, words = n * (1 + 2 * (size_t)boxes->dims);
  if (first) {
    reset(c);
    c->sap_order = malloc((n ? n : 1) * sizeof(uint32_t));
    c->sap_keys = malloc((n + words + 2 * n + 1) * sizeof(uint32_t));
    c->moved = calloc(n ? n : 1, sizeof(bool));
    if (c->sap_order == NULL || c->sap_keys == NULL || c->moved == NULL) return COL_ERR_MEMORY;
  }
  uint32_t *order = c->sap_order, *keys = c->sap_keys;
  size_t m = 0;
  if (first) {
    m = col__bp_sort_x(boxes, order, keys, keys + n + words);
  } else {
    bool *in_order = c->moved;
    for (size_t i = 0; i < n; i++) in_order[i] = false;
    for (size_t r = 0; r < c->sap_m; r++)
      if (!col__bp_has_nan(boxes, c->sap_order[r])) in_order[order[m++] = c->sap_order[r]] = true;
    for (size_t i = 0; i < n; i++)
      if (!in_order[i] && !col__bp_has_nan(boxes, i)) order[m++] = (uint32_t)i;
    for (size_t r = 0; r < m; r++) keys[r] = col__float_key(boxes->min[0][order[r]]);
    for (size_t r = 1; r < m; r++) {
      const uint32_t key = keys[r], item = order[r];
      size_t at = r;
      for (; at > 0 && keys[at - 1] > key; at--) keys[at] = keys[at - 1], order[at] = order[at - 1];
      keys[at] = key, order[at] = item;
    }
  }
  c->sap_m = m;
  col__bp_scratch(bp, (2 * n + words + 2 * n) * sizeof(uint32_t));
  return col__bp_sap_sweep(bp, order, m, keys + n);
}

void col_broadphase_cache_destroy(col_broadphase_cache *cache) {
  if (cache == NULL) return;
  reset(cache);
  free(cache);
}

static void load(float *dst, const col_boxes *boxes, size_t i) {
  const col_aabb3 b = col__bp_box(boxes, i);
  const float v[6] = {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
  memcpy(dst, v, sizeof v);
}

static col_aabb3 fat_box(col_aabb3 b, float margin) {
  return (col_aabb3){{b.min.x - margin, b.min.y - margin, b.min.z - margin},
                     {b.max.x + margin, b.max.y + margin, b.max.z + margin}};
}

/* A fresh top-down tree over the current boxes, with fat leaves (the first frame, and
 * when reinsertions have loosened the tree; the pairs are not touched). */
static col_status build_tree(col_broadphase_cache *c, const col_boxes *boxes) {
  const size_t n = boxes->count;
  col_aabb3 *fat = calloc(n ? n : 1, sizeof *fat);
  if (fat == NULL) return COL_ERR_MEMORY;
  for (size_t i = 0; i < n; i++)
    fat[i] = fat_box(col__normalized(col__bp_box(boxes, i)), c->margin);
  const col_status st = col__tree_build(&c->tree, fat, c->usable, n);
  c->reinserted = 0;
  free(fat);
  return st;
}

/* First frame, or a different shape: everything from scratch, with fat leaves. */
static col_status rebuild(col_broadphase_cache *c, col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  reset(c);
  c->coords = malloc((n ? n : 1) * 6 * sizeof(float));
  c->moved = calloc(n ? n : 1, sizeof(bool));
  c->usable = calloc(n ? n : 1, sizeof(bool));
  col_status st = c->coords && c->moved && c->usable ? COL_OK : COL_ERR_MEMORY;
  double extent = 0.0;
  size_t measured = 0;
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    load(c->coords + 6 * i, boxes, i);
    c->usable[i] = !col__bp_has_nan(boxes, i);
    const col_aabb3 b = col__normalized(col__bp_box(boxes, i));
    const double e = ((double)b.max.x - b.min.x) + ((double)b.max.y - b.min.y);
    if (c->usable[i] && e == e && e < 1e30) extent += e / 2.0, measured++;
  }
  c->margin = measured ? (float)(0.25 * extent / (double)measured) : 0.0f;
  if (st == COL_OK) st = build_tree(c, boxes);
  if (st == COL_OK) st = col__tree_all_pairs(bp, &c->tree, c->usable, &c->cand, &c->cand_cap);
  c->dims = boxes->dims, c->touch = bp->touch, c->count = n;
  return st;
}

/* Later frames: carry over the pairs of unmoved boxes, look up the moved ones. */
static col_status step(col_broadphase_cache *c, col__bp *bp) {
  const col_boxes *boxes = bp->boxes;
  const size_t n = boxes->count;
  col_status st = COL_OK;
  for (size_t i = 0; i < n; i++) {
    float now[6];
    load(now, boxes, i);
    c->moved[i] = memcmp(now, c->coords + 6 * i, sizeof now) != 0;
    if (!c->moved[i]) continue;
    memcpy(c->coords + 6 * i, now, sizeof now);
  }
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    if (!c->moved[i]) continue;
    bool reinserted;
    c->usable[i] = !col__bp_has_nan(boxes, i);
    st = col__tree_move(&c->tree, (uint32_t)i, col__normalized(col__bp_box(boxes, i)), c->margin,
                        c->usable[i], &reinserted);
    c->reinserted += reinserted;
  }
  /* Insertion without rotations slowly loosens the tree: once as many leaves have been
   * reinserted as there are boxes, rebuild it top-down (amortized over those frames). */
  if (st == COL_OK && c->reinserted > n) st = build_tree(c, boxes);
  for (size_t k = 0; k < c->pairs.count && st == COL_OK; k++) {
    const col_pair p = c->pairs.data[k];
    if (!c->moved[p.a] && !c->moved[p.b]) st = col__bp_push(bp, p.a, p.b);
  }
  for (size_t i = 0; i < n && st == COL_OK; i++) {
    if (!c->moved[i] || !c->usable[i]) continue;
    size_t found = 0;
    const col_aabb3 a = col__bp_box(boxes, i);
    st = col__tree_query(&c->tree, col__normalized(a), &c->cand, &c->cand_cap, &found);
    for (size_t k = 0; k < found && st == COL_OK; k++) {
      const uint32_t j = c->cand[k];
      if (j == i || (c->moved[j] && j < i)) continue; /* a moved pair is found from its lower */
      bp->stats.tests++;
      if (col__bp_overlap(boxes, a, col__bp_box(boxes, j), bp->touch))
        st = col__bp_push(bp, (uint32_t)i, j);
    }
  }
  return st;
}

col_status col_broadphase_cache_update(col_broadphase_cache *cache, const col_boxes *boxes,
                                       col_touch touch, col_pairs *out,
                                       col_broadphase_stats *stats) {
  if (cache == NULL || out == NULL) return COL_ERR_NULL;
  col_status st = col__bp_check(boxes, touch);
  if (st != COL_OK) return st;
  col__bp bp = {boxes, touch, NULL, out, {0, 0, 0}};
  st = col__backend_active(&bp.backend);
  if (st != COL_OK) return st;
  out->count = 0;
  const bool same = cache->valid && cache->dims == boxes->dims && cache->touch == touch &&
                    cache->count == boxes->count;
  if (cache->algorithm == COL_BROADPHASE_SAP) {
    st = sap_frame(cache, &bp, !same);
    if (st != COL_OK) {
      reset(cache);
      out->count = 0;
      return st;
    }
    cache->dims = boxes->dims, cache->touch = touch, cache->count = boxes->count;
    cache->valid = true;
    if (stats != NULL) *stats = bp.stats;
    return COL_OK;
  }
  st = same ? step(cache, &bp) : rebuild(cache, &bp);
  if (st == COL_OK) {
    /* Keep this frame's pairs for the next one. */
    if (cache->pairs.capacity < out->count) {
      col_pair *data = realloc(cache->pairs.data, out->count * sizeof(col_pair));
      if (data == NULL)
        st = COL_ERR_MEMORY;
      else
        cache->pairs.data = data, cache->pairs.capacity = out->count;
    }
    if (st == COL_OK && out->count)
      memcpy(cache->pairs.data, out->data, out->count * sizeof(col_pair));
    cache->pairs.count = out->count;
  }
  if (st != COL_OK) {
    reset(cache);
    out->count = 0;
    return st;
  }
  cache->valid = true;
  /* What the cache holds between frames: boxes, flags, tree, pairs, candidates. */
  col__bp_scratch(&bp, cache->count * (6 * sizeof(float) + 2 * sizeof(bool) + sizeof(int32_t)) +
                           cache->tree.capacity * sizeof(col__tree_node) +
                           cache->pairs.capacity * sizeof(col_pair) +
                           cache->cand_cap * sizeof(uint32_t));
  if (stats != NULL) *stats = bp.stats;
  return COL_OK;
}
