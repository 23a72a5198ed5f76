/* The kernel peers' inputs (kp_inputs.h): the shared sets drawn with the digest's generators,
 * so that a set's input is made again alone from its name and index, and a fuzzer's bytes drive
 * the same generators. */
#include "kp_inputs.h"

#include "digest.h"
#include "splitmix64.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const set_names[KP_SETS] = {"random", "grid", "edge"};
static const uint32_t set_sizes[KP_SETS] = {4096, 4096, 4096};

const char *kp_set_name(kp_set s) { return (unsigned)s < KP_SETS ? set_names[s] : "?"; }
uint32_t kp_set_size(kp_set s) { return (unsigned)s < KP_SETS ? set_sizes[s] : 0; }

/* The digest draws through a dg_kernel's run function: the one below writes here. */
static kp_item *drawn;
static kp_family drawn_family;
static kp_set drawn_set;

static float nan_of(dg_ctx *c) {
  static const float nans[3] = {NAN, -NAN, 0.0f};
  const uint32_t k = dg_below(c, 3);
  return k < 2 ? nans[k] : (float)(dg_chance(c, 128) ? INFINITY : -INFINITY);
}

/* A box on `dims` axes. */
static col_aabb3 random_box(dg_ctx *c, unsigned dims) {
  float mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
  const bool loose = dg_chance(c, 16);
  for (unsigned a = 0; a < dims; a++) {
    mn[a] = dg_coord(c, 6);
    mx[a] = loose ? dg_coord(c, 6) : mn[a] + dg_size(c, 6);
  }
  return (col_aabb3){{mn[0], mn[1], mn[2]}, {mx[0], mx[1], mx[2]}};
}

static col_aabb3 grid_box(dg_ctx *c, unsigned dims) {
  float mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
  for (unsigned a = 0; a < dims; a++) {
    mn[a] = (float)dg_below(c, 8);
    mx[a] = mn[a] + (float)(1 + dg_below(c, 2));
  }
  return (col_aabb3){{mn[0], mn[1], mn[2]}, {mx[0], mx[1], mx[2]}};
}

static float *axis_min(col_aabb3 *b, unsigned a) {
  return a == 0 ? &b->min.x : a == 1 ? &b->min.y : &b->min.z;
}
static float *axis_max(col_aabb3 *b, unsigned a) {
  return a == 0 ? &b->max.x : a == 1 ? &b->max.y : &b->max.z;
}
static float *coord(col_vec3 *v, unsigned a) { return a == 0 ? &v->x : a == 1 ? &v->y : &v->z; }

/* Two boxes on the edges of the rules: touching, k ulps apart, a NaN or infinity, inverted,
 * zero size, one inside the other, equal overlaps on two axes. */
static void edge_boxes(dg_ctx *c, unsigned dims, col_aabb3 *a, col_aabb3 *b) {
  *a = grid_box(c, dims), *b = grid_box(c, dims);
  const unsigned ax = dg_below(c, dims);
  switch (dg_below(c, 8)) {
  case 0: *axis_min(b, ax) = *axis_max(a, ax); break;
  case 1: *axis_min(b, ax) = dg_ulps(*axis_max(a, ax), (int)dg_below(c, 7) - 3); break;
  case 2:
    *(dg_chance(c, 128) ? axis_min : axis_max)(dg_chance(c, 128) ? a : b, ax) = nan_of(c);
    break;
  case 3:
    *(dg_chance(c, 128) ? axis_min : axis_max)(dg_chance(c, 128) ? a : b, ax) =
        dg_chance(c, 128) ? INFINITY : -INFINITY;
    break;
  case 4: {
    col_aabb3 *w = dg_chance(c, 128) ? a : b;
    const float t = *axis_min(w, ax);
    *axis_min(w, ax) = *axis_max(w, ax), *axis_max(w, ax) = t;
    break;
  }
  case 5:
    *axis_max(dg_chance(c, 128) ? a : b, ax) = *axis_min(dg_chance(c, 128) ? a : b, ax);
    break;
  case 6: /* b inside a (strictly or on a face) */
    for (unsigned k = 0; k < dims; k++) {
      *axis_min(a, k) = *axis_min(b, k) - (float)dg_below(c, 2);
      *axis_max(a, k) = *axis_max(b, k) + (float)dg_below(c, 2);
    }
    break;
  default: /* equal overlaps on x and y: the push-out's tie */
    *b = *a;
    b->min.x += 0.5f, b->max.x += 0.5f, b->min.y += 0.5f, b->max.y += 0.5f;
    break;
  }
}

static void draw_boxes(dg_ctx *c, unsigned dims) {
  col_aabb3 a, b;
  if (drawn_set == KP_RANDOM)
    a = random_box(c, dims), b = random_box(c, dims);
  else if (drawn_set == KP_GRID)
    a = grid_box(c, dims), b = grid_box(c, dims);
  else
    edge_boxes(c, dims, &a, &b);
  drawn->boxes.a = a, drawn->boxes.b = b;
}

static float quarter(dg_ctx *c, int lo, int hi) {
  return (float)((int)dg_below(c, (uint32_t)(4 * (hi - lo) + 1)) + 4 * lo) / 4.0f;
}

/* A segment against a box: random values, quarter-grid segments against tiles, or the edges
 * (start inside, on a face moving away or in, zero length, sliding on a face's plane, grazing an
 * edge, ending on a face, k ulps short or past, non-finite, short, flat or inverted boxes). */
static void draw_segbox(dg_ctx *c, unsigned dims) {
  col_vec3 from = {0, 0, 0}, to = {0, 0, 0};
  col_aabb3 box;
  if (drawn_set == KP_RANDOM) {
    for (unsigned a = 0; a < dims; a++)
      *coord(&from, a) = dg_coord(c, 6), *coord(&to, a) = dg_coord(c, 6);
    box = random_box(c, dims);
  } else {
    box = grid_box(c, dims);
    for (unsigned a = 0; a < dims; a++)
      *coord(&from, a) = quarter(c, -1, 10), *coord(&to, a) = quarter(c, -1, 10);
  }
  if (drawn_set == KP_EDGE) {
    const unsigned ax = dg_below(c, dims);
    const float lo = *axis_min(&box, ax), hi = *axis_max(&box, ax);
    switch (dg_below(c, 12)) {
    case 0: /* start inside */
      for (unsigned a = 0; a < dims; a++)
        *coord(&from, a) = (*axis_min(&box, a) + *axis_max(&box, a)) / 2;
      break;
    case 1: /* on a face, moving away */
      *coord(&from, ax) = hi, *coord(&to, ax) = hi + 1 + (float)dg_below(c, 3);
      break;
    case 2: /* on a face, moving in */ *coord(&from, ax) = lo, *coord(&to, ax) = hi; break;
    case 3: to = from; break; /* zero length */
    case 4: /* sliding along a face's plane */ *coord(&from, ax) = lo, *coord(&to, ax) = lo; break;
    case 5: /* ending on a face */
      *coord(&from, ax) = lo - 1 - (float)dg_below(c, 3), *coord(&to, ax) = lo;
      break;
    case 6: /* ending k ulps before or past a face */
      *coord(&from, ax) = lo - 2, *coord(&to, ax) = dg_ulps(lo, (int)dg_below(c, 7) - 3);
      break;
    case 7: /* non-finite */ *coord(dg_chance(c, 128) ? &from : &to, ax) = nan_of(c); break;
    case 8: { /* short: |to - from| under FLT_EPSILON on the axis, crossing a face */
      const float d = (float)(1 + dg_below(c, 8)) * 0x1p-26f;
      *coord(&from, ax) = lo - d / 2, *coord(&to, ax) = lo + d / 2;
      break;
    }
    case 9: /* a flat box, the segment through it */
      *axis_max(&box, ax) = lo;
      *coord(&from, ax) = lo - 1, *coord(&to, ax) = lo + 1;
      break;
    case 10: { /* an inverted box */ *axis_min(&box, ax) = hi, *axis_max(&box, ax) = lo; break;
    }
    default: /* through a corner exactly */
      for (unsigned a = 0; a < dims; a++)
        *coord(&from, a) = *axis_min(&box, a) - 1, *coord(&to, a) = *axis_min(&box, a) + 1;
      *coord(&to, ax) = *axis_min(&box, ax) - 1 + 2 * (1 + (float)dg_below(c, 2));
      break;
    }
  }
  drawn->segbox.from = from, drawn->segbox.to = to, drawn->segbox.box = box;
}

/* A segment against a sphere (z = 0 in 2D): random values, the grid, or the edges (start
 * inside, on the surface, near-tangent from 10 m to 1 km, ending on the surface, zero length,
 * non-finite, short, radius 0). */
static void draw_segsphere(dg_ctx *c, unsigned dims) {
  col_vec3 from = {0, 0, 0}, to = {0, 0, 0}, ctr = {0, 0, 0};
  float r;
  if (drawn_set == KP_RANDOM) {
    for (unsigned a = 0; a < dims; a++)
      *coord(&from, a) = dg_coord(c, 6), *coord(&to, a) = dg_coord(c, 6),
                    *coord(&ctr, a) = dg_coord(c, 6);
    r = dg_size(c, 6);
  } else {
    for (unsigned a = 0; a < dims; a++)
      *coord(&from, a) = quarter(c, -4, 4), *coord(&to, a) = quarter(c, -4, 4),
                    *coord(&ctr, a) = (float)((int)dg_below(c, 5) - 2);
    r = (float)(1 + dg_below(c, 4)) / 2;
  }
  if (drawn_set == KP_EDGE) {
    switch (dg_below(c, 8)) {
    case 0: from = ctr; break;
    case 1: from = ctr, from.x += r; break; /* on the surface */
    case 2: {                               /* near-tangent, far away */
      static const float far[4] = {10, 100, 300, 1000};
      const float d = far[dg_below(c, 4)];
      r = 0.075f;
      ctr = (col_vec3){0, dg_ulps(r, (int)dg_below(c, 33) - 16), 0};
      from = (col_vec3){-d, 0, 0}, to = (col_vec3){d, 0, 0};
      if (dims == 3 && dg_chance(c, 128)) ctr = (col_vec3){ctr.x, 0, ctr.y};
      break;
    }
    case 3: to = ctr, to.x -= r; break; /* ending on the surface */
    case 4: to = from; break;
    case 5: *coord(dg_chance(c, 128) ? &from : &ctr, dg_below(c, dims)) = nan_of(c); break;
    case 6: from = ctr, from.x -= r + 0x1p-27f, to = from, to.x += 0x1p-25f; break; /* short */
    default: /* a point sphere on the segment: its midpoint (exact on the quarter grid) */
      r = 0;
      ctr = (col_vec3){(from.x + to.x) / 2, (from.y + to.y) / 2, (from.z + to.z) / 2};
      break;
    }
  }
  drawn->segsphere.from = from, drawn->segsphere.to = to;
  drawn->segsphere.sphere = (col_sphere){ctr, r};
}

static void draw_circles(dg_ctx *c) {
  col_circle a, b;
  if (drawn_set == KP_RANDOM) {
    a = (col_circle){{dg_coord(c, 6), dg_coord(c, 6)}, dg_size(c, 6)};
    b = (col_circle){{dg_coord(c, 6), dg_coord(c, 6)}, dg_size(c, 6)};
  } else {
    a = (col_circle){{(float)dg_below(c, 6), (float)dg_below(c, 6)},
                     (float)(1 + dg_below(c, 4)) / 2};
    b = (col_circle){{(float)dg_below(c, 6), (float)dg_below(c, 6)},
                     (float)(1 + dg_below(c, 4)) / 2};
  }
  if (drawn_set == KP_EDGE) {
    const float dist = a.radius + b.radius;
    switch (dg_below(c, 8)) {
    case 0: b.center = (col_vec2){a.center.x + dist, a.center.y}; break; /* touching */
    case 1:
      b.center = (col_vec2){dg_ulps(a.center.x + dist, (int)dg_below(c, 7) - 3), a.center.y};
      break;
    case 2: b.center.x = nan_of(c); break;
    case 3: a.radius = 0; break;
    case 4: a.radius = -a.radius; break;
    case 5: b.center = a.center; break;
    case 6: { /* far from the origin, 3-4-5 apart (touching in exact arithmetic) */
      const float base = (float)(1 << (10 + dg_below(c, 12)));
      a = (col_circle){{base, base}, 2.0f}, b = (col_circle){{base + 3, base + 4}, 3.0f};
      b.radius = dg_ulps(b.radius, (int)dg_below(c, 5) - 2);
      break;
    }
    default: b.radius = nan_of(c); break;
    }
  }
  drawn->circles.a = a, drawn->circles.b = b;
}

static void run(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  *drawn = (kp_item){0};
  switch (drawn_family) {
  case KP_BOX2:
  case KP_MTD: draw_boxes(c, 2); break;
  case KP_BOX3: draw_boxes(c, 3); break;
  case KP_SEGBOX2: draw_segbox(c, 2); break;
  case KP_SEGBOX3: draw_segbox(c, 3); break;
  case KP_SEGSPHERE: draw_segsphere(c, 3); break;
  case KP_SEGCIRCLE: draw_segsphere(c, 2); break;
  default: draw_circles(c); break;
  }
}

static dg_kernel generator(kp_family f, kp_set s) {
  static char names[KP_FAMILIES][KP_SETS][48];
  if (names[f][s][0] == 0)
    snprintf(names[f][s], sizeof names[f][s], "kpeer.%s.%s", kp_family_name(f), kp_set_name(s));
  return (dg_kernel){names[f][s], set_sizes[s], 0, 0, run, NULL};
}

kp_item kp_input(kp_family f, kp_set s, uint32_t index) {
  kp_item it;
  drawn = &it, drawn_family = f, drawn_set = s;
  const dg_kernel k = generator(f, s);
  dg_run_input(&k, index, NULL);
  return it;
}

kp_item kp_input_bytes(kp_family f, kp_set s, const uint8_t *bytes, size_t n) {
  kp_item it;
  drawn = &it, drawn_family = f, drawn_set = s;
  const dg_kernel k = generator(f, s);
  dg_run_bytes(&k, bytes, n, NULL);
  return it;
}

static float uniform(uint64_t *rng, float lo, float hi) {
  return lo + (hi - lo) * (float)(splitmix64(rng) >> 40) * 0x1p-24f;
}

kp_item *kp_timing_items(kp_family f, size_t n) {
  kp_item *items = calloc(n + 1, sizeof *items);
  if (items == NULL) {
    fprintf(stderr, "kernel-peers: out of memory (%zu items)\n", n);
    exit(1);
  }
  uint64_t rng = 1 + (uint64_t)f;
  const bool flat = kp_family_is_2d(f);
  for (size_t i = 0; i < n; i++) {
    const float cx = uniform(&rng, 0, 1000), cy = uniform(&rng, 0, 1000),
                cz = flat ? 0 : uniform(&rng, 0, 1000);
    const float e = uniform(&rng, 0.5f, 5);
    const col_aabb3 box = {{cx - e, cy - e, flat ? 0 : cz - e},
                           {cx + e, cy + e, flat ? 0 : cz + e}};
    kp_item *it = &items[i];
    switch (f) {
    case KP_BOX2:
    case KP_BOX3:
      it->boxes.a = (col_aabb3){{450, 450, flat ? 0 : 450}, {550, 550, flat ? 0 : 550}};
      it->boxes.b = box;
      break;
    case KP_MTD: { /* pairs that overlap about half the time */
      const float dx = uniform(&rng, -8, 8), dy = uniform(&rng, -8, 8);
      it->boxes.a = box;
      it->boxes.b =
          (col_aabb3){{box.min.x + dx, box.min.y + dy, 0}, {box.max.x + dx, box.max.y + dy, 0}};
      break;
    }
    case KP_SEGBOX2:
    case KP_SEGBOX3:
      it->segbox.from = (col_vec3){0, 10, flat ? 0 : 20},
      it->segbox.to = (col_vec3){1000, 990, flat ? 0 : 980};
      it->segbox.box = box;
      break;
    case KP_SEGSPHERE:
    case KP_SEGCIRCLE:
      it->segsphere.from = (col_vec3){0, 10, flat ? 0 : 20},
      it->segsphere.to = (col_vec3){1000, 990, flat ? 0 : 980};
      it->segsphere.sphere = (col_sphere){{cx, cy, cz}, e};
      break;
    default: {
      const float dx = uniform(&rng, -8, 8), dy = uniform(&rng, -8, 8);
      it->circles.a = (col_circle){{cx, cy}, e};
      it->circles.b = (col_circle){{cx + dx, cy + dy}, uniform(&rng, 0.5f, 5)};
      break;
    }
    }
  }
  return items;
}

static void print_floats(FILE *out, const char *indent, const char *name, const float *v,
                         size_t n) {
  fprintf(out, "%s%s:", indent, name);
  for (size_t i = 0; i < n; i++) fprintf(out, " %.9g", (double)v[i]);
  fprintf(out, "  (");
  for (size_t i = 0; i < n; i++) fprintf(out, "%s%a", i ? " " : "", (double)v[i]);
  fprintf(out, ")\n");
}

void kp_print_item(FILE *out, kp_family f, const kp_item *it, const char *indent) {
  const size_t d = kp_family_is_2d(f) ? 2 : 3;
  if (f == KP_BOX2 || f == KP_BOX3 || f == KP_MTD) {
    const col_aabb3 *b[2] = {&it->boxes.a, &it->boxes.b};
    for (int k = 0; k < 2; k++) {
      const float v[6] = {b[k]->min.x, b[k]->min.y, b[k]->min.z,
                          b[k]->max.x, b[k]->max.y, b[k]->max.z};
      float w[6];
      for (size_t a = 0; a < d; a++) w[a] = v[a], w[d + a] = v[3 + a];
      print_floats(out, indent, k ? "box b (min, max)" : "box a (min, max)", w, 2 * d);
    }
  } else if (f == KP_SEGBOX2 || f == KP_SEGBOX3) {
    const col_aabb3 *b = &it->segbox.box;
    const float s[6] = {it->segbox.from.x, it->segbox.from.y, it->segbox.from.z,
                        it->segbox.to.x,   it->segbox.to.y,   it->segbox.to.z};
    const float v[6] = {b->min.x, b->min.y, b->min.z, b->max.x, b->max.y, b->max.z};
    float w[6], x[6];
    for (size_t a = 0; a < d; a++)
      w[a] = s[a], w[d + a] = s[3 + a], x[a] = v[a], x[d + a] = v[3 + a];
    print_floats(out, indent, "segment (from, to)", w, 2 * d);
    print_floats(out, indent, "box (min, max)", x, 2 * d);
  } else if (f == KP_SEGSPHERE || f == KP_SEGCIRCLE) {
    const col_sphere *s = &it->segsphere.sphere;
    const float g[6] = {it->segsphere.from.x, it->segsphere.from.y, it->segsphere.from.z,
                        it->segsphere.to.x,   it->segsphere.to.y,   it->segsphere.to.z};
    const float v[4] = {s->center.x, s->center.y, s->center.z, s->radius};
    float w[6], x[4];
    for (size_t a = 0; a < d; a++) w[a] = g[a], w[d + a] = g[3 + a], x[a] = v[a];
    x[d] = s->radius;
    print_floats(out, indent, "segment (from, to)", w, 2 * d);
    print_floats(out, indent, d == 2 ? "circle (centre, radius)" : "sphere (centre, radius)", x,
                 d + 1);
  } else {
    const float a[3] = {it->circles.a.center.x, it->circles.a.center.y, it->circles.a.radius};
    const float b[3] = {it->circles.b.center.x, it->circles.b.center.y, it->circles.b.radius};
    print_floats(out, indent, "circle a (centre, radius)", a, 3);
    print_floats(out, indent, "circle b (centre, radius)", b, 3);
  }
}
