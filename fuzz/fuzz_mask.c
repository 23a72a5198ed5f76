/* Differential fuzz target: 1-bit mask overlap (first-hit and counting) on every supported
 * backend against the sprite form (col_sprite_overlap, scalar) of the same pixels and a
 * world-space brute force over the alphas; and col_mask_get on every mask built (a's and b's
 * from their sprites, b's from raw words) at each pixel, the ring just outside and far away,
 * against the sprite's alphas or the raw words' bits (check_get).
 * Input: threshold byte; base byte (both sprites near 0, INT32_MAX, INT32_MIN, or mixed);
 * per sprite: width byte (>= 0x80: one of 1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255,
 * 256; else 0..127), height byte (0..15), a 32-bit fill seed and a density byte; then b's
 * placement: per axis a mode byte and a delta byte (mode 0: the signed delta; 1: b's far edge
 * at a's near edge + delta / 32, 2: b's near edge at a's far edge + delta / 32, 3: a's near
 * edge + delta / 32: the offsets where the sprites start or stop touching); a flags byte
 * (bit 0: b's mask comes from raw words with garbage past its width); then the remaining bytes
 * set the alphas of a's pixels, then b's. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "mask";

typedef struct fz_sprite {
  uint32_t *raw;
  col_sprite s;
} fz_sprite;

static int32_t decode_width(uint8_t v) {
  static const int32_t edges[12] = {1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256};
  return v >= 0x80 ? edges[v % 12] : v;
}

static fz_sprite decode_sprite(fz_reader *r, uint8_t thr) {
  fz_sprite f;
  const int32_t w = decode_width(fz_u8(r)), h = fz_u8(r) % 16;
  uint64_t seed = fz_u32(r);
  const uint8_t density = fz_u8(r);
  const size_t n = (size_t)w * (size_t)h;
  f.raw = fz_alloc(n * sizeof(uint32_t));
  const uint8_t near[4] = {0, thr, (uint8_t)(thr == 255 ? 255 : thr + 1), 255};
  for (size_t i = 0; i < n; i++) {
    const uint64_t z = splitmix64(&seed);
    const uint8_t alpha = (uint8_t)(z >> 56) < density ? near[(z >> 40) & 3] : (uint8_t)(z >> 48);
    f.raw[i] = ((uint32_t)alpha << 24) | (uint32_t)(z & 0xFFFFFFu);
  }
  f.s = (col_sprite){f.raw, w, h, w, 0, 0};
  return f;
}

/* b's position on one axis relative to a's (a at `at` with extent `ea`, b with extent `eb`). */
static int64_t place(fz_reader *r, int64_t at, int32_t ea, int32_t eb) {
  const uint8_t mode = fz_u8(r) % 4;
  const int8_t delta = (int8_t)fz_u8(r);
  switch (mode) {
  case 0: return at + delta;
  case 1: return at - eb + delta / 32;
  case 2: return at + ea + delta / 32;
  default: return at + delta / 32;
  }
}

static void override_alphas(fz_reader *r, fz_sprite *f) {
  const size_t n = (size_t)f->s.width * (size_t)f->s.height;
  for (size_t i = 0; i < n && r->n > 0; i++)
    f->raw[i] = (f->raw[i] & 0xFFFFFFu) | ((uint32_t)fz_u8(r) << 24);
}

/* What col_mask_get must answer for one mask, by pixels.h's definitions: the source sprite's
 * alpha > threshold, or the raw words' bit px % 64 of word px / 64 of row py (bits past the
 * width ignored) when `bits` is set; false outside [x, x + w) x [y, y + h). */
typedef struct fz_source {
  const char *name;         /* which mask, for the report */
  const col_sprite *sprite; /* its geometry, and its alphas when bits == NULL */
  uint8_t thr;
  const uint64_t *bits; /* col_mask_from_words's input, or NULL */
  size_t per_row;
} fz_source;

FZ_ORACLE static bool source_solid(const fz_source *src, int64_t x, int64_t y) {
  const col_sprite *s = src->sprite;
  /* Compared against the bounds, never subtracted from x: x may be near INT64_MIN or MAX. */
  if (x < s->x || x >= (int64_t)s->x + s->width || y < s->y || y >= (int64_t)s->y + s->height)
    return false;
  const size_t px = (size_t)(x - s->x), py = (size_t)(y - s->y);
  if (src->bits != NULL) return (src->bits[py * src->per_row + px / 64] >> (px % 64)) & 1u;
  return (s->pixels[py * (size_t)s->stride + px] >> 24) > src->thr;
}

static void print_sprite(const char *name, const col_sprite *s, uint8_t thr);

/* The report of a difference, with the definition's reason. */
static void get_differs(const fz_source *src, int64_t x, int64_t y, bool want, bool got) {
  const col_sprite *s = src->sprite;
  const bool inside =
      x >= s->x && x < (int64_t)s->x + s->width && y >= s->y && y < (int64_t)s->y + s->height;
  fprintf(stderr,
          "fuzz mask: col_mask_get on %s (%dx%d at (%d, %d)) at world pixel (%lld, %lld): "
          "expected %d, got %d (",
          src->name, s->width, s->height, s->x, s->y, (long long)x, (long long)y, want, got);
  if (!inside) {
    fprintf(stderr, "outside the mask: pixels.h says false)\n");
  } else {
    const size_t px = (size_t)(x - s->x), py = (size_t)(y - s->y);
    if (src->bits != NULL)
      fprintf(stderr, "mask pixel (%zu, %zu): bit %zu of raw word 0x%016llx)\n", px, py, px % 64,
              (unsigned long long)src->bits[py * src->per_row + px / 64]);
    else
      fprintf(stderr, "mask pixel (%zu, %zu): alpha %u, threshold %u)\n", px, py,
              s->pixels[py * (size_t)s->stride + px] >> 24, src->thr);
  }
  print_sprite(src->name, s, src->thr);
  fz_fail();
}

/* Any world pixel, by the bounds-checked definition. */
FZ_ORACLE static void probe(const col_mask *m, const fz_source *src, int64_t x, int64_t y) {
  const bool want = source_solid(src, x, y), got = col_mask_get(m, x, y);
  if (want != got) get_differs(src, x, y, want, got);
}

/* The pixels x0 + dx, lo <= dx <= hi, of the world row y, which is the source's row `prow`
 * (alphas) or `brow` (raw words), or neither (outside): the definition without world-space
 * bounds, everything in locals, so that the ring's thousands of pixels stay cheap. */
FZ_ORACLE static void probe_span(const col_mask *m, const fz_source *src, int64_t x0, int64_t y,
                                 int64_t lo, int64_t hi, const uint32_t *prow,
                                 const uint64_t *brow) {
  const uint64_t w = (uint64_t)src->sprite->width;
  const uint8_t thr = src->thr;
  for (int64_t dx = lo; dx <= hi; dx++) {
    bool want = false;
    if ((uint64_t)dx < w)
      want =
          brow != NULL ? (brow[dx / 64] >> (dx % 64)) & 1u : prow != NULL && prow[dx] >> 24 > thr;
    const bool got = col_mask_get(m, x0 + dx, y);
    if (want != got) get_differs(src, x0 + dx, y, want, got);
  }
}

/* col_mask_get at every pixel of the mask and the ring just outside it when it has at most
 * 4,096 pixels (every mask this target builds: 256 x 15 at most), else on the rows and columns
 * -1, 0, 1, n - 2, n - 1 and n of each edge (with the four diagonal corners outside); then far
 * away: 2^32 off (an int32 truncation lands on column or row 0) and at INT64_MIN and INT64_MAX
 * (where a read that subtracts the mask's place first overflows). */
FZ_ORACLE static void check_get(const col_mask *m, const fz_source *src) {
  const col_sprite *s = src->sprite;
  const int64_t x0 = s->x, y0 = s->y, w = s->width, h = s->height;
  const bool all = w * h <= 4096;
  const int64_t edge[6] = {-1, 0, 1, w - 2, w - 1, w};
  for (int64_t dy = -1; dy <= h; dy++) {
    const bool in = dy >= 0 && dy < h && w > 0;
    const uint32_t *prow =
        in && src->bits == NULL ? s->pixels + (size_t)dy * (size_t)s->stride : NULL;
    const uint64_t *brow = in && src->bits != NULL ? src->bits + (size_t)dy * src->per_row : NULL;
    if (all || dy <= 1 || dy >= h - 2)
      probe_span(m, src, x0, y0 + dy, -1, w, prow, brow);
    else
      for (int k = 0; k < 6; k++) probe_span(m, src, x0, y0 + dy, edge[k], edge[k], prow, brow);
  }
  const int64_t two32 = (int64_t)1 << 32;
  const int64_t far_x[6] = {INT64_MIN,  INT64_MIN + 1, x0 - two32,
                            x0 + two32, INT64_MAX - 1, INT64_MAX};
  const int64_t far_y[6] = {INT64_MIN,  INT64_MIN + 1, y0 - two32,
                            y0 + two32, INT64_MAX - 1, INT64_MAX};
  for (int i = 0; i < 6; i++) {
    probe(m, src, far_x[i], y0), probe(m, src, far_x[i], y0 + h - 1);
    probe(m, src, x0, far_y[i]), probe(m, src, x0 + w - 1, far_y[i]);
    for (int j = 0; j < 6; j++) probe(m, src, far_x[i], far_y[j]);
  }
}

/* b's mask through col_mask_from_words: its rows copied with random bits past the width,
 * which the constructor must drop; col_mask_get checked on it against those words. */
static col_mask mask_from_raw_words(const col_mask *m, uint64_t seed, const col_sprite *b,
                                    uint8_t thr) {
  const size_t per_row = m->stride; /* one word more than the data: garbage room */
  uint64_t *bits = fz_alloc(per_row * (size_t)m->height * sizeof(uint64_t));
  for (int32_t y = 0; y < m->height; y++) {
    const size_t data = m->stride - 1;
    for (size_t k = 0; k < per_row; k++) {
      uint64_t v = k < data ? m->words[(size_t)y * m->stride + k] : 0;
      const uint64_t junk = splitmix64(&seed);
      const int64_t first_junk_bit = (int64_t)m->width - 64 * (int64_t)k;
      if (first_junk_bit <= 0)
        v = junk;
      else if (first_junk_bit < 64)
        v |= junk & (~(uint64_t)0 << first_junk_bit);
      bits[(size_t)y * per_row + k] = v;
    }
  }
  col_mask out;
  if (col_mask_from_words(bits, per_row, m->width, m->height, m->x, m->y, &out) != COL_OK) abort();
  check_get(&out, &(fz_source){"b (from raw words)", b, thr, bits, per_row});
  free(bits);
  return out;
}

static bool same(col_pixel_hit p, col_pixel_hit q) {
  return p.hit == q.hit && p.x == q.x && p.y == q.y && p.count == q.count;
}

static void print_hit(const char *label, col_pixel_hit h, const char *note) {
  fprintf(stderr, "  %-18s hit %d at (%lld, %lld) count %llu%s\n", label, h.hit, (long long)h.x,
          (long long)h.y, (unsigned long long)h.count, note);
}

static void print_sprite(const char *name, const col_sprite *s, uint8_t thr) {
  fprintf(stderr, "  sprite %s: %dx%d at (%d, %d); solid pixels (alpha > %u) by row:\n", name,
          s->width, s->height, s->x, s->y, thr);
  for (int32_t row = 0; row < s->height; row++) {
    fprintf(stderr, "    ");
    for (int32_t col = 0; col < s->width; col++)
      fputc((s->pixels[(size_t)row * (size_t)s->stride + (size_t)col] >> 24) > thr ? '#' : '.',
            stderr);
    fputc('\n', stderr);
  }
}

/* Allocation failure (one input of four, picked by a hash of the input's length, threshold and
 * flags): each constructor's allocation fails once; pixels.h promises COL_ERR_MEMORY with *out
 * untouched (an empty mask allocates nothing: COL_OK). */
static void starve_one(const char *call, col_status st, const col_mask *out,
                       const unsigned char *mark) {
  const bool failed = fz_allocation_failed();
  if (st == COL_ERR_MEMORY ? failed && memcmp(out, mark, sizeof *out) == 0
                           : st == COL_OK && !failed)
    return;
  fprintf(stderr,
          "fuzz mask: %s with its allocation failing: status %d, allocation %s, *out %s "
          "(pixels.h: COL_ERR_MEMORY with *out untouched)\n",
          call, (int)st, failed ? "failed" : "not made",
          memcmp(out, mark, sizeof *out) == 0 ? "untouched" : "changed");
  fz_fail();
}

static void starve_masks(const col_sprite *s, const col_mask *m, uint8_t thr) {
  col_mask out;
  unsigned char mark[sizeof out];
  memset(&out, 0xa5, sizeof out), memcpy(mark, &out, sizeof out);
  fz_fail_allocation(0);
  col_status st = col_mask_from_sprite(*s, thr, &out);
  starve_one("col_mask_from_sprite", st, &out, mark);
  if (st == COL_OK) col_mask_free(&out);
  memset(&out, 0xa5, sizeof out);
  fz_fail_allocation(0);
  st = col_mask_from_words(m->words, m->stride, m->width, m->height, m->x, m->y, &out);
  starve_one("col_mask_from_words", st, &out, mark);
  if (st == COL_OK) col_mask_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const uint8_t thr = fz_u8(&r);
  const uint8_t base = fz_u8(&r) % 4;
  const int64_t far_max = (int64_t)INT32_MAX - 600, far_min = (int64_t)INT32_MIN + 600;
  const int64_t ax = base == 1 || base == 3 ? far_max : base == 2 ? far_min : 0;
  const int64_t ay = base == 1 ? far_max : base >= 2 ? far_min : 0;
  fz_sprite a = decode_sprite(&r, thr), b = decode_sprite(&r, thr);
  a.s.x = (int32_t)ax, a.s.y = (int32_t)ay;
  b.s.x = (int32_t)place(&r, ax, a.s.width, b.s.width);
  b.s.y = (int32_t)place(&r, ay, a.s.height, b.s.height);
  const uint8_t flags = fz_u8(&r);
  const uint64_t junk_seed = fz_u32(&r);
  override_alphas(&r, &a);
  override_alphas(&r, &b);

  col_mask ma, mb;
  if (col_mask_from_sprite(a.s, thr, &ma) != COL_OK ||
      col_mask_from_sprite(b.s, thr, &mb) != COL_OK)
    abort();
  check_get(&ma, &(fz_source){"a (from its sprite)", &a.s, thr, NULL, 0});
  check_get(&mb, &(fz_source){"b (from its sprite)", &b.s, thr, NULL, 0});
  if (flags & 1) {
    col_mask raw = mask_from_raw_words(&mb, junk_seed, &b.s, thr);
    col_mask_free(&mb);
    mb = raw;
  }
  uint64_t pick = size ^ (uint64_t)thr << 32 ^ (uint64_t)flags << 40;
  if ((splitmix64(&pick) & 3) == 0) starve_masks(&a.s, &mb, thr);

  const col_pixel_hit want = fz_sprite_brute_force(&a.s, &b.s, thr);
  const col_pixel_hit want_first = {want.hit, want.x, want.y, want.hit ? 1u : 0u};
  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, COL_KERNEL_MASK);
  col_pixel_hit sprite_first, sprite_count, first[FZ_MAX_BACKENDS], count[FZ_MAX_BACKENDS];
  fz_select(names[0]);
  if (col_sprite_overlap(a.s, b.s, thr, COL_PIXEL_FIRST, &sprite_first) != COL_OK ||
      col_sprite_overlap(a.s, b.s, thr, COL_PIXEL_COUNT, &sprite_count) != COL_OK)
    abort();
  bool agree = same(sprite_first, want_first) && same(sprite_count, want);
  for (size_t k = 0; k < nb; k++) {
    fz_select(names[k]);
    if (col_mask_overlap(&ma, &mb, COL_PIXEL_FIRST, &first[k]) != COL_OK ||
        col_mask_overlap(&ma, &mb, COL_PIXEL_COUNT, &count[k]) != COL_OK)
      abort();
    agree = agree && same(first[k], want_first) && same(count[k], want);
  }
  if (!agree) {
    fprintf(stderr, "fuzz mask: input: threshold %u, b's mask from %s\n", thr,
            flags & 1 ? "raw words" : "its sprite");
    print_sprite("a", &a.s, thr);
    print_sprite("b", &b.s, thr);
    print_hit("brute force", want, "");
    print_hit("sprite first", sprite_first, same(sprite_first, want_first) ? "" : "   <- DIFFERS");
    print_hit("sprite count", sprite_count, same(sprite_count, want) ? "" : "   <- DIFFERS");
    for (size_t k = 0; k < nb; k++) {
      char label[64];
      snprintf(label, sizeof label, "mask %s first", names[k]);
      print_hit(label, first[k], same(first[k], want_first) ? "" : "   <- DIFFERS");
      snprintf(label, sizeof label, "mask %s count", names[k]);
      print_hit(label, count[k], same(count[k], want) ? "" : "   <- DIFFERS");
    }
    fz_fail();
  }
  col_mask_free(&ma), col_mask_free(&mb);
  free(a.raw), free(b.raw);
  return 0;
}
