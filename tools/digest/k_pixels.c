/* The digest's pixel kernels: two sprites' overlap by alpha, masks (made from a sprite, read
 * pixel by pixel at and past every edge, and overlapped), and the pixel-stepping movement. */
#include "digest.h"

#include <stdint.h>
#include <stdlib.h>

/* A sprite of up to 96 x 40 pixels near the origin (one in 32 near INT32_MAX, where world
 * pixels pass the int32 range), stride up to 3 past the width, alphas around the threshold. */
typedef struct sprite_buf {
  col_sprite s;
  uint32_t *px;
} sprite_buf;

static sprite_buf draw_sprite(dg_ctx *c) {
  sprite_buf b;
  const int32_t w = (int32_t)dg_below(c, 97), h = (int32_t)dg_below(c, 41);
  const int32_t stride = w + (int32_t)dg_below(c, 4);
  const size_t n = (size_t)stride * (size_t)h;
  b.px = dg_alloc(n * sizeof *b.px);
  const uint32_t density = dg_below(c, 257);
  static const uint8_t alphas[6] = {0, 19, 20, 21, 255, 128};
  for (size_t i = 0; i < n; i++) {
    const uint32_t rgb = (uint32_t)dg_u64(c) & 0xffffffu;
    const uint32_t a = dg_chance(c, density) ? alphas[1 + dg_below(c, 5)] : alphas[dg_below(c, 2)];
    b.px[i] = rgb | a << 24;
  }
  const bool far = dg_chance(c, 8);
  const int32_t base = far ? INT32_MAX - 60 : 0;
  b.s = (col_sprite){b.px,
                     w,
                     h,
                     stride,
                     base - 32 + (int32_t)dg_below(c, 64),
                     (far ? INT32_MAX - 50 : -20) + (int32_t)dg_below(c, 40)};
  return b;
}

static void in_sprite(dg_ctx *c, const char *name, const col_sprite *s) {
  if (!dg_showing(c)) return;
  dg_in_int(c, name, 0);
  dg_in_int(c, "  width", s->width), dg_in_int(c, "  height", s->height);
  dg_in_int(c, "  stride", s->stride), dg_in_int(c, "  x", s->x), dg_in_int(c, "  y", s->y);
  dg_in_u32s(c, "  pixels (ARGB)", s->pixels, (size_t)s->stride * (size_t)s->height);
}

static void out_pixel_hit(dg_ctx *c, col_status s, col_pixel_hit h) {
  dg_out_status(c, "status", s);
  dg_out_bool(c, "hit", h.hit);
  dg_out_int(c, "x", h.x);
  dg_out_int(c, "y", h.y);
  dg_out_u64(c, "count", h.count);
}

static void sprite(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  sprite_buf a = draw_sprite(c), b = draw_sprite(c);
  const uint8_t thr = dg_chance(c, 192) ? COL_ALPHA_THRESHOLD_DEFAULT : (uint8_t)dg_below(c, 256);
  in_sprite(c, "a", &a.s);
  in_sprite(c, "b", &b.s);
  dg_in_int(c, "threshold", thr);
  for (int mode = 0; mode < 2; mode++) {
    col_pixel_hit h = {0};
    const col_status s = col_sprite_overlap(a.s, b.s, thr, (col_pixel_mode)mode, &h);
    out_pixel_hit(c, s, h);
  }
  free(a.px), free(b.px);
}

/* The mask of a sprite, read at every pixel of its rectangle and one pixel around it. */
static void mask_read(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  sprite_buf a = draw_sprite(c);
  const uint8_t thr = (uint8_t)(dg_chance(c, 192) ? COL_ALPHA_THRESHOLD_DEFAULT : dg_below(c, 256));
  in_sprite(c, "sprite", &a.s);
  dg_in_int(c, "threshold", thr);
  col_mask m = {0};
  const col_status s = col_mask_from_sprite(a.s, thr, &m);
  dg_out_status(c, "status", s);
  if (s == COL_OK) {
    const size_t w = (size_t)m.width + 2, h = (size_t)m.height + 2;
    uint8_t *bits = dg_alloc(w * h);
    for (size_t y = 0; y < h; y++)
      for (size_t x = 0; x < w; x++)
        bits[y * w + x] =
            col_mask_get(&m, (int64_t)m.x - 1 + (int64_t)x, (int64_t)m.y - 1 + (int64_t)y);
    dg_out_u8s(c, "col_mask_get, row by row from (x - 1, y - 1)", bits, w * h);
    free(bits);
    col_mask_free(&m);
  }
  free(a.px);
}

static void mask_overlap(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)k, (void)index;
  sprite_buf a = draw_sprite(c), b = draw_sprite(c);
  in_sprite(c, "a", &a.s);
  in_sprite(c, "b", &b.s);
  col_mask ma = {0}, mb = {0};
  col_status s = col_mask_from_sprite(a.s, COL_ALPHA_THRESHOLD_DEFAULT, &ma);
  if (s == COL_OK) s = col_mask_from_sprite(b.s, COL_ALPHA_THRESHOLD_DEFAULT, &mb);
  dg_out_status(c, "masks", s);
  for (int mode = 0; mode < 2 && s == COL_OK; mode++) {
    col_pixel_hit h = {0};
    out_pixel_hit(c, col_mask_overlap(&ma, &mb, (col_pixel_mode)mode, &h), h);
  }
  col_mask_free(&ma), col_mask_free(&mb);
  free(a.px), free(b.px);
}

/* A level of 40 x 24 tiles of 4 pixels (ground, ledges, slopes of one and two pixels a step)
 * and an actor somewhere in it with a velocity of up to 24 pixels a step. */
static void move(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  enum { TW = 40, TH = 24, T = 4, W = TW * T, H = TH * T, WORDS = (W + 63) / 64 };
  uint64_t *bits = dg_alloc(sizeof(uint64_t) * WORDS * H);
  for (size_t i = 0; i < (size_t)WORDS * H; i++) bits[i] = 0;
  for (int ty = 0; ty < TH; ty++)
    for (int tx = 0; tx < TW; tx++) {
      const uint32_t tile = ty == TH - 1 ? 1 : dg_below(c, 10); /* 0-6 empty, 7 full, 8-9 slopes */
      if (tile == 0 || (tile > 1 && tile < 7)) continue;
      for (int py = 0; py < T; py++)
        for (int px = 0; px < T; px++) {
          const int steep = tile == 9 ? 2 : 1;
          if (tile >= 8 && py * 1 < T - 1 - px * steep / 2) continue;
          const int x = tx * T + px, y = ty * T + py;
          bits[(size_t)y * WORDS + (size_t)x / 64] |= UINT64_C(1) << (x % 64);
        }
    }
  col_mask level = {0};
  col_status s = col_mask_from_words(bits, WORDS, W, H, (int32_t)dg_below(c, 9) - 4, 0, &level);
  free(bits);
  col_pixel_actor actor = {(int32_t)dg_below(c, W + 20) - 10, (int32_t)dg_below(c, H),
                           (int32_t)dg_below(c, 13),          (int32_t)dg_below(c, 17),
                           (int32_t)dg_below(c, 49) - 24,     (int32_t)dg_below(c, 49) - 24};
  const int32_t slope = (int32_t)dg_below(c, 4);
  if (dg_showing(c)) {
    dg_in_int(c, "actor x", actor.x), dg_in_int(c, "actor y", actor.y);
    dg_in_int(c, "width", actor.width), dg_in_int(c, "height", actor.height);
    dg_in_int(c, "vx", actor.vx), dg_in_int(c, "vy", actor.vy), dg_in_int(c, "slope_max", slope);
    dg_in_int(c, "level x", level.x);
  }
  dg_out_status(c, "level", s);
  if (s == COL_OK) {
    s = k->arg ? col_pixel_move(&level, slope, &actor)
               : col_pixel_move_reference(&level, slope, &actor);
    dg_out_status(c, "status", s);
    const int32_t a[4] = {actor.x, actor.y, actor.vx, actor.vy};
    for (int i = 0; i < 4; i++) dg_out_int(c, i < 2 ? "position" : "velocity", a[i]);
  }
  col_mask_free(&level);
}

size_t dg_pixels_kernels(dg_kernel *out) {
  const dg_kernel k[] = {
      {"sprite_overlap", 256, COL_KERNEL_SPRITE, 0, sprite, NULL},
      {"mask_from_sprite", 256, 0, 0, mask_read, NULL},
      {"mask_overlap", 256, COL_KERNEL_MASK, 0, mask_overlap, NULL},
      {"pixel_move_reference", 512, 0, 0, move, "pixel_move"},
      {"pixel_move", 512, 0, 1, move, "pixel_move"},
  };
  return dg_copy_kernels(out, k, sizeof k / sizeof k[0]);
}
