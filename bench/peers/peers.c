/* The registry of peer structures compiled in and the closed-rule re-test of what they report.
 * The engines come from bench/peers/peers.list through peers_list.h, which mk/peers.mk writes
 * from the list and the engines it found installed. */
#include "peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers_list.h" /* generated: PEERS_LISTED(X), PEERS_BUILT(X) */

#define DECLARE(engine) extern const peer_table peer_##engine##_table;
PEERS_BUILT(DECLARE)

#define ENGINE(engine, package, dims, structures, built)                                           \
  {#engine, package, dims, structures, built},
static const peer_engine engines[] = {PEERS_LISTED(ENGINE)};

size_t peer_engines(const peer_engine **list) {
  *list = engines;
  return sizeof engines / sizeof engines[0];
}

#define TABLE(engine) &peer_##engine##_table,
static const peer_table *const tables[] = {PEERS_BUILT(TABLE) NULL};

static const peer_structure *all[PEER_MAX_STRUCTURES];
static size_t all_count;

size_t peer_structures(const peer_structure *const **list) {
  if (all_count == 0)
    for (size_t t = 0; tables[t] != NULL; t++)
      for (size_t i = 0; i < tables[t]->count && all_count < PEER_MAX_STRUCTURES; i++)
        all[all_count++] = &tables[t]->structures[i];
  *list = all;
  return all_count;
}

const char *peer_absent(void) {
  static char text[1024];
  if (text[0] == 0) {
    size_t used = 0;
    for (size_t e = 0; e < sizeof engines / sizeof engines[0]; e++)
      if (!engines[e].built && used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "%s: %s was not installed when collide was built\n",
                                 engines[e].name, engines[e].package);
  }
  return text;
}

void peer_push(col_pairs *out, uint32_t a, uint32_t b) {
  if (out->count == out->capacity) {
    const size_t cap = out->capacity ? 2 * out->capacity : 1024;
    col_pair *grown = realloc(out->data, cap * sizeof *grown);
    if (!grown) {
      fprintf(stderr, "peers: out of memory (%zu pairs)\n", cap);
      exit(1);
    }
    out->data = grown, out->capacity = cap;
  }
  out->data[out->count++] = a < b ? (col_pair){a, b} : (col_pair){b, a};
}

static bool overlaps(const col_boxes *boxes, uint32_t a, uint32_t b) {
  const float *const *lo = boxes->min, *const *hi = boxes->max;
  if (boxes->dims == 3)
    return col_aabb3_overlap(
        (col_aabb3){{lo[0][a], lo[1][a], lo[2][a]}, {hi[0][a], hi[1][a], hi[2][a]}},
        (col_aabb3){{lo[0][b], lo[1][b], lo[2][b]}, {hi[0][b], hi[1][b], hi[2][b]}},
        COL_TOUCH_OVERLAPS);
  return col_aabb2_overlap((col_aabb2){{lo[0][a], lo[1][a]}, {hi[0][a], hi[1][a]}},
                           (col_aabb2){{lo[0][b], lo[1][b]}, {hi[0][b], hi[1][b]}},
                           COL_TOUCH_OVERLAPS);
}

/* Two stable counting passes, by b then by a: linear in pairs and boxes, where qsort took
 * seconds on the 18 million pairs of the largest box-pruning scene (twice per engine). */
void peer_sort(col_pairs *pairs) {
  if (pairs->count < 2) return;
  uint32_t top = 0;
  for (size_t k = 0; k < pairs->count; k++) {
    const col_pair p = pairs->data[k];
    top = p.a > top ? p.a : top, top = p.b > top ? p.b : top;
  }
  size_t *start = calloc((size_t)top + 2, sizeof *start);
  col_pair *other = malloc(pairs->count * sizeof *other);
  if (start == NULL || other == NULL) {
    fprintf(stderr, "peers: out of memory (sorting %zu pairs)\n", pairs->count);
    exit(1);
  }
  col_pair *from = pairs->data, *to = other;
  for (int pass = 0; pass < 2; pass++) {
    memset(start, 0, ((size_t)top + 2) * sizeof *start);
    for (size_t k = 0; k < pairs->count; k++) start[(pass ? from[k].a : from[k].b) + 1]++;
    for (size_t i = 1; i <= top; i++) start[i] += start[i - 1];
    for (size_t k = 0; k < pairs->count; k++) to[start[pass ? from[k].a : from[k].b]++] = from[k];
    col_pair *t = from;
    from = to, to = t;
  }
  free(other); /* two passes: the sorted pairs are back in pairs->data */
  free(start);
}

void peer_exact(const col_boxes *boxes, const col_pairs *reported, col_pairs *exact) {
  exact->count = 0;
  for (size_t k = 0; k < reported->count; k++) {
    const col_pair p = reported->data[k];
    if (p.a != p.b && p.b < boxes->count && overlaps(boxes, p.a, p.b)) peer_push(exact, p.a, p.b);
  }
  peer_sort(exact);
  size_t kept = 0;
  for (size_t k = 0; k < exact->count; k++)
    if (kept == 0 || exact->data[k].a != exact->data[kept - 1].a ||
        exact->data[k].b != exact->data[kept - 1].b)
      exact->data[kept++] = exact->data[k];
  exact->count = kept;
}
