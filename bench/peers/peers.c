/* The registry of peer structures compiled in (the Makefile defines COL_PEER_<ENGINE> for each
 * engine whose Debian package is installed) and the closed-rule re-test of what they report. */
#include "peers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef COL_PEER_BULLET
extern const peer_structure *const peer_bullet_structures[];
extern const size_t peer_bullet_count;
#endif
#ifdef COL_PEER_BOX2D
extern const peer_structure *const peer_box2d_structures[];
extern const size_t peer_box2d_count;
#endif
#ifdef COL_PEER_CHIPMUNK
extern const peer_structure *const peer_chipmunk_structures[];
extern const size_t peer_chipmunk_count;
#endif
#ifdef COL_PEER_FCL
extern const peer_structure *const peer_fcl_structures[];
extern const size_t peer_fcl_count;
#endif

#ifdef COL_PEER_ODE
extern const peer_structure *const peer_ode_structures[];
extern const size_t peer_ode_count;
#endif

static const peer_structure *all[PEER_MAX_STRUCTURES];
static size_t all_count;

static void add(const peer_structure *const *list, size_t count) {
  for (size_t i = 0; i < count && all_count < sizeof all / sizeof all[0]; i++)
    all[all_count++] = list[i];
}

size_t peer_structures(const peer_structure *const **list) {
  if (all_count == 0) {
#ifdef COL_PEER_BULLET
    add(peer_bullet_structures, peer_bullet_count);
#endif
#ifdef COL_PEER_BOX2D
    add(peer_box2d_structures, peer_box2d_count);
#endif
#ifdef COL_PEER_CHIPMUNK
    add(peer_chipmunk_structures, peer_chipmunk_count);
#endif
#ifdef COL_PEER_FCL
    add(peer_fcl_structures, peer_fcl_count);
#endif
#ifdef COL_PEER_ODE
    add(peer_ode_structures, peer_ode_count);
#endif
    (void)add;
  }
  *list = all;
  return all_count;
}

const char *peer_absent(void) {
  return ""
#ifndef COL_PEER_BULLET
         "bullet: libbullet-dev was not installed when collide was built\n"
#endif
#ifndef COL_PEER_BOX2D
         "box2d: libbox2d-dev was not installed when collide was built\n"
#endif
#ifndef COL_PEER_CHIPMUNK
         "chipmunk: libchipmunk-dev was not installed when collide was built\n"
#endif
#ifndef COL_PEER_FCL
         "fcl: libfcl-dev was not installed when collide was built\n"
#endif
#ifndef COL_PEER_ODE
         "ode: libode-dev was not installed when collide was built\n"
#endif
      ;
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
