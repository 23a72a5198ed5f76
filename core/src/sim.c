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
 * the margin allows. This file: the shared working memory and the balls; the world step is in
 * sim_world.c. */
#include "circle_ref.h"
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

void col__sim_scratch_free(struct col__sim_scratch *s) {
  if (s == NULL) return;
  col_pairs_free(&s->pairs);
  for (int k = 0; k < 4; k++) free(s->box[k]);
  free(s->moved), free(s->wild_flag), free(s->wild), free(s->adj_start), free(s->adj);
  col__grid_free(&s->grown_grid), col__grid_free(&s->wild_grid);
  free(s->partners);
  free(s);
}

struct col__sim_scratch *col__sim_scratch_new(size_t count) {
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
    col__sim_scratch_free(s);
    return NULL;
  }
  return s;
}

bool col__sim_args_ok(col_sim_pairs pairing, col_broadphase algorithm) {
  return (pairing == COL_SIM_NAIVE || pairing == COL_SIM_BROADPHASE) &&
         (size_t)(unsigned)algorithm < col_broadphase_count();
}

/* Candidate pairs of the boxes in s->box as ascending neighbour lists: row k is
 * adj[adj_start[k] .. adj_start[k + 1]); pair (a, b) puts b in row a and, when `both`, a in
 * row b. A counting sort by row, then each short row sorted (no sort of the whole pair list:
 * that was most of a step). Uses s->wild as cursors: call before any wild_add. */
static int by_index(const void *a, const void *b) {
  const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

void col__sim_sort_row(uint32_t *v, size_t len) {
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

col_status col__sim_candidates(struct col__sim_scratch *s, size_t n, col_broadphase algorithm,
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
    col__sim_sort_row(s->adj + s->adj_start[k], s->adj_start[k + 1] - s->adj_start[k]);
  return COL_OK;
}

void col__sim_wild_reset(struct col__sim_scratch *s) {
  for (size_t w = 0; w < s->wild_count; w++) s->wild_flag[s->wild[w]] = 0;
  s->wild_count = 0;
  s->all_wild = false;
}

/* ---- Wild objects: their pairs are all tested ---- */

/* Beyond this many wild objects, every remaining pair is tested (1,024; a variable so that the
 * sim fuzzer, whose sets stay under 48 objects, can lower it and reach that mode). */
size_t col__sim_wild_max = 1024;

static void wild_add(struct col__sim_scratch *s, uint32_t k, col_sim_stats *st) {
  if (s->wild_flag[k] || s->all_wild) return;
  st->fallbacks++;
  if (s->wild_count >= col__sim_wild_max) {
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
  bool ok = (b.scratch = col__sim_scratch_new(count)) != NULL;
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
  col__sim_scratch_free(b->scratch);
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

/* Step 1: every ball moves by its velocity and bounces off the walls. */
static void balls_move(col_balls *b) {
  for (size_t i = 0; i < b->count; i++) {
    b->x[i] += b->vx[i], b->y[i] += b->vy[i];
    const float r = b->radius[i];
    if ((b->x[i] - r < 0 && b->vx[i] < 0) || (b->x[i] + r > b->width && b->vx[i] > 0))
      b->vx[i] = -b->vx[i];
    if ((b->y[i] - r < 0 && b->vy[i] < 0) || (b->y[i] + r > b->height && b->vy[i] > 0))
      b->vy[i] = -b->vy[i];
  }
}

/* The candidates are found on the positions step 1 will give (the same sums; a wall flips a
 * velocity's sign only, not its size) before anything moves, so that a failed allocation
 * leaves the balls as they were. */
static col_status balls_broadphase(col_balls *b, col_broadphase algorithm, col_sim_stats *st) {
  struct col__sim_scratch *s = b->scratch;
  const size_t n = b->count;
  float vmax = 0, cmax = 0;
  bool finite = true;
  for (size_t i = 0; i < n; i++) {
    const float x = b->x[i] + b->vx[i], y = b->y[i] + b->vy[i];
    finite = finite && isfinite(x) && isfinite(y) && isfinite(b->vx[i]) && isfinite(b->vy[i]) &&
             isfinite(b->radius[i]);
    vmax = col__maxf(vmax, col__maxf(col__absf(b->vx[i]), col__absf(b->vy[i])));
    cmax = col__maxf(cmax, col__maxf(col__absf(x), col__absf(y)) + col__absf(b->radius[i]));
  }
  /* The margin: four times the fastest speed (a bounce rarely moves a ball further), plus far
   * more than the rounding of the boxes and of the seed's box check (2^-16 of the largest
   * coordinate against their 2^-23); a ball may move half of it before it turns wild. */
  const float margin = 4.0f * vmax + cmax * 0x1p-16f + 0x1p-100f, limit = margin / 2;
  if (!finite || !isfinite(margin)) {
    st->fallbacks++;
    balls_move(b);
    balls_naive(b, st);
    return COL_OK;
  }
  for (size_t i = 0; i < n; i++) {
    const float x = b->x[i] + b->vx[i], y = b->y[i] + b->vy[i];
    const float r = col__absf(b->radius[i]) + margin;
    s->box[0][i] = x - r, s->box[1][i] = y - r;
    s->box[2][i] = x + r, s->box[3][i] = y + r;
  }
  col__sim_wild_reset(s);
  const col_status status = col__sim_candidates(s, n, algorithm, false);
  if (status != COL_OK) return status;
  balls_move(b);
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
      s->moved[a] += col__maxf(col__absf(b->vx[a]), col__absf(b->vy[a]));
      s->moved[next] += col__maxf(col__absf(b->vx[next]), col__absf(b->vy[next]));
      if (!(s->moved[a] <= limit)) wild_add(s, a, st);
      if (!(s->moved[next] <= limit)) wild_add(s, next, st);
    }
  }
  return COL_OK;
}

col_status col_balls_step(col_balls *b, col_sim_pairs pairing, col_broadphase algorithm,
                          col_sim_stats *stats) {
  if (b == NULL || (b->count > 0 && (b->x == NULL || b->scratch == NULL))) return COL_ERR_NULL;
  if (!col__sim_args_ok(pairing, algorithm)) return COL_ERR_ARGUMENT;
  if (b->count == 0) return COL_OK; /* no balls: the arrays and scratch may be NULL */
  col_sim_stats ignored = {0, 0, 0};
  col_sim_stats *st = stats != NULL ? stats : &ignored;
  if (pairing == COL_SIM_NAIVE) {
    balls_move(b);
    balls_naive(b, st);
    return COL_OK;
  }
  return balls_broadphase(b, algorithm, st);
}
