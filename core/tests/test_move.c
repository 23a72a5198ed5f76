/* Pixel-stepping movement with slopes (the GameMaker seed): small levels drawn as ASCII art
 * with outcomes worked out by hand, the seed's three listings written out literally (no
 * slopes, 1-pixel slopes, 2-pixel slopes) as an independent oracle, and random levels where
 * col_pixel_move must give the reference's final actor exactly; error codes. */
#include "helpers.h"

#include <stdlib.h>

/* A level from rows of '#' (solid) and '.' (free), its top-left at world (0, 0). */
static col_mask level_of(const char *const *rows, int32_t height) {
  const int32_t width = (int32_t)strlen(rows[0]);
  const size_t per_row = ((size_t)width + 63) / 64;
  uint64_t *bits = calloc(per_row * (size_t)height + 1, sizeof(uint64_t));
  for (int32_t y = 0; y < height; y++)
    for (int32_t x = 0; x < width; x++)
      if (rows[y][x] == '#') bits[(size_t)y * per_row + (size_t)x / 64] |= (uint64_t)1 << (x % 64);
  col_mask m;
  cr_assert_eq(col_mask_from_words(bits, per_row, width, height, 0, 0, &m), COL_OK);
  free(bits);
  return m;
}

#define LEVEL(...)                                                                                 \
  level_of((const char *const[]){__VA_ARGS__},                                                     \
           (int32_t)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)))

static bool same_actor(col_pixel_actor p, col_pixel_actor q) {
  return p.x == q.x && p.y == q.y && p.width == q.width && p.height == q.height && p.vx == q.vx &&
         p.vy == q.vy;
}

/* Both implementations must end at `want`. */
static void expect_move(const col_mask *level, int32_t slope_max, col_pixel_actor start,
                        col_pixel_actor want, const char *what) {
  col_pixel_actor ref = start, fast = start;
  cr_assert_eq(col_pixel_move_reference(level, slope_max, &ref), COL_OK);
  cr_assert_eq(col_pixel_move(level, slope_max, &fast), COL_OK);
  cr_expect(same_actor(ref, want),
            "%s, slope %d: reference ends at (%d, %d) v (%d, %d), want (%d, %d) v (%d, %d)", what,
            slope_max, ref.x, ref.y, ref.vx, ref.vy, want.x, want.y, want.vx, want.vy);
  cr_expect(same_actor(fast, want),
            "%s, slope %d: fast ends at (%d, %d) v (%d, %d), want (%d, %d) v (%d, %d)", what,
            slope_max, fast.x, fast.y, fast.vx, fast.vy, want.x, want.y, want.vx, want.vy);
}

static col_pixel_actor actor(int32_t x, int32_t y, int32_t w, int32_t h, int32_t vx, int32_t vy) {
  return (col_pixel_actor){x, y, w, h, vx, vy};
}

Test(move, walls_stop_and_climbing_leaves_the_level) {
  col_mask m = LEVEL("..........#", "..........#", "###########");
  for (int32_t s = 0; s <= 1; s++)
    expect_move(&m, s, actor(2, 1, 1, 1, 20, 0), actor(9, 1, 1, 1, 0, 0), "wall of 2");
  /* Slope 2 climbs the 2-pixel wall at step 8 (to y = -1, above the level: free), then walks
   * the remaining 12 steps on nothing. */
  expect_move(&m, 2, actor(2, 1, 1, 1, 20, 0), actor(22, -1, 1, 1, 20, 0), "wall climbed");
  expect_move(&m, 0, actor(9, 1, 1, 1, -12, 0), actor(-3, 1, 1, 1, -12, 0), "walk off the left");
  col_mask_free(&m);
}

Test(move, falls_onto_floors_and_jumps_into_ceilings) {
  col_mask open = LEVEL(".....", ".....", ".....", ".....", "#####");
  expect_move(&open, 1, actor(1, 0, 2, 2, 0, 10), actor(1, 2, 2, 2, 0, 0), "lands");
  expect_move(&open, 1, actor(1, 2, 2, 2, 0, -10), actor(1, -8, 2, 2, 0, -10), "open sky");
  expect_move(&open, 1, actor(1, 2, 2, 2, 0, 1), actor(1, 2, 2, 2, 0, 0), "standing");
  col_mask roofed = LEVEL("#####", ".....", ".....", ".....", "#####");
  expect_move(&roofed, 1, actor(1, 2, 2, 2, 0, -10), actor(1, 1, 2, 2, 0, 0), "ceiling");
  /* Vertical first: the fall ends on the floor, then the walk continues there. */
  expect_move(&open, 0, actor(0, 0, 1, 1, 3, 9), actor(3, 3, 1, 1, 3, 0), "fall then walk");
  col_mask_free(&open);
  col_mask_free(&roofed);
}

Test(move, one_pixel_stairs_up) {
  col_mask m = LEVEL("........", "........", "......##", ".....###", "....####", "########");
  expect_move(&m, 1, actor(0, 4, 1, 1, 7, 0), actor(7, 1, 1, 1, 7, 0), "climbs");
  expect_move(&m, 0, actor(0, 4, 1, 1, 7, 0), actor(3, 4, 1, 1, 0, 0), "no slopes: blocked");
  col_mask_free(&m);
}

Test(move, two_pixel_stairs_up) {
  col_mask m = LEVEL("......", "......", "....##", "....##", "..####", "..####", "######");
  expect_move(&m, 1, actor(0, 5, 1, 1, 5, 0), actor(1, 5, 1, 1, 0, 0), "too steep for 1");
  expect_move(&m, 2, actor(0, 5, 1, 1, 5, 0), actor(5, 1, 1, 1, 5, 0), "climbs with 2");
  col_mask_free(&m);
}

Test(move, stairs_down_and_ledges) {
  col_mask m = LEVEL("........", "##......", "###.....", "####....", "#####...", "########");
  expect_move(&m, 1, actor(1, 0, 1, 1, 6, 0), actor(7, 4, 1, 1, 6, 0), "follows the stairs");
  expect_move(&m, 0, actor(1, 0, 1, 1, 6, 0), actor(7, 0, 1, 1, 6, 0), "walks off");
  col_mask ledge = LEVEL("......", "###...", "###...", "###...", "######");
  expect_move(&ledge, 2, actor(1, 0, 1, 1, 3, 0), actor(4, 0, 1, 1, 3, 0), "ledge of 3 > 2");
  expect_move(&ledge, 3, actor(1, 0, 1, 1, 3, 0), actor(4, 3, 1, 1, 3, 0), "ledge of 3 <= 3");
  col_mask_free(&m);
  col_mask_free(&ledge);
}

/* ---- The seed's listings, written out as printed (place_meeting over the mask) ---- */

typedef struct seed_actor {
  const col_mask *level;
  int64_t x, y, w, h, vx, vy;
} seed_actor;

static bool place_meeting(const seed_actor *a, int64_t x, int64_t y) {
  for (int64_t py = y; py < y + a->h; py++)
    for (int64_t px = x; px < x + a->w; px++)
      if (col_mask_get(a->level, px, py)) return true;
  return false;
}

static int64_t sign(int64_t v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

static void seed_vertical(seed_actor *a) {
  for (int64_t i = llabs(a->vy), s = sign(a->vy); i > 0; i--) {
    if (!place_meeting(a, a->x, a->y + s))
      a->y += s;
    else {
      a->vy = 0;
      break;
    }
  }
}

/* Listing 1 (slopes 0), 2 (slopes of 1 pixel) and 3 (slopes of 2 pixels). */
static void seed_listing(seed_actor *a, int listing) {
  seed_vertical(a);
  for (int64_t i = llabs(a->vx), s = sign(a->vx); i > 0; i--) {
    const int64_t x = a->x;
    if (listing == 2) {
      if (place_meeting(a, x + s, a->y) && !place_meeting(a, x + s, a->y - 1)) --a->y;
      if (!place_meeting(a, x + s, a->y) && !place_meeting(a, x + s, a->y + 1) &&
          place_meeting(a, x + s, a->y + 2))
        ++a->y;
    }
    if (listing == 3) {
      if (place_meeting(a, x + s, a->y) && place_meeting(a, x + s, a->y - 1) &&
          !place_meeting(a, x + s, a->y - 2))
        a->y -= 2;
      else if (place_meeting(a, x + s, a->y) && !place_meeting(a, x + s, a->y - 1))
        --a->y;
      if (!place_meeting(a, x + s, a->y) && !place_meeting(a, x + s, a->y + 1) &&
          !place_meeting(a, x + s, a->y + 2) && place_meeting(a, x + s, a->y + 3))
        a->y += 2;
      else if (!place_meeting(a, x + s, a->y) && !place_meeting(a, x + s, a->y + 1) &&
               place_meeting(a, x + s, a->y + 2))
        ++a->y;
    }
    if (!place_meeting(a, x + s, a->y))
      a->x += s;
    else {
      a->vx = 0;
      break;
    }
  }
}

/* A random level: noise of a given density over a terrain of random slopes, so that stairs of
 * every height, ledges, overhangs and single pixels all occur. */
static col_mask random_level(uint64_t *rng, int32_t w, int32_t h, int32_t x, int32_t y) {
  const size_t per_row = ((size_t)w + 63) / 64;
  uint64_t *bits = calloc(per_row * (size_t)h + 1, sizeof(uint64_t));
  const unsigned noise = rand_below(rng, 12);
  int32_t ground = h / 2 + (int32_t)rand_below(rng, (uint32_t)(h / 2));
  for (int32_t px = 0; px < w; px++) {
    ground += (int32_t)rand_below(rng, 7) - 3;
    ground = ground < 1 ? 1 : ground >= h ? h - 1 : ground;
    for (int32_t py = 0; py < h; py++)
      if (py >= ground || rand_below(rng, 100) < noise)
        bits[(size_t)py * per_row + (size_t)px / 64] |= (uint64_t)1 << (px % 64);
  }
  col_mask m;
  cr_assert_eq(col_mask_from_words(bits, per_row, w, h, x, y, &m), COL_OK);
  free(bits);
  return m;
}

static col_pixel_actor random_actor(uint64_t *rng, const col_mask *m, int32_t vmax) {
  col_pixel_actor a;
  a.width = 1 + (int32_t)rand_below(rng, 6);
  a.height = 1 + (int32_t)rand_below(rng, 6);
  a.x = m->x - 8 + (int32_t)rand_below(rng, (uint32_t)m->width + 16);
  a.y = m->y - 8 + (int32_t)rand_below(rng, (uint32_t)m->height + 16);
  a.vx = (int32_t)rand_below(rng, 2u * (uint32_t)vmax + 1) - vmax;
  a.vy = (int32_t)rand_below(rng, 2u * (uint32_t)vmax + 1) - vmax;
  return a;
}

Test(move, the_seed_listings_are_slopes_0_1_2) {
  uint64_t rng = 3;
  for (int round = 0; round < 60; round++) {
    col_mask m =
        random_level(&rng, 20 + (int32_t)rand_below(&rng, 100), 12 + (int32_t)rand_below(&rng, 20),
                     (int32_t)rand_below(&rng, 200) - 100, (int32_t)rand_below(&rng, 200) - 100);
    for (int k = 0; k < 60; k++) {
      const col_pixel_actor start = random_actor(&rng, &m, 24);
      for (int listing = 1; listing <= 3; listing++) {
        seed_actor s = {&m, start.x, start.y, start.width, start.height, start.vx, start.vy};
        seed_listing(&s, listing);
        const col_pixel_actor want = {(int32_t)s.x, (int32_t)s.y,  start.width,
                                      start.height, (int32_t)s.vx, (int32_t)s.vy};
        expect_move(&m, listing - 1, start, want, "seed listing");
      }
    }
    col_mask_free(&m);
  }
}

Test(move, fast_equals_reference_for_steeper_slopes_and_long_moves) {
  uint64_t rng = 4;
  for (int round = 0; round < 40; round++) {
    col_mask m = random_level(&rng, 60 + (int32_t)rand_below(&rng, 200),
                              20 + (int32_t)rand_below(&rng, 60), 0, -30);
    for (int k = 0; k < 80; k++) {
      col_pixel_actor start = random_actor(&rng, &m, 90);
      if (k % 8 == 0) start.width = 60 + (int32_t)rand_below(&rng, 80); /* boxes over word edges */
      if (k % 16 == 1) start.height = 0;
      const int32_t slope = (int32_t)rand_below(&rng, 9);
      col_pixel_actor ref = start, fast = start;
      cr_assert_eq(col_pixel_move_reference(&m, slope, &ref), COL_OK);
      cr_assert_eq(col_pixel_move(&m, slope, &fast), COL_OK);
      cr_assert(same_actor(ref, fast),
                "slope %d, actor %dx%d at (%d, %d) v (%d, %d): reference (%d, %d) v (%d, %d), fast "
                "(%d, %d) v (%d, %d)",
                slope, start.width, start.height, start.x, start.y, start.vx, start.vy, ref.x,
                ref.y, ref.vx, ref.vy, fast.x, fast.y, fast.vx, fast.vy);
    }
    col_mask_free(&m);
  }
}

typedef col_status (*move_fn)(const col_mask *, int32_t, col_pixel_actor *);

Test(move, errors_leave_the_actor_alone) {
  col_mask m = LEVEL("#.", ".#");
  const move_fn fns[2] = {col_pixel_move_reference, col_pixel_move};
  const struct {
    col_pixel_actor a;
    int32_t slope;
    col_status want;
  } cases[] = {
      {{0, 0, -1, 1, 1, 1}, 1, COL_ERR_SIZE},
      {{0, 0, 1, -1, 1, 1}, 1, COL_ERR_SIZE},
      {{0, 0, 1, 1, 1, 1}, -1, COL_ERR_ARGUMENT},
      {{INT32_MAX - 5, 0, 1, 1, 5, 0}, 0, COL_ERR_OVERFLOW}, /* right edge past INT32_MAX */
      {{INT32_MAX - 6, 0, 1, 1, 5, 0}, 0, COL_OK},           /* ends at INT32_MAX - 1 */
      {{INT32_MIN + 4, 0, 1, 1, -5, 0}, 0, COL_ERR_OVERFLOW},
      {{INT32_MIN + 5, 0, 1, 1, -5, 0}, 0, COL_OK},
      {{0, INT32_MIN + 20, 1, 1, 0, -21}, 0, COL_ERR_OVERFLOW},
      {{0, INT32_MIN + 20, 1, 1, 2, -10}, 5, COL_OK},           /* 10 + 5 * 2 = 20 */
      {{0, INT32_MIN + 20, 1, 1, 2, -10}, 6, COL_ERR_OVERFLOW}, /* slopes may climb 12 more */
      {{0, 0, 1, 1, INT32_MIN, 0}, 0, COL_ERR_OVERFLOW},
  };
  for (size_t f = 0; f < 2; f++) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      col_pixel_actor a = cases[i].a;
      cr_expect_eq(fns[f](&m, cases[i].slope, &a), cases[i].want, "case %zu, fn %zu", i, f);
      if (cases[i].want != COL_OK)
        cr_expect(same_actor(a, cases[i].a), "case %zu: the actor was written", i);
    }
    col_pixel_actor a = actor(0, 0, 1, 1, 1, 1);
    cr_expect_eq(fns[f](NULL, 0, &a), COL_ERR_NULL);
    cr_expect_eq(fns[f](&m, 0, NULL), COL_ERR_NULL);
    col_mask broken = m;
    broken.stride = 7;
    cr_expect_eq(fns[f](&broken, 0, &a), COL_ERR_STRIDE);
    cr_expect(same_actor(a, actor(0, 0, 1, 1, 1, 1)));
  }
  col_mask_free(&m);
}
