/* collide/pixels.h — Sprite overlap, 1-bit masks and pixel-stepping movement: part of the public
 * API, included by collide.h (which defines the types it uses); include collide.h, not this file.
 */
#ifndef COLLIDE_PIXELS_H
#define COLLIDE_PIXELS_H

/* ---------------------------------------------------------------------------------------- */
/* 4.3 Alpha-byte sprite overlap (the XNA 2D sprite collision seed)                          */
/* ---------------------------------------------------------------------------------------- */

/* The seed's alpha threshold: a pixel is solid when its alpha byte is > 20 (strictly). */
#define COL_ALPHA_THRESHOLD_DEFAULT 20

/* A sprite in world space: `pixels` are 32-bit words with alpha in bits 24..31 (ARGB as read
 * into a uint32_t: `pixel >> 24`), row-major, `stride` pixels between the starts of two rows;
 * (x, y) is the world position of its top-left pixel; it covers the world pixels
 * [x, x + width) x [y, y + height), computed in 64-bit so no position overflows.
 * Valid when width >= 0, height >= 0, stride >= width, the pixel count stride * height fits
 * in memory, and pixels != NULL unless width or height is 0 (an empty sprite). */
typedef struct col_sprite {
  const uint32_t *pixels;
  int32_t width, height, stride, x, y;
} col_sprite;

/* What col_sprite_overlap reports.
 * DESIGN.md declares x, y as int32_t; they are int64_t here because a world pixel of a
 * sprite placed near INT32_MAX lies beyond the int32 range. */
typedef struct col_pixel_hit {
  bool hit;       /* at least one world pixel where both alphas exceed the threshold */
  int64_t x, y;   /* the first such pixel in row-major world order (smallest y, then x); 0, 0
                     when there is none */
  uint64_t count; /* COL_PIXEL_COUNT: the number of such pixels; COL_PIXEL_FIRST: 1 if hit,
                     else 0 */
} col_pixel_hit;

typedef enum col_pixel_mode {
  COL_PIXEL_FIRST = 0, /* stop at the first colliding pixel */
  COL_PIXEL_COUNT = 1, /* visit the whole overlap and count colliding pixels */
} col_pixel_mode;

/* Per-pixel overlap of two sprites: within the intersection of their world rectangles, a
 * world pixel collides when the alpha of `a` there is > threshold and the alpha of `b` there is
 * > threshold (both strict; threshold 255 therefore never collides, threshold 0 makes every
 * pixel with a non-zero alpha solid). Sprites whose rectangles do not intersect, or that are
 * empty, give {hit = false, x = 0, y = 0, count = 0}.
 * Errors (nothing is read, `*out` is not written): COL_ERR_NULL (out, or pixels of a
 * non-empty sprite), COL_ERR_SIZE (negative width or height), COL_ERR_STRIDE (stride <
 * width), COL_ERR_OVERFLOW (stride * height * 4 bytes does not fit in size_t/ptrdiff_t),
 * COL_ERR_ARGUMENT (mode), and the backend errors. Sprites are checked in the order a, b. */
col_status col_sprite_overlap(col_sprite a, col_sprite b, uint8_t threshold, col_pixel_mode mode,
                              col_pixel_hit *out);

/* The validity check col_sprite_overlap applies to each sprite: COL_OK or the error above. */
col_status col_sprite_check(col_sprite sprite);

/* ---------------------------------------------------------------------------------------- */
/* 1-bit masks: a sprite thresholded once (DESIGN.md 4.3, last point; pygame's bitmask)      */
/* ---------------------------------------------------------------------------------------- */

/* A 1-bit mask in world space: pixel (px, py) of the mask (0 <= px < width, 0 <= py < height)
 * is solid when bit px % 64 of words[py * stride + px / 64] is set (least significant bit
 * first), and covers the world pixel (x + px, y + py).
 * Layout (made by the constructors, relied on by the kernels): each row has
 * ceil(width / 64) data words, bits past `width` are zero, and every row is framed by zero
 * guard words: words[py * stride - 1] and words[py * stride + ceil(width / 64)] are 0, with
 * stride = ceil(width / 64) + 1 (a row's trailing guard is the next row's leading one). The
 * kernels read these guards instead of testing the row ends. An empty mask (width or height
 * 0) has words == NULL. Read the fields; build masks only with col_mask_from_sprite or
 * col_mask_from_words, release them with col_mask_free. */
typedef struct col_mask {
  uint64_t *words;
  size_t stride;
  int32_t width, height, x, y;
} col_mask;

/* Thresholds a sprite once: mask bit = (alpha > threshold), the rule of col_sprite_overlap;
 * the mask takes the sprite's size and position. col_mask_overlap of two masks made with
 * threshold t gives exactly what col_sprite_overlap(a, b, t, ...) gives on the sprites.
 * Errors (*out untouched): col_sprite_check's, COL_ERR_NULL (out), COL_ERR_MEMORY. */
col_status col_mask_from_sprite(col_sprite sprite, uint8_t threshold, col_mask *out);

/* Builds a mask from raw bits: `height` rows of `words_per_row` uint64_t words, pixel px of a
 * row in bit px % 64 of word px / 64 (least significant bit first); bits past `width` are
 * ignored. Errors (*out untouched): COL_ERR_NULL (out, or bits of a non-empty mask),
 * COL_ERR_SIZE (negative width or height), COL_ERR_STRIDE (words_per_row < ceil(width / 64)),
 * COL_ERR_OVERFLOW (the mask does not fit in memory), COL_ERR_MEMORY. */
col_status col_mask_from_words(const uint64_t *bits, size_t words_per_row, int32_t width,
                               int32_t height, int32_t x, int32_t y, col_mask *out);

/* Frees the mask's words and zeroes it; NULL and zeroed masks are accepted. */
void col_mask_free(col_mask *mask);

/* Whether the world pixel (x, y) is solid in the mask: false outside it. `mask` is valid. */
bool col_mask_get(const col_mask *mask, int64_t x, int64_t y);

/* The shape check of col_mask_overlap: COL_ERR_NULL (mask, or words of a non-empty mask),
 * COL_ERR_SIZE (negative width or height), COL_ERR_STRIDE (stride != ceil(width / 64) + 1). */
col_status col_mask_check(const col_mask *mask);

/* Overlap of two masks: a world pixel collides when it is solid in both. Same result as
 * col_sprite_overlap (first pixel in row-major world order, count in COL_PIXEL_COUNT mode;
 * {false, 0, 0, 0} without a collision), for any relative position, computed 64 pixels per
 * word operation: b's row is shifted onto a's word grid, ANDed, popcounted. Runs on the active
 * backend. Errors (*out untouched): COL_ERR_NULL (out), col_mask_check's (a, then b),
 * COL_ERR_ARGUMENT (mode), and the backend errors. */
col_status col_mask_overlap(const col_mask *a, const col_mask *b, col_pixel_mode mode,
                            col_pixel_hit *out);

/* ---------------------------------------------------------------------------------------- */
/* Pixel-stepping movement with slopes (the GameMaker "collision basics" seed)               */
/* ---------------------------------------------------------------------------------------- */

/* An actor: a width x height box of pixels whose top-left is at the world pixel (x, y), with
 * a velocity in whole pixels per step (y grows downwards). */
typedef struct col_pixel_actor {
  int32_t x, y, width, height, vx, vy;
} col_pixel_actor;

/* The seed's movement of one step against a level mask (solid pixels; outside the mask is
 * free). solid(x, y) means: some solid level pixel lies inside the actor's box placed at
 * (x, y). With s = sign(v):
 * - vertical first: |vy| times: if !solid(x, y + s) then y += s, else vy = 0 and stop;
 * - then horizontal: |vx| times:
 *   - up-slope: if solid(x + s, y), take the smallest k in 1..slope_max with
 *     !solid(x + s, y - k) (all steps between are solid) and set y -= k;
 *   - down-slope (with that y): if !solid(x + s, y + j) for j = 0..k and solid(x + s,
 *     y + k + 1) for some k in 1..slope_max, set y += k (walking down a slope instead of
 *     stepping off it; a drop deeper than slope_max is a ledge, and the actor walks on);
 *   - then if !solid(x + s, y) set x += s, else vx = 0 and stop.
 * slope_max 0 is the seed's first listing (flat solids), 1 and 2 its slope listings.
 * col_pixel_move_reference is that loop with one solid() query (a scan of the box) per
 * test; col_pixel_move gives the identical final actor with word-level scans: per step it
 * finds the nearest solid rows in the columns the box moves into. An actor with an empty box
 * (width or height 0) never collides and just moves by (vx, vy).
 * Errors (*actor untouched): COL_ERR_NULL (level, actor, or level words), col_mask_check's,
 * COL_ERR_SIZE (negative width or height), COL_ERR_ARGUMENT (slope_max < 0),
 * COL_ERR_OVERFLOW (a position the move may reach, x +- |vx| or
 * y +- (|vy| + slope_max * |vx|), or the box's far edge there, falls outside int32). */
col_status col_pixel_move_reference(const col_mask *level, int32_t slope_max,
                                    col_pixel_actor *actor);
col_status col_pixel_move(const col_mask *level, int32_t slope_max, col_pixel_actor *actor);

#endif
