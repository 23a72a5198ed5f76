/* The seeds' simulations: the bouncing-balls loop (AS3 circles seed) and the platformer
 * World.Update ("playing with platforms" seed), each with the seeds' naive all-pairs loop and a
 * broadphase-backed loop that must give bit-identical results.
 * The broadphase-backed loops take candidate pairs once per step from col_broadphase_pairs on
 * boxes grown by a margin, and test only those, in the naive order. Objects move during the
 * step (balls after each collision, entities on their turn), so a pair that was apart can
 * meet: the margin covers each object's motion up to a limit, every move is added up, and an
 * object that goes past its limit becomes "wild": from then on every pair it is part of is
 * tested, as the naive loop would. Any other pair left out is provably apart whenever the
 * naive loop would test it: the grown boxes were disjoint, and neither object moved more than
 * the margin allows. */
#include "circle_ref.h"
#include "mtd_ref.h"

#include <stdlib.h>
#include <string.h>

struct col__sim_scratch {
  col_pairs pairs;
  float *box[4];      /* candidate boxes: min x, min y, max x, max y */
  float *moved;       /* per object: distance moved so far in the step */
  uint8_t *wild_flag; /* per object: went past its limit in this step */
  uint32_t *wild;     /* the wild objects, ascending */
  size_t wild_count;
  bool all_wild;       /* too many wild objects: test every remaining pair */
  uint32_t *adj_start; /* world: neighbours of k are adj[adj_start[k] .. adj_start[k + 1]) */
  uint32_t *adj;
  size_t adj_capacity;
};

static void scratch_free(struct col__sim_scratch *s) {
  if (s == NULL) return;
  col_pairs_free(&s->pairs);
  for (int k = 0; k < 4; k++) free(s->box[k]);
  free(s->moved), free(s->wild_flag), free(s->wild), free(s->adj_start), free(s->adj);
  free(s);
}

static struct col__sim_scratch *scratch_new(size_t count) {
  struct col__sim_scratch *s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  const size_t n = count ? count : 1;
  bool ok = true;
  for (int k = 0; k < 4; k++) ok = ok && (s->box[k] = malloc(n * sizeof(float))) != NULL;
  ok = ok && (s->moved = malloc(n * sizeof(float))) != NULL;
  ok = ok && (s->wild_flag = calloc(n, 1)) != NULL;
  ok = ok && (s->wild = malloc(n * sizeof(uint32_t))) != NULL;
  ok = ok && (s->adj_start = malloc((n + 1) * sizeof(uint32_t))) != NULL;
  if (!ok) {
    scratch_free(s);
    return NULL;
  }
  return s;
}

static bool sim_args_ok(col_sim_pairs pairing, col_broadphase algorithm) {
  return (pairing == COL_SIM_NAIVE || pairing == COL_SIM_BROADPHASE) &&
         (unsigned)algorithm <= (unsigned)COL_BROADPHASE_QUADTREE;
}

static float maxf(float a, float b) { return a > b ? a : b; }
static float absf(float a) { return a < 0 ? -a : a; }
static float minf(float a, float b) { return a < b ? a : b; }

/* Candidate pairs of the boxes in s->box as ascending neighbour lists: row k is
 * adj[adj_start[k] .. adj_start[k + 1]); pair (a, b) puts b in row a and, when `both`, a in
 * row b. A counting sort by row, then each short row sorted (no sort of the whole pair list:
 * that was most of a step). Uses s->wild as cursors: call before any wild_add. */
static int by_index(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

static void sort_row(uint32_t *v, size_t len) {
  if (len > 24) {
    qsort(v, len, sizeof *v, by_index);
    return;
  }
  for (size_t k = 1; k < len; k++) {
    const uint32_t x = v[k];
    size_t q = k;
    for (; q > 0 && v[q - 1] > x; q--) v[q] = v[q - 1];
    v[q] = x;
  }
}

static col_status candidates(struct col__sim_scratch *s, size_t n, col_broadphase algorithm,
                             bool both) {
  const col_boxes boxes = {2, {s->box[0], s->box[1], NULL}, {s->box[2], s->box[3], NULL}, n};
  const col_status st =
      col_broadphase_pairs(algorithm, &boxes, COL_TOUCH_OVERLAPS, &s->pairs, NULL);
  if (st != COL_OK) return st;
  const size_t m = s->pairs.count, need = (both ? 2 * m : m) + 1; /* never NULL */
  if (need > s->adj_capacity) {
    uint32_t *grown = realloc(s->adj, need * sizeof(uint32_t));
    if (grown == NULL) return COL_ERR_MEMORY;
    s->adj = grown, s->adj_capacity = need;
  }
  const col_pair *pairs = s->pairs.data;
  memset(s->adj_start, 0, (n + 1) * sizeof(uint32_t));
  for (size_t k = 0; k < m; k++) {
    s->adj_start[pairs[k].a + 1]++;
    if (both) s->adj_start[pairs[k].b + 1]++;
  }
  for (size_t k = 0; k < n; k++) s->adj_start[k + 1] += s->adj_start[k];
  uint32_t *fill = s->wild;
  memcpy(fill, s->adj_start, n * sizeof(uint32_t));
  for (size_t k = 0; k < m; k++) {
    s->adj[fill[pairs[k].a]++] = pairs[k].b;
    if (both) s->adj[fill[pairs[k].b]++] = pairs[k].a;
  }
  for (size_t k = 0; k < n; k++)
    sort_row(s->adj + s->adj_start[k], s->adj_start[k + 1] - s->adj_start[k]);
  return COL_OK;
}

/* ---- Wild objects: their pairs are all tested ---- */

enum { WILD_MAX = 1024 }; /* beyond this many, every remaining pair is tested */

static void wild_reset(struct col__sim_scratch *s) {
  for (size_t w = 0; w < s->wild_count; w++) s->wild_flag[s->wild[w]] = 0;
  s->wild_count = 0;
  s->all_wild = false;
}

static void wild_add(struct col__sim_scratch *s, uint32_t k, col_sim_stats *st) {
  if (s->wild_flag[k] || s->all_wild) return;
  st->fallbacks++;
  if (s->wild_count == WILD_MAX) {
    s->all_wild = true;
    return;
  }
  s->wild_flag[k] = 1;
  size_t p = s->wild_count++;
  for (; p > 0 && s->wild[p - 1] > k; p--) s->wild[p] = s->wild[p - 1];
  s->wild[p] = k;
}

/* The smallest wild object after `last` other than `self`, else n (binary search). */
static uint32_t wild_next(const struct col__sim_scratch *s, int64_t last, uint32_t self,
                          uint32_t n) {
  size_t lo = 0, hi = s->wild_count;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if ((int64_t)s->wild[mid] > last)
      hi = mid;
    else
      lo = mid + 1;
  }
  if (lo < s->wild_count && s->wild[lo] == self) lo++;
  return lo < s->wild_count ? s->wild[lo] : n;
}

/* ---- Bouncing balls ---- */

col_status col_balls_create(size_t count, float width, float height, col_balls *out) {
  if (out == NULL) return COL_ERR_NULL;
  if (count > UINT32_MAX || count > SIZE_MAX / (6 * sizeof(float))) return COL_ERR_OVERFLOW;
  col_balls b = {.count = count, .width = width, .height = height};
  const size_t n = count ? count : 1;
  float **arrays[5] = {&b.x, &b.y, &b.vx, &b.vy, &b.radius};
  bool ok = (b.scratch = scratch_new(count)) != NULL;
  for (int k = 0; k < 5; k++) ok = ok && (*arrays[k] = calloc(n, sizeof(float))) != NULL;
  if (!ok) {
    col_balls_destroy(&b);
    return COL_ERR_MEMORY;
  }
  *out = b;
  return COL_OK;
}

void col_balls_destroy(col_balls *b) {
  if (b == NULL) return;
  free(b->x), free(b->y), free(b->vx), free(b->vy), free(b->radius);
  scratch_free(b->scratch);
  *b = (col_balls){0};
}

static bool balls_meet(const col_balls *b, size_t i, size_t j) {
  return col__circle_seed_ref(b->x[i], b->y[i], b->radius[i], b->x[j], b->y[j], b->radius[j]);
}

/* The response: elastic (per axis, mass = radius), then both move by their new velocity. */
static void balls_bounce(col_balls *b, size_t i, size_t j) {
  col__elastic_axes_ref(&b->vx[i], &b->vy[i], b->radius[i], &b->vx[j], &b->vy[j], b->radius[j]);
  b->x[i] += b->vx[i], b->y[i] += b->vy[i];
  b->x[j] += b->vx[j], b->y[j] += b->vy[j];
}

static void balls_naive(col_balls *b, col_sim_stats *st) {
  for (size_t i = 0; i < b->count; i++)
    for (size_t j = i + 1; j < b->count; j++) {
      st->tests++;
      if (balls_meet(b, i, j)) st->contacts++, balls_bounce(b, i, j);
    }
}

static col_status balls_broadphase(col_balls *b, col_broadphase algorithm, col_sim_stats *st) {
  struct col__sim_scratch *s = b->scratch;
  const size_t n = b->count;
  float vmax = 0, cmax = 0;
  bool finite = true;
  for (size_t i = 0; i < n; i++) {
    finite = finite && isfinite(b->x[i]) && isfinite(b->y[i]) && isfinite(b->vx[i]) &&
             isfinite(b->vy[i]) && isfinite(b->radius[i]);
    vmax = maxf(vmax, maxf(absf(b->vx[i]), absf(b->vy[i])));
    cmax = maxf(cmax, maxf(absf(b->x[i]), absf(b->y[i])) + absf(b->radius[i]));
  }
  /* The margin: four times the fastest speed (a bounce rarely moves a ball further), plus far
   * more than the rounding of the boxes and of the seed's box check (2^-16 of the largest
   * coordinate against their 2^-23); a ball may move half of it before it turns wild. */
  const float margin = 4.0f * vmax + cmax * 0x1p-16f + 0x1p-100f, limit = margin / 2;
  if (!finite || !isfinite(margin)) {
    st->fallbacks++;
    balls_naive(b, st);
    return COL_OK;
  }
  for (size_t i = 0; i < n; i++) {
    const float r = absf(b->radius[i]) + margin;
    s->box[0][i] = b->x[i] - r, s->box[1][i] = b->y[i] - r;
    s->box[2][i] = b->x[i] + r, s->box[3][i] = b->y[i] + r;
  }
  wild_reset(s);
  const col_status status = candidates(s, n, algorithm, false);
  if (status != COL_OK) return status;
  for (size_t i = 0; i < n; i++) s->moved[i] = 0;
  /* Row by row as the naive loop: the next partner of a is the smallest of its next
   * candidate, the next wild ball, or any next ball when a itself is wild. */
  for (uint32_t a = 0; a < n; a++) {
    int64_t last = a;
    uint32_t q = s->adj_start[a];
    for (;;) {
      uint32_t next = (uint32_t)n;
      if (s->all_wild || s->wild_flag[a]) {
        next = (uint32_t)(last + 1);
      } else {
        while (q < s->adj_start[a + 1] && (int64_t)s->adj[q] <= last) q++;
        if (q < s->adj_start[a + 1]) next = s->adj[q];
        const uint32_t w = wild_next(s, last, a, (uint32_t)n);
        next = w < next ? w : next;
      }
      if (next >= n) break;
      last = next;
      st->tests++;
      if (!balls_meet(b, a, next)) continue;
      st->contacts++;
      balls_bounce(b, a, next);
      s->moved[a] += maxf(absf(b->vx[a]), absf(b->vy[a]));
      s->moved[next] += maxf(absf(b->vx[next]), absf(b->vy[next]));
      if (!(s->moved[a] <= limit)) wild_add(s, a, st);
      if (!(s->moved[next] <= limit)) wild_add(s, next, st);
    }
  }
  return COL_OK;
}

col_status col_balls_step(col_balls *b, col_sim_pairs pairing, col_broadphase algorithm,
                          col_sim_stats *stats) {
  if (b == NULL || (b->count > 0 && (b->x == NULL || b->scratch == NULL))) return COL_ERR_NULL;
  if (!sim_args_ok(pairing, algorithm)) return COL_ERR_ARGUMENT;
  col_sim_stats ignored = {0, 0, 0};
  col_sim_stats *st = stats != NULL ? stats : &ignored;
  for (size_t i = 0; i < b->count; i++) {
    b->x[i] += b->vx[i], b->y[i] += b->vy[i];
    const float r = b->radius[i];
    if ((b->x[i] - r < 0 && b->vx[i] < 0) || (b->x[i] + r > b->width && b->vx[i] > 0))
      b->vx[i] = -b->vx[i];
    if ((b->y[i] - r < 0 && b->vy[i] < 0) || (b->y[i] + r > b->height && b->vy[i] > 0))
      b->vy[i] = -b->vy[i];
  }
  if (pairing == COL_SIM_NAIVE) {
    balls_naive(b, st);
    return COL_OK;
  }
  return balls_broadphase(b, algorithm, st);
}

/* ---- The platformer world ---- */

col_status col_world_create(size_t count, col_vec2 gravity, col_world *out) {
  if (out == NULL) return COL_ERR_NULL;
  if (count > UINT32_MAX || count > SIZE_MAX / (6 * sizeof(float))) return COL_ERR_OVERFLOW;
  col_world w = {.count = count, .gravity = gravity};
  const size_t n = count ? count : 1;
  bool ok = (w.scratch = scratch_new(count)) != NULL;
  ok = ok && (w.box = calloc(n, sizeof *w.box)) != NULL;
  ok = ok && (w.velocity = calloc(n, sizeof *w.velocity)) != NULL;
  ok = ok && (w.weight = calloc(n, sizeof *w.weight)) != NULL;
  if (!ok) {
    col_world_destroy(&w);
    return COL_ERR_MEMORY;
  }
  *out = w;
  return COL_OK;
}

void col_world_destroy(col_world *w) {
  if (w == NULL) return;
  free(w->box), free(w->velocity), free(w->weight);
  scratch_free(w->scratch);
  *w = (col_world){0};
}

/* Entity i's gravity and move, exactly as the step does them. */
static void world_advance(col_world *w, size_t i, float dt) {
  col_vec2 *v = &w->velocity[i];
  v->x = v->x + w->gravity.x * w->weight[i];
  v->y = v->y + w->gravity.y * w->weight[i];
  const float dx = v->x * dt, dy = v->y * dt;
  col_aabb2 *b = &w->box[i];
  b->min.x += dx, b->max.x += dx, b->min.y += dy, b->max.y += dy;
}

/* Resolves entity i against j; returns how far i moved (0 when apart). */
static float world_resolve(col_world *w, size_t i, size_t j, col_sim_stats *st) {
  st->tests++;
  const col_mtd m = col__mtd_ref(w->box[i], w->box[j]);
  if (!m.hit) return 0;
  st->contacts++;
  col_aabb2 *b = &w->box[i];
  if (m.d.x != 0) {
    b->min.x += m.d.x, b->max.x += m.d.x, w->velocity[i].x = 0;
    return absf(m.d.x);
  }
  b->min.y += m.d.y, b->max.y += m.d.y, w->velocity[i].y = 0;
  return absf(m.d.y);
}

static void world_naive(col_world *w, float dt, col_sim_stats *st) {
  for (size_t i = 0; i < w->count; i++) {
    world_advance(w, i, dt);
    for (size_t j = 0; j < w->count; j++)
      if (j != i) world_resolve(w, i, j, st);
  }
}

static col_status world_broadphase(col_world *w, float dt, col_broadphase algorithm,
                                   col_sim_stats *st) {
  struct col__sim_scratch *s = w->scratch;
  const size_t n = w->count;
  /* Where each entity's move will take it (the same float operations as world_advance: its
   * velocity changes only on its own turn), its move's length (kept in s->moved), the mean
   * shorter side and the largest coordinate. */
  float extent = 0, cmax = 0;
  bool finite = isfinite(dt) && isfinite(w->gravity.x) && isfinite(w->gravity.y);
  for (size_t i = 0; i < n; i++) {
    const col_aabb2 b = w->box[i];
    const float vx = w->velocity[i].x + w->gravity.x * w->weight[i];
    const float vy = w->velocity[i].y + w->gravity.y * w->weight[i];
    const float dx = vx * dt, dy = vy * dt;
    finite = finite && isfinite(b.min.x) && isfinite(b.min.y) && isfinite(b.max.x) &&
             isfinite(b.max.y) && isfinite(dx) && isfinite(dy);
    s->box[0][i] = b.min.x + (dx < 0 ? dx : 0), s->box[2][i] = b.max.x + (dx > 0 ? dx : 0);
    s->box[1][i] = b.min.y + (dy < 0 ? dy : 0), s->box[3][i] = b.max.y + (dy > 0 ? dy : 0);
    s->moved[i] = maxf(absf(dx), absf(dy));
    extent += minf(b.max.x - b.min.x, b.max.y - b.min.y);
    cmax = maxf(cmax, maxf(maxf(absf(s->box[0][i]), absf(s->box[2][i])),
                           maxf(absf(s->box[1][i]), absf(s->box[3][i]))));
  }
  /* Entity k's margin: twice its own move (a landing pushes it back by up to its move) plus
   * a quarter of the mean shorter side (a mean, so that one long floor does not make every
   * pair a candidate), plus far more than the rounding of the grown boxes (2^-16 of the
   * largest coordinate); it may be pushed half of that before it turns wild. */
  const float base = 0.25f * (n > 0 ? extent / (float)n : 0.0f) + cmax * 0x1p-16f + 0x1p-100f;
  if (!finite || !isfinite(base)) {
    st->fallbacks++;
    world_naive(w, dt, st);
    return COL_OK;
  }
  for (size_t i = 0; i < n; i++) {
    const float margin = 2.0f * s->moved[i] + base;
    s->box[0][i] -= margin, s->box[1][i] -= margin, s->box[2][i] += margin, s->box[3][i] += margin;
    s->moved[i] = margin / 2; /* from here on: the limit */
    finite = finite && isfinite(margin);
  }
  if (!finite) {
    st->fallbacks++;
    world_naive(w, dt, st);
    return COL_OK;
  }
  wild_reset(s);
  const col_status status = candidates(s, n, algorithm, true);
  if (status != COL_OK) return status;
  for (uint32_t i = 0; i < n; i++) {
    world_advance(w, i, dt);
    float moved = 0;
    int64_t last = -1;
    uint32_t q = s->adj_start[i];
    for (;;) {
      uint32_t next = (uint32_t)n;
      if (s->all_wild || s->wild_flag[i]) {
        next = (uint32_t)(last + 1 == i ? last + 2 : last + 1);
      } else {
        while (q < s->adj_start[i + 1] && (int64_t)s->adj[q] <= last) q++;
        if (q < s->adj_start[i + 1]) next = s->adj[q];
        const uint32_t v = wild_next(s, last, i, (uint32_t)n);
        next = v < next ? v : next;
      }
      if (next >= n) break;
      last = next;
      moved += world_resolve(w, i, next, st);
      if (!(moved <= s->moved[i])) wild_add(s, i, st);
    }
  }
  return COL_OK;
}

col_status col_world_step(col_world *w, float dt, col_sim_pairs pairing, col_broadphase algorithm,
                          col_sim_stats *stats) {
  if (w == NULL || (w->count > 0 && (w->box == NULL || w->scratch == NULL))) return COL_ERR_NULL;
  if (!sim_args_ok(pairing, algorithm)) return COL_ERR_ARGUMENT;
  col_sim_stats ignored = {0, 0, 0};
  col_sim_stats *st = stats != NULL ? stats : &ignored;
  if (pairing == COL_SIM_NAIVE) {
    world_naive(w, dt, st);
    return COL_OK;
  }
  return world_broadphase(w, dt, algorithm, st);
}
