/* Differential fuzz target: pixel-stepping movement with slopes. col_pixel_move (word-level
 * scans) must leave every actor exactly where col_pixel_move_reference (the seed's loop, one
 * box scan per test) does: same x, y, vx, vy.
 * Input: level width byte (>= 0x80: one of 1, 63, 64, 65, 127, 128, 129, 200; else 1..128),
 * height byte (1..64), level x and y (signed bytes), a 32-bit terrain seed, a roughness byte
 * (slopes of up to roughness % 9 pixels per column) and a noise byte (percent of free pixels
 * made solid, % 16); an actor count byte (1..8) and per actor: width byte (like the level's,
 * at most 70), height byte (1..24), x and y bytes (signed, relative to the level), vx and vy
 * (16-bit little-endian, -300..300; halved until the reference's work fits MOVE_BUDGET) and
 * slope_max byte (0..8); then the remaining bytes toggle
 * level pixels, two bytes (x, y) each. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "move";

enum { MOVE_BUDGET = 8192 }; /* pixel tests of the reference per actor, about */

static int32_t decode_width(uint8_t v, int32_t max) {
  static const int32_t edges[8] = {1, 63, 64, 65, 127, 128, 129, 200};
  const int32_t w = v >= 0x80 ? edges[v % 8] : 1 + v;
  return w > max ? max : w;
}

static int32_t decode_speed(fz_reader *r) {
  const uint16_t v = (uint16_t)(fz_u8(r) | (fz_u8(r) << 8));
  return (int32_t)(v % 601) - 300;
}

typedef struct fz_actor {
  col_pixel_actor a;
  int32_t slope;
} fz_actor;

static void print_level(const col_mask *m) {
  fprintf(stderr, "  level %dx%d at (%d, %d):\n", m->width, m->height, m->x, m->y);
  for (int32_t y = 0; y < m->height; y++) {
    fprintf(stderr, "    ");
    for (int32_t x = 0; x < m->width; x++)
      fputc(col_mask_get(m, (int64_t)m->x + x, (int64_t)m->y + y) ? '#' : '.', stderr);
    fputc('\n', stderr);
  }
}

static void print_actor(const char *label, col_pixel_actor a) {
  fprintf(stderr, "  %-10s %dx%d at (%d, %d) v (%d, %d)\n", label, a.width, a.height, a.x, a.y,
          a.vx, a.vy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const int32_t w = decode_width(fz_u8(&r), 200), h = 1 + fz_u8(&r) % 64;
  const int32_t lx = (int8_t)fz_u8(&r), ly = (int8_t)fz_u8(&r);
  uint64_t seed = fz_u32(&r);
  const uint8_t roughness = fz_u8(&r) % 9, noise = fz_u8(&r) % 16;
  fz_actor actors[8];
  const size_t n = 1 + fz_u8(&r) % 8;
  for (size_t i = 0; i < n; i++) {
    col_pixel_actor *a = &actors[i].a;
    a->width = decode_width(fz_u8(&r), 70);
    a->height = 1 + fz_u8(&r) % 24;
    a->x = lx + (int8_t)fz_u8(&r);
    a->y = ly + (int8_t)fz_u8(&r);
    a->vx = decode_speed(&r);
    a->vy = decode_speed(&r);
    actors[i].slope = fz_u8(&r) % 9;
    /* The reference scans the actor's box once per test: about (|vy| + |vx| (2 slope + 1)) w h
     * pixels. Speeds are halved until that stays within a budget, so that every input is
     * cheap (small actors keep their full speed; edges and slopes are what find bugs). */
    for (;;) {
      const int64_t steps = (int64_t)abs(a->vy) + (int64_t)abs(a->vx) * (2 * actors[i].slope + 1);
      if ((steps + 1) * a->width * a->height <= MOVE_BUDGET) break;
      a->vx /= 2, a->vy /= 2;
    }
  }

  /* Terrain: a ground line that moves by up to `roughness` pixels per column, plus noise. */
  const size_t per_row = ((size_t)w + 63) / 64;
  uint64_t *bits = calloc(per_row * (size_t)h, sizeof(uint64_t));
  int32_t ground = h / 2;
  for (int32_t x = 0; x < w; x++) {
    ground += (int32_t)(splitmix64(&seed) % (2u * roughness + 1)) - roughness;
    ground = ground < 0 ? 0 : ground > h ? h : ground;
    for (int32_t y = 0; y < h; y++)
      if (y >= ground || splitmix64(&seed) % 100 < noise)
        bits[(size_t)y * per_row + (size_t)x / 64] |= (uint64_t)1 << (x % 64);
  }
  while (r.n >= 2) {
    const int32_t x = fz_u8(&r) % w, y = fz_u8(&r) % h;
    bits[(size_t)y * per_row + (size_t)x / 64] ^= (uint64_t)1 << (x % 64);
  }
  col_mask level;
  if (col_mask_from_words(bits, per_row, w, h, lx, ly, &level) != COL_OK) abort();
  free(bits);

  for (size_t i = 0; i < n; i++) {
    col_pixel_actor ref = actors[i].a, fast = actors[i].a;
    if (col_pixel_move_reference(&level, actors[i].slope, &ref) != COL_OK ||
        col_pixel_move(&level, actors[i].slope, &fast) != COL_OK)
      abort();
    if (memcmp(&ref, &fast, sizeof ref) != 0) {
      fprintf(stderr, "fuzz move: input: slope_max %d\n", actors[i].slope);
      print_level(&level);
      print_actor("start", actors[i].a);
      print_actor("reference", ref);
      print_actor("fast", fast);
      fprintf(stderr, "  fast differs from the reference\n");
      fz_fail();
    }
  }
  col_mask_free(&level);
  return 0;
}
