/* Contact events of col_broadphase_cache (col_broadphase_cache_track_changes): the pairs that
 * began and ended with an update. A pair of two boxes that did not move keeps its state, so
 * only pairs with a moved box are compared: those of the last frame (`gone`) against those of
 * this one (`now`), both sorted by a two-pass counting sort (on b, then stably on a: linear in
 * the pairs and the box count) and merged. */
#include "state.h"

#include <stdlib.h>
#include <string.h>

static col_status room(col_pairs *p, size_t count) {
  if (p->capacity >= count) return COL_OK;
  const size_t cap = count + count / 2 + 16;
  col_pair *data = realloc(p->data, cap * sizeof(col_pair));
  if (data == NULL) return COL_ERR_MEMORY;
  p->data = data, p->capacity = cap;
  return COL_OK;
}

col_status col__cache_with_moved(const col_broadphase_cache *c, const col_pair *pairs, size_t count,
                                 col_pairs *to) {
  if (count == 0) return COL_OK; /* `to` may hold no memory yet */
  const col_status st = room(to, to->count + count);
  if (st != COL_OK) return st;
  col_pair *dst = to->data + to->count;
  size_t kept = 0;
  for (size_t k = 0; k < count; k++) {
    const col_pair p = pairs[k];
    dst[kept] = p;
    kept += c->moved[p.a] | c->moved[p.b];
  }
  to->count += kept;
  return COL_OK;
}

/* Counting sort of p's pairs on one of their indices (`on_a`) into `to` (room for them),
 * stable; `count` has room for the box count + 1. */
static void count_sort(const col_pairs *p, col_pair *to, uint32_t *count, size_t boxes, bool on_a) {
  memset(count, 0, (boxes + 1) * sizeof(uint32_t));
  for (size_t k = 0; k < p->count; k++) count[(on_a ? p->data[k].a : p->data[k].b) + 1]++;
  for (size_t i = 0; i < boxes; i++) count[i + 1] += count[i];
  for (size_t k = 0; k < p->count; k++)
    to[count[on_a ? p->data[k].a : p->data[k].b]++] = p->data[k];
}

/* Sorts p by (a, b) using `tmp` as the second buffer (room for p's pairs). */
static void sort_pairs(col_pairs *p, col_pair *tmp, uint32_t *count, size_t boxes) {
  if (p->count < 2) return;
  count_sort(p, tmp, count, boxes, false);
  col_pairs sorted_b = {tmp, p->count, p->count, NULL};
  count_sort(&sorted_b, p->data, count, boxes, true);
}

/* Room for the counting sort's counters over `boxes` boxes. */
static col_status counters(col_broadphase_cache *c, size_t boxes) {
  if (c->sort_count_cap >= boxes + 1) return COL_OK;
  free(c->sort_count);
  c->sort_count = malloc((boxes + 1) * sizeof(uint32_t));
  c->sort_count_cap = c->sort_count != NULL ? boxes + 1 : 0;
  return c->sort_count != NULL ? COL_OK : COL_ERR_MEMORY;
}

static bool less(col_pair x, col_pair y) { return x.a != y.a ? x.a < y.a : x.b < y.b; }

col_status col__cache_diff(col_broadphase_cache *c, size_t boxes) {
  col_pairs *gone = &c->gone, *now = &c->now;
  const size_t longest = gone->count > now->count ? gone->count : now->count;
  col_status st = room(&c->began, now->count);
  if (st == COL_OK) st = room(&c->ended, gone->count);
  /* The began list is the sort's second buffer first (its room holds now's pairs; the ended
   * list is big enough for gone's, so both sorts use the larger of the two). */
  col_pairs *spare = now->count >= gone->count ? &c->began : &c->ended;
  if (st == COL_OK) st = room(spare, longest);
  if (st == COL_OK) st = counters(c, boxes);
  if (st != COL_OK) return st;
  sort_pairs(gone, spare->data, c->sort_count, boxes);
  sort_pairs(now, spare->data, c->sort_count, boxes);
  size_t g = 0, w = 0, b = 0, e = 0;
  while (g < gone->count || w < now->count) {
    if (w == now->count || (g < gone->count && less(gone->data[g], now->data[w])))
      c->ended.data[e++] = gone->data[g++];
    else if (g == gone->count || less(now->data[w], gone->data[g]))
      c->began.data[b++] = now->data[w++];
    else
      g++, w++;
  }
  c->began.count = b, c->ended.count = e;
  return COL_OK;
}

col_status col__cache_all_began(col_broadphase_cache *c, const col_pairs *all, size_t boxes) {
  c->ended.count = 0, c->began.count = 0;
  col_status st = room(&c->began, all->count);
  if (st == COL_OK) st = room(&c->gone, all->count);
  if (st == COL_OK) st = counters(c, boxes);
  if (st != COL_OK) return st;
  if (all->count) memcpy(c->began.data, all->data, all->count * sizeof(col_pair));
  c->began.count = all->count;
  sort_pairs(&c->began, c->gone.data, c->sort_count, boxes);
  return COL_OK;
}
