/* collide's answers to kernel-peer items (kp_ours in kp_rules.h) and its timed batch and
 * single-pair loops (kp_ours.h). */
#include "kp_ours.h"

#include "kp_rules.h"

#include <stdio.h>
#include <stdlib.h>

static col_aabb2 flat(col_aabb3 b) { return (col_aabb2){{b.min.x, b.min.y}, {b.max.x, b.max.y}}; }

kp_answer kp_ours(kp_family f, const kp_item *it) {
  switch (f) {
  case KP_BOX2:
    return (kp_answer){col_aabb2_overlap(flat(it->boxes.a), flat(it->boxes.b), COL_TOUCH_OVERLAPS),
                       0, 0};
  case KP_BOX3:
    return (kp_answer){col_aabb3_overlap(it->boxes.a, it->boxes.b, COL_TOUCH_OVERLAPS), 0, 0};
  case KP_MTD: {
    const col_mtd m = col_aabb2_mtd(flat(it->boxes.a), flat(it->boxes.b));
    const bool x = m.d.x != 0.0f;
    const float d = x ? m.d.x : m.d.y;
    return (kp_answer){m.hit, x ? 0 : 1, d < 0 ? -d : d};
  }
  case KP_SEGBOX2: {
    const col_vec2 a = {it->segbox.from.x, it->segbox.from.y},
                   b = {it->segbox.to.x, it->segbox.to.y};
    return (kp_answer){col_segment_aabb2(a, b, flat(it->segbox.box), COL_TOUCH_OVERLAPS).hit, 0, 0};
  }
  case KP_SEGBOX3:
    return (kp_answer){
        col_segment_aabb3(it->segbox.from, it->segbox.to, it->segbox.box, COL_TOUCH_OVERLAPS).hit,
        0, 0};
  case KP_SEGSPHERE:
  case KP_SEGCIRCLE:
    return (kp_answer){
        col_segment_sphere_robust(it->segsphere.from, it->segsphere.to, it->segsphere.sphere).hit,
        0, 0};
  default: return (kp_answer){col_circle_overlap(it->circles.a, it->circles.b), 0, 0};
  }
}

struct kp_ours_batch {
  kp_family family;
  size_t n;
  const kp_item *items;
  float *v[8]; /* the structure of arrays (boxes: min x, y, z, max x, y, z; spheres, circles) */
  col_aabb2 *a, *b; /* mtd's pairs */
  col_mtd *mtd;
  uint32_t *indices;
  uint8_t *hits;
};

static void *room(size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (p == NULL) {
    fprintf(stderr, "kernel-peers: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

kp_ours_batch *kp_ours_prepare(kp_family f, const kp_item *items, size_t n) {
  kp_ours_batch *b = room(sizeof *b);
  b->family = f, b->n = n, b->items = items;
  for (int k = 0; k < 8; k++) b->v[k] = room(n * sizeof(float));
  b->indices = room(n * sizeof(uint32_t)), b->hits = room(n);
  b->a = room(n * sizeof(col_aabb2)), b->b = room(n * sizeof(col_aabb2)),
  b->mtd = room(n * sizeof(col_mtd));
  for (size_t i = 0; i < n; i++) {
    const kp_item *it = &items[i];
    if (f == KP_BOX2 || f == KP_BOX3 || f == KP_SEGBOX2 || f == KP_SEGBOX3) {
      const col_aabb3 x = f <= KP_BOX3 ? it->boxes.b : it->segbox.box;
      const float c[6] = {x.min.x, x.min.y, x.min.z, x.max.x, x.max.y, x.max.z};
      for (int k = 0; k < 6; k++) b->v[k][i] = c[k];
    } else if (f == KP_SEGSPHERE || f == KP_SEGCIRCLE) {
      const col_sphere s = it->segsphere.sphere;
      b->v[0][i] = s.center.x, b->v[1][i] = s.center.y, b->v[2][i] = s.center.z,
      b->v[3][i] = s.radius;
    } else if (f == KP_CIRCLE) {
      const col_circle p = it->circles.a, q = it->circles.b;
      b->v[0][i] = p.center.x, b->v[1][i] = p.center.y, b->v[2][i] = p.radius;
      b->v[3][i] = q.center.x, b->v[4][i] = q.center.y, b->v[5][i] = q.radius;
    } else {
      b->a[i] = flat(it->boxes.a), b->b[i] = flat(it->boxes.b);
    }
  }
  return b;
}

void kp_ours_free(kp_ours_batch *b) {
  if (b == NULL) return;
  for (int k = 0; k < 8; k++) free(b->v[k]);
  free(b->indices), free(b->hits), free(b->a), free(b->b), free(b->mtd), free(b);
}

static double fail(const char *what) {
  fprintf(stderr, "kernel-peers: %s failed\n", what);
  exit(1);
}

double kp_ours_batch_run(kp_ours_batch *b) {
  const size_t n = b->n;
  float *const *v = b->v;
  size_t count = 0;
  switch (b->family) {
  case KP_BOX2: {
    const col_aabb2_soa set = {v[0], v[1], v[3], v[4], n};
    if (col_aabb2_query(flat(b->items[0].boxes.a), &set, COL_TOUCH_OVERLAPS, b->indices, &count) !=
        COL_OK)
      fail("col_aabb2_query");
    return (double)count;
  }
  case KP_BOX3: {
    const col_aabb3_soa set = {v[0], v[1], v[2], v[3], v[4], v[5], n};
    if (col_aabb3_query(b->items[0].boxes.a, &set, COL_TOUCH_OVERLAPS, b->indices, &count) !=
        COL_OK)
      fail("col_aabb3_query");
    return (double)count;
  }
  case KP_MTD: {
    if (col_aabb2_mtd_batch(n, b->a, b->b, b->mtd) != COL_OK) fail("col_aabb2_mtd_batch");
    return (double)b->mtd[n ? n - 1 : 0].d.x;
  }
  case KP_SEGBOX2: {
    const col_aabb2_soa set = {v[0], v[1], v[3], v[4], n};
    const col_vec3 p = b->items[0].segbox.from, q = b->items[0].segbox.to;
    col_aabb2_hit h;
    if (col_segment_aabb2_first((col_vec2){p.x, p.y}, (col_vec2){q.x, q.y}, &set,
                                COL_TOUCH_OVERLAPS, &h) != COL_OK)
      fail("col_segment_aabb2_first");
    return h.hit ? (double)h.t : -1;
  }
  case KP_SEGBOX3: {
    const col_aabb3_soa set = {v[0], v[1], v[2], v[3], v[4], v[5], n};
    col_aabb3_hit h;
    if (col_segment_aabb3_first(b->items[0].segbox.from, b->items[0].segbox.to, &set,
                                COL_TOUCH_OVERLAPS, &h) != COL_OK)
      fail("col_segment_aabb3_first");
    return h.hit ? (double)h.t : -1;
  }
  case KP_SEGSPHERE:
  case KP_SEGCIRCLE: {
    const col_sphere_soa set = {v[0], v[1], v[2], v[3], n};
    col_segment_hit h;
    if (col_segment_spheres_robust(b->items[0].segsphere.from, b->items[0].segsphere.to, &set,
                                   &h) != COL_OK)
      fail("col_segment_spheres_robust");
    return h.hit ? (double)h.t : -1;
  }
  default: {
    const col_circle_soa p = {v[0], v[1], v[2], n}, q = {v[3], v[4], v[5], n};
    if (col_circle_overlap_batch(&p, &q, COL_CIRCLE_SEED, b->hits) != COL_OK)
      fail("col_circle_overlap_batch");
    for (size_t i = 0; i < n; i++) count += b->hits[i];
    return (double)count;
  }
  }
}

double kp_ours_single_run(kp_ours_batch *b) {
  const size_t n = b->n;
  const kp_item *items = b->items;
  size_t count = 0;
  double best = -1;
  switch (b->family) {
  case KP_BOX2: {
    const col_aabb2 q = flat(items[0].boxes.a);
    for (size_t i = 0; i < n; i++)
      count += col_aabb2_overlap(q, flat(items[i].boxes.b), COL_TOUCH_OVERLAPS);
    return (double)count;
  }
  case KP_BOX3:
    for (size_t i = 0; i < n; i++)
      count += col_aabb3_overlap(items[0].boxes.a, items[i].boxes.b, COL_TOUCH_OVERLAPS);
    return (double)count;
  case KP_MTD:
    for (size_t i = 0; i < n; i++) b->mtd[i] = col_aabb2_mtd(b->a[i], b->b[i]);
    return (double)b->mtd[n ? n - 1 : 0].d.x;
  case KP_SEGBOX2: {
    const col_vec2 p = {items[0].segbox.from.x, items[0].segbox.from.y},
                   q = {items[0].segbox.to.x, items[0].segbox.to.y};
    for (size_t i = 0; i < n; i++) {
      const col_aabb2_hit h =
          col_segment_aabb2(p, q, flat(items[i].segbox.box), COL_TOUCH_OVERLAPS);
      if (h.hit && (best < 0 || h.t < best)) best = h.t;
    }
    return best;
  }
  case KP_SEGBOX3:
    for (size_t i = 0; i < n; i++) {
      const col_aabb3_hit h = col_segment_aabb3(items[0].segbox.from, items[0].segbox.to,
                                                items[i].segbox.box, COL_TOUCH_OVERLAPS);
      if (h.hit && (best < 0 || h.t < best)) best = h.t;
    }
    return best;
  case KP_SEGSPHERE:
  case KP_SEGCIRCLE:
    for (size_t i = 0; i < n; i++) {
      const col_hit h = col_segment_sphere_robust(items[0].segsphere.from, items[0].segsphere.to,
                                                  items[i].segsphere.sphere);
      if (h.hit && (best < 0 || h.t < best)) best = h.t;
    }
    return best;
  default:
    for (size_t i = 0; i < n; i++)
      count += col_circle_overlap(items[i].circles.a, items[i].circles.b);
    return (double)count;
  }
}
