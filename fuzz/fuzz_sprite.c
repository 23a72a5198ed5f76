/* Differential fuzz target: alpha-byte sprite overlap (first-hit and counting) on every
 * supported backend against the scalar reference, and the reference against a world-space
 * brute force.
 * Input: threshold byte; base byte (both sprites near 0, near INT32_MAX, near INT32_MIN, or
 * mixed, to cross the int32 limits); per sprite: width (0..79), height (0..19), extra stride
 * (0..3), x offset (signed byte), y offset (signed byte / 8), a 32-bit fill seed and a density
 * byte; then the remaining bytes set the alpha of sprite a's pixels, then b's, one byte each. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "sprite";

typedef struct fz_sprite {
  uint32_t *raw;
  col_sprite s;
} fz_sprite;

static fz_sprite decode_sprite(fz_reader *r, int64_t base_x, int64_t base_y, uint8_t thr) {
  fz_sprite f;
  const int32_t w = fz_u8(r) % 80, h = fz_u8(r) % 20, stride = w + fz_u8(r) % 4;
  const int32_t x = (int32_t)(base_x + (int8_t)fz_u8(r));
  const int32_t y = (int32_t)(base_y + (int8_t)fz_u8(r) / 8);
  uint64_t seed = fz_u32(r);
  const uint8_t density = fz_u8(r);
  const size_t n = (size_t)stride * (size_t)h;
  f.raw = fz_alloc(n * sizeof(uint32_t)); /* exactly the pixels: ASan sees any over-read */
  const uint8_t near[4] = {0, thr, (uint8_t)(thr == 255 ? 255 : thr + 1), 255};
  for (size_t i = 0; i < n; i++) {
    const uint64_t z = splitmix64(&seed);
    const uint8_t alpha = (uint8_t)(z >> 56) < density ? near[(z >> 40) & 3] : (uint8_t)(z >> 48);
    f.raw[i] = ((uint32_t)alpha << 24) | (uint32_t)(z & 0xFFFFFFu);
  }
  f.s = (col_sprite){f.raw, w, h, stride, x, y};
  return f;
}

static void override_alphas(fz_reader *r, fz_sprite *f) {
  const size_t n = (size_t)f->s.stride * (size_t)f->s.height;
  for (size_t i = 0; i < n && r->n > 0; i++)
    f->raw[i] = (f->raw[i] & 0xFFFFFFu) | ((uint32_t)fz_u8(r) << 24);
}

static bool same(col_pixel_hit p, col_pixel_hit q) {
  return p.hit == q.hit && p.x == q.x && p.y == q.y && p.count == q.count;
}

static void print_sprite(const char *name, const col_sprite *s) {
  fprintf(stderr, "  sprite %s: %dx%d stride %d at (%d, %d); alphas by row:\n", name, s->width,
          s->height, s->stride, s->x, s->y);
  for (int32_t row = 0; row < s->height; row++) {
    fprintf(stderr, "   ");
    for (int32_t col = 0; col < s->width; col++)
      fprintf(stderr, " %02x", s->pixels[(size_t)row * (size_t)s->stride + (size_t)col] >> 24);
    fputc('\n', stderr);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const uint8_t thr = fz_u8(&r);
  const uint8_t base = fz_u8(&r) % 4;
  const int64_t far_max = (int64_t)INT32_MAX - 200, far_min = (int64_t)INT32_MIN + 200;
  const int64_t base_x = base == 1 || base == 3 ? far_max : base == 2 ? far_min : 0;
  const int64_t base_y = base == 1 ? far_max : base >= 2 ? far_min : 0;
  fz_sprite a = decode_sprite(&r, base_x, base_y, thr);
  fz_sprite b = decode_sprite(&r, base_x, base_y, thr);
  override_alphas(&r, &a);
  override_alphas(&r, &b);

  const col_pixel_hit want = fz_sprite_brute_force(&a.s, &b.s, thr);
  const col_pixel_hit want_first = {want.hit, want.x, want.y, want.hit ? 1u : 0u};
  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, COL_KERNEL_SPRITE);
  col_pixel_hit first[FZ_MAX_BACKENDS], count[FZ_MAX_BACKENDS];
  bool agree = true;
  for (size_t k = 0; k < nb; k++) {
    fz_select(names[k]);
    if (col_sprite_overlap(a.s, b.s, thr, COL_PIXEL_FIRST, &first[k]) != COL_OK ||
        col_sprite_overlap(a.s, b.s, thr, COL_PIXEL_COUNT, &count[k]) != COL_OK)
      abort();
    agree = agree && same(first[k], first[0]) && same(count[k], count[0]);
  }
  if (!agree || !same(count[0], want) || !same(first[0], want_first)) {
    if (agree) fprintf(stderr, "fuzz sprite: scalar differs from the world-space brute force\n");
    fprintf(stderr, "fuzz sprite: input: threshold %u\n", thr);
    print_sprite("a", &a.s);
    print_sprite("b", &b.s);
    fprintf(stderr, "  %-10s hit %d at (%lld, %lld) count %llu\n", "brute", want.hit,
            (long long)want.x, (long long)want.y, (unsigned long long)want.count);
    for (size_t k = 0; k < nb; k++) {
      fprintf(stderr, "  %-10s first: hit %d at (%lld, %lld) count %llu", names[k], first[k].hit,
              (long long)first[k].x, (long long)first[k].y, (unsigned long long)first[k].count);
      fprintf(stderr, "; count: hit %d at (%lld, %lld) count %llu%s\n", count[k].hit,
              (long long)count[k].x, (long long)count[k].y, (unsigned long long)count[k].count,
              same(first[k], first[0]) && same(count[k], count[0]) ? ""
                                                                   : "   <- DIFFERS from scalar");
    }
    fz_fail();
  }
  free(a.raw), free(b.raw);
  return 0;
}
