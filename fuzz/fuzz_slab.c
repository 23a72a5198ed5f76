/* Differential fuzz target: a segment or a moving box against N boxes (the slab test, DESIGN.md
 * 4.9) on every supported backend against the scalar reference, bit for bit (hit, t, normal,
 * index), and the reference against the single calls one box at a time (col_segment_aabb3 /
 * col_sweep_aabb3 and their 2D forms: the earliest hit, ties to the lowest index). Also the
 * result conventions: t in [0, 1] and never -0.0, a normal of one +-1 component or all +0.
 * Input: flags byte (bit 0: 3D; bit 1: the open touch rule; bit 2: a moving box instead of a
 * segment; bits 4-7: array misalignment, 0..15 floats), n byte (0..63), then the mover: from
 * and to (segment) or mover min, mover max and move (box), dims floats each, then n boxes: min
 * then max, dims coordinates each, every coordinate one byte b: b < 0x20 copies the mover's
 * first point on that axis (from, or mover min), b < 0x40 its second (to, or mover max), else
 * b is fz_float's tag (the byte re-read as one): planes through the mover's own points, where
 * a zero move component meets a plane and 0 * inf = NaN, come up at once. */
#include "fuzz_common.h"
#include "slab_exact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "slab";

/* Both dimensions' answers as one record (2D: z and normal z zero). */
typedef struct answer {
  bool hit;
  float t, normal[3];
  uint32_t index;
} answer;

static answer from3(col_aabb3_hit h) {
  return (answer){h.hit, h.t, {h.normal.x, h.normal.y, h.normal.z}, h.index};
}

static answer from2(col_aabb2_hit h) {
  return (answer){h.hit, h.t, {h.normal.x, h.normal.y, 0.0f}, h.index};
}

static bool same(answer x, answer y) {
  return x.hit == y.hit && x.index == y.index && memcmp(&x.t, &y.t, sizeof x.t) == 0 &&
         memcmp(x.normal, y.normal, sizeof x.normal) == 0;
}

/* The header's conventions for any answer. */
static bool conventional(answer a, unsigned dims, size_t n) {
  uint32_t tb;
  memcpy(&tb, &a.t, sizeof tb);
  if (!(a.t >= 0.0f && a.t <= 1.0f) || tb == 0x80000000u) return false;
  unsigned ones = 0;
  for (unsigned k = 0; k < 3; k++) {
    uint32_t b;
    memcpy(&b, &a.normal[k], sizeof b);
    if (a.normal[k] == 1.0f || a.normal[k] == -1.0f)
      ones += k < dims ? 1 : 2;
    else if (b != 0)
      return false;
  }
  if (!a.hit) return ones == 0 && tb == 0 && a.index == COL_INDEX_NONE;
  return ones <= 1 && a.index < n;
}

typedef struct call {
  unsigned dims;
  bool box, open;
  float p[3], q[3], move[3]; /* segment: from, to; box: min, max, move */
  const float *min[3], *max[3];
  size_t n;
} call;

static col_touch rule(const call *c) { return c->open ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS; }

/* The active backend's batch answer. */
static answer batch(const call *c) {
  const col_vec3 p = {c->p[0], c->p[1], c->p[2]}, q = {c->q[0], c->q[1], c->q[2]};
  const col_vec3 mv = {c->move[0], c->move[1], c->move[2]};
  col_status st;
  answer a;
  if (c->dims == 3) {
    const col_aabb3_soa s = {c->min[0], c->min[1], c->min[2], c->max[0],
                             c->max[1], c->max[2], c->n};
    col_aabb3_hit h;
    st = c->box ? col_sweep_aabb3_first((col_aabb3){p, q}, mv, &s, rule(c), &h)
                : col_segment_aabb3_first(p, q, &s, rule(c), &h);
    a = from3(h);
  } else {
    const col_aabb2_soa s = {c->min[0], c->min[1], c->max[0], c->max[1], c->n};
    const col_vec2 p2 = {p.x, p.y}, q2 = {q.x, q.y}, mv2 = {mv.x, mv.y};
    col_aabb2_hit h;
    st = c->box ? col_sweep_aabb2_first((col_aabb2){p2, q2}, mv2, &s, rule(c), &h)
                : col_segment_aabb2_first(p2, q2, &s, rule(c), &h);
    a = from2(h);
  }
  if (st != COL_OK) abort();
  return a;
}

/* Box i alone through the single call (the reference). */
static answer single(const call *c, size_t i) {
  const col_vec3 p = {c->p[0], c->p[1], c->p[2]}, q = {c->q[0], c->q[1], c->q[2]};
  const col_vec3 mv = {c->move[0], c->move[1], c->move[2]};
  if (c->dims == 3) {
    const col_aabb3 b = {{c->min[0][i], c->min[1][i], c->min[2][i]},
                         {c->max[0][i], c->max[1][i], c->max[2][i]}};
    return from3(c->box ? col_sweep_aabb3((col_aabb3){p, q}, mv, b, rule(c))
                        : col_segment_aabb3(p, q, b, rule(c)));
  }
  const col_aabb2 b = {{c->min[0][i], c->min[1][i]}, {c->max[0][i], c->max[1][i]}};
  const col_vec2 p2 = {p.x, p.y}, q2 = {q.x, q.y}, mv2 = {mv.x, mv.y};
  return from2(c->box ? col_sweep_aabb2((col_aabb2){p2, q2}, mv2, b, rule(c))
                      : col_segment_aabb2(p2, q2, b, rule(c)));
}

static void print_answer(const char *who, answer a, const char *note) {
  fprintf(stderr, "  %-10s hit %d t %a normal (%a, %a, %a) index %u%s\n", who, a.hit, (double)a.t,
          (double)a.normal[0], (double)a.normal[1], (double)a.normal[2], a.index, note);
}

static void report(const call *c, const char *what) {
  fprintf(stderr, "fuzz slab: %s; input: %uD %s, %s rule, %zu boxes\n", what, c->dims,
          c->box ? "moving box" : "segment", c->open ? "open" : "closed", c->n);
  fz_print_floats(c->box ? "mover min" : "from", c->p, c->dims);
  fz_print_floats(c->box ? "mover max" : "to", c->q, c->dims);
  if (c->box) fz_print_floats("move", c->move, c->dims);
  for (size_t i = 0; i < c->n; i++) {
    float b[6];
    for (unsigned k = 0; k < c->dims; k++) b[k] = c->min[k][i], b[c->dims + k] = c->max[k][i];
    char label[48];
    snprintf(label, sizeof label, "box %zu: min, max", i);
    fz_print_floats(label, b, 2 * c->dims);
    print_answer("single", single(c, i), "");
  }
}

/* The exact judge's cost (GMP) is kept to a few boxes an input. */
enum { JUDGED = 4 };

FZ_ORACLE static void judge(const call *c, size_t i, answer a) {
  const col_vec3 from = {c->p[0], c->p[1], c->dims == 3 ? c->p[2] : 0.0f};
  const col_vec3 to = {c->q[0], c->q[1], c->dims == 3 ? c->q[2] : 0.0f};
  /* 2D: z = 0 strictly inside the box's z extent [-1, 1], where it never decides. */
  const col_aabb3 b = {{c->min[0][i], c->min[1][i], c->dims == 3 ? c->min[2][i] : -1.0f},
                       {c->max[0][i], c->max[1][i], c->dims == 3 ? c->max[2][i] : 1.0f}};
  const slab_exact x = slab_exact_eval(from, to, b, c->open);
  const col_aabb3_hit h = {a.hit, a.t, {a.normal[0], a.normal[1], a.normal[2]}, a.index};
  const char *why;
  if (slab_within_bound(&x, h, &why)) return;
  report(c, "a single call breaks the documented error bound");
  fprintf(stderr, "fuzz slab: box %zu: %s (exact: hit %d t %.17g axis %d)\n", i, why, x.hit, x.t,
          x.axis);
  fz_fail();
}

static float coord(fz_reader *r, const call *c, unsigned axis) {
  const uint8_t b = r->n > 0 ? r->p[0] : 0;
  if (b < 0x40) {
    fz_u8(r);
    return b < 0x20 ? c->p[axis] : c->q[axis];
  }
  return fz_float(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const uint8_t flags = fz_u8(&r);
  call c = {.dims = flags & 1 ? 3u : 2u, .box = flags & 4, .open = flags & 2};
  const size_t offset = flags >> 4;
  c.n = fz_u8(&r) % 64;
  for (unsigned k = 0; k < c.dims; k++) c.p[k] = fz_float(&r);
  for (unsigned k = 0; k < c.dims; k++) c.q[k] = fz_float(&r);
  if (c.box)
    for (unsigned k = 0; k < c.dims; k++) c.move[k] = fz_float(&r);
  float *arr[6], *base[6];
  for (unsigned k = 0; k < 2 * c.dims; k++) {
    base[k] = fz_alloc((offset + c.n) * sizeof(float));
    arr[k] = base[k] + offset;
  }
  for (unsigned k = 0; k < c.dims; k++) c.min[k] = arr[k], c.max[k] = arr[c.dims + k];
  for (size_t i = 0; i < c.n; i++)
    for (unsigned k = 0; k < 2 * c.dims; k++) arr[k][i] = coord(&r, &c, k % c.dims);

  /* The definition: each box alone, strictly earlier replaces. */
  answer want = {false, 0.0f, {0.0f, 0.0f, 0.0f}, COL_INDEX_NONE};
  for (size_t i = 0; i < c.n; i++) {
    const answer a = single(&c, i);
    if (!conventional(a, c.dims, 1)) {
      report(&c, "a single call breaks the result conventions");
      print_answer("single", a, "");
      fz_fail();
    }
    if (!c.box && i < JUDGED) judge(&c, i, a);
    if (a.hit && (!want.hit || a.t < want.t)) want = a, want.index = (uint32_t)i;
  }

  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS,
                                c.dims == 3 ? COL_KERNEL_SWEEP_AABB3 : COL_KERNEL_SWEEP_AABB2);
  answer got[FZ_MAX_BACKENDS];
  bool agree = true;
  for (size_t k = 0; k < nb; k++) {
    fz_select(names[k]);
    got[k] = batch(&c);
    agree = agree && same(got[k], got[0]);
  }
  const bool defined = same(got[0], want);
  if (!agree || !defined || !conventional(got[0], c.dims, c.n)) {
    report(&c, !agree     ? "backends differ"
               : !defined ? "the scalar batch differs from the single calls"
                          : "the batch breaks the result conventions");
    print_answer("single", want, "   (the earliest single call)");
    for (size_t k = 0; k < nb; k++)
      print_answer(names[k], got[k], same(got[k], got[0]) ? "" : "   <- DIFFERS from scalar");
    fz_fail();
  }
  for (unsigned k = 0; k < 2 * c.dims; k++) free(base[k]);
  return 0;
}
