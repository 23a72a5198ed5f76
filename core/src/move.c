/* Pixel-stepping movement with slopes, after the GameMaker "collision basics" seed (Zack
 * Bell): the actor moves one pixel at a time, vertically first, then horizontally, climbing
 * up to slope_max pixels per step and following slopes down instead of stepping off them.
 * col_pixel_move_reference is the seed's loop, one box scan per place_meeting; col_pixel_move
 * reaches the identical result with word-level row scans of the level mask. All positions are
 * int64 inside; the entry check guarantees the results fit in int32. */
#include "backend.h"

#include <limits.h>

static int64_t abs64(int64_t v) { return v < 0 ? -v : v; }

static col_status move_check(const col_mask *level, int32_t slope_max, const col_pixel_actor *a) {
  if (level == NULL || a == NULL) return COL_ERR_NULL;
  const col_status st = col_mask_check(level);
  if (st != COL_OK) return st;
  if (a->width < 0 || a->height < 0) return COL_ERR_SIZE;
  if (slope_max < 0) return COL_ERR_ARGUMENT;
  const int64_t reach_x = abs64(a->vx), reach_y = abs64(a->vy) + (int64_t)slope_max * reach_x;
  if ((int64_t)a->x - reach_x < INT32_MIN || (int64_t)a->x + reach_x + a->width > INT32_MAX)
    return COL_ERR_OVERFLOW;
  if ((int64_t)a->y - reach_y < INT32_MIN || (int64_t)a->y + reach_y + a->height > INT32_MAX)
    return COL_ERR_OVERFLOW;
  return COL_OK;
}

/* ---- The reference: the seed's loop over place_meeting ---- */

/* place_meeting: any solid level pixel inside the w x h box at (x, y), pixel by pixel. */
static bool solid_ref(const col_mask *level, int64_t w, int64_t h, int64_t x, int64_t y) {
  for (int64_t py = y; py < y + h; py++)
    for (int64_t px = x; px < x + w; px++)
      if (col_mask_get(level, px, py)) return true;
  return false;
}

col_status col_pixel_move_reference(const col_mask *level, int32_t slope_max,
                                    col_pixel_actor *actor) {
  const col_status st = move_check(level, slope_max, actor);
  if (st != COL_OK) return st;
  const int64_t w = actor->width, h = actor->height, S = slope_max;
  int64_t x = actor->x, y = actor->y, vx = actor->vx, vy = actor->vy;

  const int64_t sy = vy < 0 ? -1 : 1;
  for (int64_t i = abs64(vy); i > 0; i--) {
    if (solid_ref(level, w, h, x, y + sy)) {
      vy = 0;
      break;
    }
    y += sy;
  }
  const int64_t s = vx < 0 ? -1 : 1;
  for (int64_t i = abs64(vx); i > 0; i--) {
    /* Up-slope: the first height that clears the step (all lower ones were solid). */
    if (solid_ref(level, w, h, x + s, y))
      for (int64_t k = 1; k <= S; k++)
        if (!solid_ref(level, w, h, x + s, y - k)) {
          y -= k;
          break;
        }
    /* Down-slope: free for j = 0..k and solid just below, for the k where that holds. */
    if (!solid_ref(level, w, h, x + s, y))
      for (int64_t k = 1; k <= S; k++) {
        if (solid_ref(level, w, h, x + s, y + k)) break;
        if (solid_ref(level, w, h, x + s, y + k + 1)) {
          y += k;
          break;
        }
      }
    if (solid_ref(level, w, h, x + s, y)) {
      vx = 0;
      break;
    }
    x += s;
  }
  *actor = (col_pixel_actor){(int32_t)x,    (int32_t)y,  actor->width,
                             actor->height, (int32_t)vx, (int32_t)vy};
  return COL_OK;
}

/* ---- The fast version: rows of the level as words ---- */

/* The columns [x, x + w) of the level (level coordinates), as word range and edge masks. */
typedef struct span {
  const col_mask *level;
  size_t k0, k1;
  uint64_t first, last;
  bool empty;
} span;

static span span_of(const col_mask *level, int64_t x, int64_t w) {
  span sp = {.level = level, .empty = true};
  const int64_t c0 = x > 0 ? x : 0, c1 = x + w < level->width ? x + w : level->width;
  if (c0 >= c1 || level->height == 0) return sp;
  sp.empty = false;
  sp.k0 = (size_t)(c0 / 64), sp.k1 = (size_t)((c1 - 1) / 64);
  sp.first = ~(uint64_t)0 << (c0 % 64);
  sp.last = ~(uint64_t)0 >> (63 - (c1 - 1) % 64);
  return sp;
}

/* Some solid pixel in row r (0 <= r < height) within the span. */
static bool row_solid(const span *sp, int64_t r) {
  const uint64_t *row = sp->level->words + (size_t)r * sp->level->stride;
  if (sp->k0 == sp->k1) return (row[sp->k0] & sp->first & sp->last) != 0;
  uint64_t any = (row[sp->k0] & sp->first) | (row[sp->k1] & sp->last);
  for (size_t k = sp->k0 + 1; k < sp->k1 && any == 0; k++) any = row[k];
  return any != 0;
}

/* The first row in [lo, hi] with a solid pixel in the span, else hi + 1 (outside the level
 * is free). */
static int64_t first_solid(const span *sp, int64_t lo, int64_t hi) {
  if (sp->empty) return hi + 1;
  const int64_t from = lo > 0 ? lo : 0,
                to = hi < sp->level->height - 1 ? hi : sp->level->height - 1;
  for (int64_t r = from; r <= to; r++)
    if (row_solid(sp, r)) return r;
  return hi + 1;
}

/* The last row in [lo, hi] with a solid pixel in the span, else lo - 1. */
static int64_t last_solid(const span *sp, int64_t lo, int64_t hi) {
  if (sp->empty) return lo - 1;
  const int64_t from = hi < sp->level->height - 1 ? hi : sp->level->height - 1,
                to = lo > 0 ? lo : 0;
  for (int64_t r = from; r >= to; r--)
    if (row_solid(sp, r)) return r;
  return lo - 1;
}

col_status col_pixel_move(const col_mask *level, int32_t slope_max, col_pixel_actor *actor) {
  const col_status st = move_check(level, slope_max, actor);
  if (st != COL_OK) return st;
  const int64_t w = actor->width, h = actor->height, S = slope_max;
  int64_t x = (int64_t)actor->x - level->x, y = (int64_t)actor->y - level->y;
  int64_t vx = actor->vx, vy = actor->vy;

  if (w == 0 || h == 0) {
    x += vx, y += vy; /* an empty box meets nothing */
  } else {
    /* Vertical: the box at y + k s is solid when a solid row lies in it; the nearest solid
     * row in the direction of motion decides the first blocked k (at least 1). */
    const span col = span_of(level, x, w);
    if (vy > 0) {
      const int64_t r = first_solid(&col, y + 1, y + vy + h - 1);
      if (r <= y + vy + h - 1) {
        y += (r - y - h + 1 > 1 ? r - y - h + 1 : 1) - 1;
        vy = 0;
      } else {
        y += vy;
      }
    } else if (vy < 0) {
      const int64_t r = last_solid(&col, y + vy, y + h - 2);
      if (r >= y + vy) {
        y -= (y - r > 1 ? y - r : 1) - 1;
        vy = 0;
      } else {
        y += vy;
      }
    }
    const int64_t s = vx < 0 ? -1 : 1;
    for (int64_t i = abs64(vx); i > 0; i--) {
      const span next = span_of(level, x + s, w);
      /* One scan answers both "is the box at y solid" and, when it is not, where the
       * ground below is: a first solid row at y + h + k (1 <= k <= S) is a down-slope. */
      const int64_t f = first_solid(&next, y, y + h + S);
      if (f > y + h - 1) {
        if (f > y + h && f <= y + h + S) y = f - h;
        x += s;
        continue;
      }
      /* Up-slope: the smallest k whose box [y - k, y - k + h - 1] holds no solid row. A
       * solid row L in it blocks every k up to y + h - 1 - L, so jump past those. After a
       * climb (or a failed one) the box just below is solid, so no down-slope follows. */
      int64_t k = 1;
      while (k <= S) {
        const int64_t l = last_solid(&next, y - k, y - k + h - 1);
        if (l < y - k) break;
        k = y + h - l;
      }
      if (k > S) {
        vx = 0;
        break;
      }
      y -= k;
      x += s;
    }
  }
  *actor = (col_pixel_actor){(int32_t)(x + level->x),
                             (int32_t)(y + level->y),
                             actor->width,
                             actor->height,
                             (int32_t)vx,
                             (int32_t)vy};
  return COL_OK;
}
