/* Argument fuzzing of the masks' constructors (see fuzz_args.c): col_mask_from_sprite and
 * col_mask_from_words with every documented error, allocations failing, and the masks they
 * make read back pixel by pixel against the sprite's alphas or the words' bits; col_mask_free
 * of NULL and twice. The mask and move targets fuzz the overlap and the movement on valid
 * masks; the args target's mask operation their shape checks. */
#include "args.h"

#include <stdlib.h>
#include <string.h>

/* Every pixel of the mask against what it was made from (solid(px, py)), and nothing outside
 * it; then the shape check, and the mask freed twice (the second time zeroed: nothing). */
static void read_back(const char *op, col_mask *m, int32_t width, int32_t height, int32_t x,
                      int32_t y, bool (*solid)(const void *from, int32_t px, int32_t py),
                      const void *from) {
  bool ok = m->width == width && m->height == height && m->x == x && m->y == y &&
            col_mask_check(m) == COL_OK;
  /* Every pixel and the frame around it; a mask too large to walk (an empty one of width
   * INT32_MAX, say): its corners. */
  const bool walk = width <= 512 && height <= 512;
  const int32_t xs[4] = {-1, 0, width - 1, width}, ys[4] = {-1, 0, height - 1, height};
  for (int32_t i = -1; ok && i <= (walk ? height : 2); i++)
    for (int32_t j = -1; ok && j <= (walk ? width : 2); j++) {
      const int32_t py = walk ? i : ys[i + 1], px = walk ? j : xs[j + 1];
      const bool inside = px >= 0 && py >= 0 && px < width && py < height;
      ok = col_mask_get(m, (int64_t)x + px, (int64_t)y + py) == (inside && solid(from, px, py));
    }
  if (!ok) {
    fprintf(stderr, "fuzz args: the mask %s made (%d x %d at %d, %d) does not read back\n", op,
            width, height, x, y);
    fz_fail();
  }
  col_mask_free(m);
  col_mask_free(m);
  if (m->words != NULL || m->width != 0 || m->height != 0) fz_fail();
}

typedef struct thresholded {
  col_sprite s;
  uint8_t threshold;
} thresholded;
static bool alpha_above(const void *from, int32_t px, int32_t py) {
  const thresholded *t = from;
  return (t->s.pixels[(size_t)py * (size_t)t->s.stride + (size_t)px] >> 24) > t->threshold;
}

typedef struct raw_bits {
  const uint64_t *bits;
  size_t per_row;
} raw_bits;
static bool bit_set(const void *from, int32_t px, int32_t py) {
  const raw_bits *b = from;
  return b->bits[(size_t)py * b->per_row + (size_t)px / 64u] >> (px % 64) & 1u;
}

/* col_mask_from_sprite: a sprite as the sprite operation decodes it, a threshold, a NULL out
 * (flags bit 0). pixels.h: col_sprite_check's errors, COL_ERR_NULL (out), COL_ERR_MEMORY;
 * *out untouched on error; the mask bit is alpha > threshold. */
static void from_sprite(fz_reader *r, uint8_t flags, uint8_t starve) {
  unsigned applies = 0;
  bool small;
  const col_sprite s = fa_decode_sprite(r, &applies, &small);
  const uint8_t threshold = fz_u8(r);
  if (flags & 1) applies |= ERR(COL_ERR_NULL);
  col_mask m;
  memset(&m, CANARY, sizeof m);
  fa_arm(starve);
  const col_status st = col_mask_from_sprite(s, threshold, flags & 1 ? NULL : &m);
  const bool kept = fa_untouched(&m, sizeof m);
  fa_judge_starved("col_mask_from_sprite", st, applies, kept, kept);
  if (st == COL_OK) {
    const thresholded t = {s, threshold};
    read_back("col_mask_from_sprite", &m, s.width, s.height, s.x, s.y, alpha_above, &t);
  }
  free((void *)s.pixels);
}

/* col_mask_from_words: width from edge values (0, 1, 3, 64, 65, 130, -1, -2), height from the
 * same mod 8 (-2..3),
 * words per row around ceil(width / 64), NULL bits (flags bit 1), a NULL out (bit 0), the
 * words from the input. pixels.h: COL_ERR_NULL (out, or bits of a non-empty mask),
 * COL_ERR_SIZE (negative sizes), COL_ERR_STRIDE (words per row < ceil(width / 64)),
 * COL_ERR_MEMORY; *out untouched on error; bits past the width ignored. */
static void from_words(fz_reader *r, uint8_t flags, uint8_t starve) {
  static const int32_t sizes[8] = {0, 1, 3, 64, 65, 130, -1, -2};
  const int32_t width = sizes[fz_u8(r) & 7], height = sizes[fz_u8(r) & 7] % 8;
  const size_t need = width > 0 ? ((size_t)width + 63u) / 64u : 0;
  const int delta = (int)(fz_u8(r) % 4) - 1; /* -1, 0, 1, 2 */
  const size_t per_row = delta < 0 && need == 0 ? 0 : need + (size_t)delta;
  const int32_t x = (int32_t)(int8_t)fz_u8(r), y = (int32_t)(int8_t)fz_u8(r);
  unsigned applies = 0;
  if (flags & 1) applies |= ERR(COL_ERR_NULL);
  if (width < 0 || height < 0) applies |= ERR(COL_ERR_SIZE);
  if (width >= 0 && per_row < need) applies |= ERR(COL_ERR_STRIDE);
  const bool bits_null = flags & 2;
  if (bits_null && width > 0 && height > 0) applies |= ERR(COL_ERR_NULL);
  const size_t words = height > 0 ? per_row * (size_t)height : 0;
  uint64_t *bits = bits_null ? NULL : fz_alloc(words * sizeof(uint64_t));
  for (size_t i = 0; bits && i < words; i++) bits[i] = (uint64_t)fz_u32(r) << 32 | fz_u32(r);
  col_mask m;
  memset(&m, CANARY, sizeof m);
  fa_arm(starve);
  const col_status st =
      col_mask_from_words(bits, per_row, width, height, x, y, flags & 1 ? NULL : &m);
  const bool kept = fa_untouched(&m, sizeof m);
  fa_judge_starved("col_mask_from_words", st, applies, kept, kept);
  if (st == COL_OK) {
    const raw_bits b = {bits, per_row};
    read_back("col_mask_from_words", &m, width, height, x, y, bit_set, &b);
  }
  free(bits);
}

/* The masks' constructors (operation byte 0xEE): a choice byte (bit 7: from words, else from
 * a sprite; bits 0-1: the flags above), the starve byte, then the constructor's arguments. */
void fa_masks(fz_reader *r) {
  const uint8_t choice = fz_u8(r), starve = fa_starve(r);
  if (choice & 0x80)
    from_words(r, choice, starve);
  else
    from_sprite(r, choice, starve);
  col_mask_free(NULL);
}
