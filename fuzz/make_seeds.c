/* Writes the hand-made seed inputs of fuzz/corpus/<target>/: the seeds' worked examples and
 * every edge the fuzz targets are meant to reach, encoded in the targets' input format with
 * the encoder below, which checks each float by decoding it again with fz_float.
 * Run by `make seeds`; the output is committed. Usage: make_seeds OUTPUT_DIR */
#include "fuzz_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct enc {
  uint8_t buf[1 << 16];
  size_t n;
} enc;

const char fz_target[] = "make_seeds";

static const char *out_dir;
static size_t files_written;

static void put8(enc *e, uint8_t v) {
  if (e->n == sizeof e->buf) abort();
  e->buf[e->n++] = v;
}

static void put32(enc *e, uint32_t v) {
  for (int k = 0; k < 4; k++) put8(e, (uint8_t)(v >> (8 * k)));
}

static uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* The shortest encoding of f: a grid byte, a special tag, or the raw bits. */
static void putf(enc *e, float f) {
  const size_t at = e->n;
  const uint32_t u = bits_of(f);
  int done = 0;
  for (int g = 0; g < 128 && !done; g++)
    if (bits_of(fz_grid((uint8_t)g)) == u) put8(e, (uint8_t)g), done = 1;
  for (int k = 0; k < 16 && !done; k++)
    if (fz_special_bits[k] == u) put8(e, (uint8_t)(0x90 | k)), done = 1;
  if (!done) put8(e, 0xa0), put32(e, u);
  fz_reader r = {e->buf + at, e->n - at};
  if (bits_of(fz_float(&r)) != u) {
    fprintf(stderr, "make_seeds: %a does not round-trip\n", (double)f);
    exit(1);
  }
}

static void save(const enc *e, const char *target, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/seed-%s", out_dir, target, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL || fwrite(e->buf, 1, e->n, f) != e->n || fclose(f) != 0) {
    fprintf(stderr, "make_seeds: cannot write %s\n", path);
    exit(1);
  }
  files_written++;
}

#define UP(x)   nextafterf((x), INFINITY)
#define DOWN(x) nextafterf((x), -INFINITY)

static const size_t lengths[] = {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 50, 127};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])

/* ---- aabb: boxes around the query (0,0,0)-(1,1,1), as min x y, max x y, min z max z ---- */
static const float edge_boxes[][6] = {
    {1, 0, 2, 1, 0, 1},                   /* touching right */
    {-1, 0, 0, 1, 0, 1},                  /* touching left */
    {0, 1, 1, 2, 0, 1},                   /* touching top */
    {1, 1, 2, 2, 1, 2},                   /* touching corner, and on z */
    {0, 0, 1, 1, 1, 2},                   /* touching on z only */
    {0x1.000002p0f, 0, 2, 1, 0, 1},       /* one ulp apart */
    {0x1.fffffep-1f, 0, 2, 1, 0, 1},      /* one ulp overlap */
    {-0.0f, 0, 1, 1, 0, 1},               /* -0.0 edge */
    {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f}, /* point inside */
    {1, 0.5f, 1, 0.5f, 0.5f, 0.5f},       /* point on an edge */
    {1, 1, 0, 0, 0, 1},                   /* inverted */
    {-INFINITY, -INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY},
    {INFINITY, 0, INFINITY, 1, 0, 1},
    {2, 2, 3, 3, 0, 1},         /* apart */
    {0x1p-149f, 0, 1, 1, 0, 1}, /* denormal */
};
#define NEDGE (sizeof edge_boxes / sizeof edge_boxes[0])

static void aabb_file(const char *name, size_t offset, const float q[6], size_t n,
                      const float (*boxes)[6], size_t nboxes, int nan_every) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)offset);
  for (int k = 0; k < 6; k++) putf(&e, q[k]);
  put8(&e, (uint8_t)n);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 6; k++) {
      const bool poison =
          nan_every && i % (size_t)nan_every == (size_t)nan_every - 1 && k == (int)(i % 6);
      putf(&e, poison ? NAN : boxes[i % nboxes][k]);
    }
  save(&e, "aabb", name);
}

static void aabb_seeds(void) {
  const float unit[6] = {0, 0, 1, 1, 0, 1};
  const float seed_q[6] = {0, 0, 64, 64, 0, 1};
  const float seed_box[1][6] = {{32, 32, 96, 96, 0, 1}};
  aabb_file("example-playing-with-platforms", 0, seed_q, 1, seed_box, 1, 0);
  aabb_file("empty", 3, unit, 0, edge_boxes, NEDGE, 0);
  const float nan_q[6] = {0, NAN, 1, 1, 0, 1};
  aabb_file("nan-query", 1, nan_q, 9, edge_boxes, NEDGE, 0);
  for (size_t l = 0; l < NLENGTHS; l++) {
    char name[64];
    snprintf(name, sizeof name, "edges-n%zu", lengths[l]);
    aabb_file(name, lengths[l] % 16, unit, lengths[l], edge_boxes, NEDGE, 0);
    snprintf(name, sizeof name, "edges-nan-n%zu", lengths[l]);
    aabb_file(name, (lengths[l] + 5) % 16, unit, lengths[l], edge_boxes, NEDGE, 4);
  }
}

/* ---- mtd: pairs a, b as a min x y, max x y, b min x y, max x y ---- */
static const float edge_pairs[][8] = {
    {0, 0, 64, 64, 32, 32, 96, 96},      /* the seed: (-32, 0) */
    {32, 32, 96, 96, 0, 0, 64, 64},      /* swapped: (32, 0) */
    {0, 0, 10, 10, 0, -20, 10, 30},      /* tie left/right */
    {0, 0, 10, 10, -20, 0, 30, 10},      /* tie down/up */
    {0, 0, 10, 10, -20, 6, 4, 30},       /* tie right/down */
    {0, 0, 1, 1, 1, -5, 9, 5},           /* touching */
    {-1, -1, -0.0f, 1, 0, -5, 9, 5},     /* touching through -0.0 */
    {-1, -1, 0x1p-149f, 1, 0, -5, 9, 5}, /* denormal penetration */
    {NAN, 0, 10, 10, 1, 1, 2, 2},
    {0, 0, 10, 10, 1, 1, 2, NAN},
    {-INFINITY, -INFINITY, INFINITY, INFINITY, 0, 0, 1, 1},
    {0, 0, INFINITY, 1, INFINITY, 0, INFINITY, 1}, /* inf - inf */
    {5, 5, 4, 4, 0, 0, 10, 10},                    /* inverted inside */
    {0, 0, 1, 1, 2, 0, 3, 1},                      /* apart */
    {0.5f, 0.25f, 2.5f, 1.75f, 2.25f, -1, 4, 4},
};
#define NPAIRS (sizeof edge_pairs / sizeof edge_pairs[0])

static void mtd_seeds(void) {
  enc e = {.n = 0};
  put8(&e, 0), put8(&e, 1);
  for (int k = 0; k < 8; k++) putf(&e, edge_pairs[0][k]);
  save(&e, "mtd", "example-playing-with-platforms");
  for (size_t l = 0; l < NLENGTHS; l++) {
    e.n = 0;
    put8(&e, (uint8_t)(lengths[l] % 16)), put8(&e, (uint8_t)lengths[l]);
    for (size_t i = 0; i < lengths[l]; i++)
      for (int k = 0; k < 8; k++) putf(&e, edge_pairs[(i * 7 + l) % NPAIRS][k]);
    char name[64];
    snprintf(name, sizeof name, "edges-n%zu", lengths[l]);
    save(&e, "mtd", name);
  }
}

/* ---- sprite ---- */
typedef struct sprite_spec {
  uint8_t w, h, extra;
  int8_t x, y8; /* y offset is this byte / 8 in the decoder */
  uint8_t density;
} sprite_spec;

static void sprite_head(enc *e, const sprite_spec *s) {
  put8(e, s->w), put8(e, s->h), put8(e, s->extra);
  put8(e, (uint8_t)s->x), put8(e, (uint8_t)s->y8);
  put32(e, 0x12345678u + s->w), put8(e, s->density);
}

/* Alphas for every pixel of a then b (stride included), from a pattern function. */
static void sprite_file(const char *name, uint8_t thr, uint8_t base, sprite_spec a, sprite_spec b,
                        uint8_t (*alpha)(size_t sprite, size_t i)) {
  enc e = {.n = 0};
  put8(&e, thr), put8(&e, base);
  sprite_head(&e, &a), sprite_head(&e, &b);
  if (alpha != NULL) {
    const size_t na = (size_t)(a.w + a.extra) * a.h, nb = (size_t)(b.w + b.extra) * b.h;
    for (size_t i = 0; i < na; i++) put8(&e, alpha(0, i));
    for (size_t i = 0; i < nb; i++) put8(&e, alpha(1, i));
  }
  save(&e, "sprite", name);
}

static uint8_t alpha_20_21(size_t sprite, size_t i) { return (uint8_t)(sprite ? 20 + i % 2 : 21); }
static uint8_t alpha_21(size_t sprite, size_t i) { return (void)sprite, (void)i, 21; }
static uint8_t alpha_sparse(size_t sprite, size_t i) {
  return (uint8_t)((i * 37 + sprite * 11) % 23 == 0 ? 255 : 20);
}
static uint8_t alpha_opaque(size_t sprite, size_t i) { return (void)sprite, (void)i, 255; }
static uint8_t alpha_one(size_t sprite, size_t i) { return (void)sprite, (uint8_t)(i % 3 == 0); }

static void sprite_seeds(void) {
  const sprite_spec px = {1, 1, 0, 0, 0, 0};
  sprite_file("threshold-20-vs-alpha-20", 20, 0, px, px, alpha_20_21);
  sprite_file("threshold-20-vs-alpha-21", 20, 0, px, px, alpha_21);
  const sprite_spec row = {8, 2, 1, 0, 0, 0}, row_b = {8, 2, 0, 3, 8, 0};
  sprite_file("threshold-0", 0, 0, row, row_b, alpha_one);
  sprite_file("threshold-255", 255, 0, row, row_b, alpha_opaque);
  const uint8_t widths[] = {3, 4, 5, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79};
  for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
    char name[64];
    const sprite_spec a = {widths[k], 3, (uint8_t)(k % 4), 0, 0, 0};
    const sprite_spec b = {widths[k], 3, 0, (int8_t)(k % 5) - 2, 8, 0};
    snprintf(name, sizeof name, "width-%u-sparse", widths[k]);
    sprite_file(name, 20, 0, a, b, alpha_sparse);
    const sprite_spec c = {widths[k], 2, 1, -(int8_t)(widths[k] / 2), -8, 255};
    snprintf(name, sizeof name, "width-%u-dense", widths[k]);
    sprite_file(name, 20, 0, c, b, NULL);
  }
  const sprite_spec big = {40, 6, 2, 100, 0, 200}, big_b = {30, 6, 0, 120, 16, 200};
  sprite_file("near-int32-max", 20, 1, big, big_b, NULL);
  sprite_file("near-int32-min", 20, 2, big, big_b, NULL);
  sprite_file("near-max-x-min-y", 20, 3, big, big_b, NULL);
  const sprite_spec empty = {0, 5, 0, 0, 0, 0};
  sprite_file("empty", 20, 0, empty, row, NULL);
  const sprite_spec apart = {8, 2, 0, 100, 0, 255};
  sprite_file("apart", 20, 0, row, apart, alpha_opaque);
}

/* ---- sweep ---- */
static void sweep_file(const char *name, size_t offset, const float from[3], const float to[3],
                       size_t n, const float (*spheres)[4], size_t nspheres) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)offset);
  for (int k = 0; k < 3; k++) putf(&e, from[k]);
  for (int k = 0; k < 3; k++) putf(&e, to[k]);
  put8(&e, (uint8_t)n);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) putf(&e, spheres[i % nspheres][k]);
  save(&e, "sweep", name);
}

static const float edge_spheres[][4] = {
    {0, 0, 5, 1},                                         /* head-on: t = 4 */
    {0, 0, -5, 1},                                        /* behind */
    {0, 0, 11, 1},                                        /* contact exactly at the end */
    {1, 0, 5, 1},                                         /* tangent */
    {5, 0, 5, 1},                                         /* beside */
    {0, 0, 0.5f, 1},                                      /* contains the start */
    {0, 0, 0, 0},                                         /* zero radius on the line */
    {0, 0, 3, -0.0f},                                     /* -0.0 radius */
    {0, 0, 3, -2},                                        /* negative radius */
    {NAN, 0, 5, 1},   {0, 0, 5, INFINITY}, {0, 0, 29, 1}, /* equal t with the next */
    {0, 0, 29, 1},    {0, 0, 10, 0.125f},
};
#define NSPHERES (sizeof edge_spheres / sizeof edge_spheres[0])

static void sweep_seeds(void) {
  const float from[3] = {2, 1.5f, 0}, to[3] = {2, 1.5f, 5000.0f / 3.6f / 60.0f};
  const float bottle[1][4] = {{2, 1.5f, 10, 0.075f}};
  sweep_file("example-bullet-and-bottle", 0, from, to, 1, bottle, 1);
  const float o[3] = {0, 0, 0}, z10[3] = {0, 0, 10};
  sweep_file("zero-length", 1, o, o, 3, edge_spheres + 4, 3);
  const float nan_to[3] = {0, NAN, 10};
  sweep_file("non-finite-segment", 2, o, nan_to, 4, edge_spheres, NSPHERES);
  const float mz[3] = {-0.0f, 3, 4};
  const float surface[1][4] = {{1, -0.0f, -0.0f, 1}};
  sweep_file("t-would-be-negative-zero", 0, o, mz, 1, surface, 1);
  for (size_t l = 0; l < NLENGTHS; l++) {
    char name[64];
    snprintf(name, sizeof name, "edges-n%zu", lengths[l]);
    sweep_file(name, lengths[l] % 16, o, z10, lengths[l], edge_spheres, NSPHERES);
  }
  /* Steered (mode bit 4): bottles 100 m, 1 km and 10 km down a 20 km segment, each
   * (1 + dev 2^-k) radii beside the line: where the recipe decides on rounding noise. */
  enc e = {.n = 0};
  put8(&e, 16);
  const float far_to[3] = {12000, 9000, 12000};
  for (int k = 0; k < 3; k++) putf(&e, o[k]);
  for (int k = 0; k < 3; k++) putf(&e, far_to[k]);
  const float along[3] = {100, 1000, 10000}, dev[4] = {-1, -0.25f, 0.25f, 1};
  put8(&e, 12);
  for (int a = 0; a < 3; a++)
    for (int d = 0; d < 4; d++) {
      putf(&e, along[a]), putf(&e, 0.075f), putf(&e, dev[d]);
      put8(&e, (uint8_t)(8 + 4 * a));
    }
  save(&e, "sweep", "steered-far-bottles");
}

/* ---- broadphase: the aabb edge boxes as a set, 2D and 3D, alone or topped up by the
 * target's generator ---- */
static void broadphase_seeds(void) {
  const size_t counts[] = {2, 17, 40, 300};
  for (unsigned dims = 2; dims <= 3; dims++)
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      enc e = {.n = 0};
      put8(&e, dims == 3);
      put8(&e, (uint8_t)(counts[c] & 0xFF)), put8(&e, (uint8_t)(counts[c] >> 8));
      const size_t decoded = counts[c] < 40 ? counts[c] : 20;
      for (size_t i = 0; i < decoded; i++)
        for (unsigned k = 0; k < 2 * dims; k++) putf(&e, edge_boxes[(i * 5) % NEDGE][k]);
      char name[64];
      snprintf(name, sizeof name, "edges-%uD-n%zu", dims, counts[c]);
      save(&e, "broadphase", name);
    }
  enc e = {.n = 0};
  put8(&e, 0), put8(&e, 64), put8(&e, 0);
  for (int i = 0; i < 64; i++)
    for (int k = 0; k < 4; k++) putf(&e, k < 2 ? -1.0f : 1.0f); /* everything overlaps */
  save(&e, "broadphase", "all-overlapping");
  /* Large generated sets of each shape (the second n byte's bits 2-3: flat, lattice, points),
   * sizes with a scalar tail after the vector blocks of 4, both touch rules. */
  const size_t large[] = {1023, 1021, 770};
  for (unsigned shape = 1; shape <= 3; shape++)
    for (unsigned dims = 2; dims <= 3; dims++)
      for (size_t c = 0; c < sizeof large / sizeof large[0]; c++) {
        enc g = {.n = 0};
        put8(&g, (uint8_t)((dims == 3) | (c == 1) << 1));
        put8(&g, (uint8_t)(large[c] & 0xFF));
        put8(&g, (uint8_t)(0xF0 | shape << 2 | large[c] >> 8));
        char name[64];
        snprintf(name, sizeof name, "shape%u-%uD-n%zu", shape, dims, large[c]);
        save(&g, "broadphase", name);
      }
}

/* ---- args: registrations (operation bytes 0xF8-0xFF): a name from the target's list (top
 * bit: a backend), flag bits, the version byte ---- */
static void args_seeds(void) {
  static const uint8_t regs[][4] = {
      {0xF8, 6, 2, 0},       {0xF9, 7, 4, 0},       {0xFA, 10, 6, 0},      {0xFB, 2, 6, 0},
      {0xFC, 5, 0, 0},       {0xFD, 8, 6, 0xF1},    {0xF8, 0x8A, 0x21, 0}, {0xF9, 0x8B, 0x41, 0},
      {0xFA, 0x8A, 0x21, 0}, {0xFB, 0x89, 0x01, 0}, {0xFC, 0x85, 0x21, 0}, {0xFD, 0x8B, 0x20, 0}};
  for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
    enc e = {.n = 0};
    for (int k = 0; k < 4; k++) put8(&e, regs[i][k]);
    char name[64];
    snprintf(name, sizeof name, "register-%zu", i);
    save(&e, "args", name);
  }
}

/* ---- mask ---- */
/* The width byte that decodes to edges[i] (1, 63, 64, 65, 127, 128, 129, 191, ...). */
static uint8_t mask_edge_width(unsigned i) { return (uint8_t)(0x80 + (i + 12 - 128 % 12) % 12); }

static void mask_file(const char *name, uint8_t base, uint8_t wa, uint8_t ha, uint8_t wb,
                      uint8_t hb, uint8_t x_mode, int8_t x_delta, uint8_t y_mode, int8_t y_delta,
                      uint8_t flags, uint8_t density) {
  enc e = {.n = 0};
  put8(&e, 20), put8(&e, base);
  put8(&e, wa), put8(&e, ha), put32(&e, 0xC0FFEE00u + wa), put8(&e, density);
  put8(&e, wb), put8(&e, hb), put32(&e, 0xBADD0000u + wb), put8(&e, density);
  put8(&e, x_mode), put8(&e, (uint8_t)x_delta), put8(&e, y_mode), put8(&e, (uint8_t)y_delta);
  put8(&e, flags), put32(&e, 0x5EED0000u + flags);
  save(&e, "mask", name);
}

static void mask_seeds(void) {
  /* Widths 63..129 against each other, at the offsets where they start and stop touching. */
  static const struct {
    uint8_t mode;
    int8_t delta;
    const char *what;
  } place[] = {{1, 0, "apart-left"},    {1, 32, "touch-left"}, {2, 0, "apart-right"},
               {2, -32, "touch-right"}, {3, 0, "aligned"},     {0, 37, "shift-37"}};
  int k = 0;
  for (unsigned i = 1; i <= 6; i++)
    for (unsigned j = 1; j <= 6; j++, k++) {
      char name[96];
      const unsigned widths[] = {1, 63, 64, 65, 127, 128, 129};
      snprintf(name, sizeof name, "w%u-w%u-%s", widths[i], widths[j], place[k % 6].what);
      mask_file(name, 0, mask_edge_width(i), 4, mask_edge_width(j), 3, place[k % 6].mode,
                place[k % 6].delta, (uint8_t)(k % 3 == 0 ? 1 : 3), (int8_t)(k % 3 == 0 ? 32 : 0),
                (uint8_t)(k % 2), (uint8_t)(k * 37 % 256));
    }
  mask_file("near-int32-max", 1, 100, 5, mask_edge_width(9), 5, 0, -50, 3, 0, 1, 200);
  mask_file("near-int32-min", 2, mask_edge_width(10), 5, 90, 5, 0, 60, 3, 0, 0, 200);
  mask_file("mixed-limits", 3, mask_edge_width(11), 6, mask_edge_width(11), 6, 0, 1, 0, -1, 1, 120);
  mask_file("empty-b", 0, 10, 4, 0, 4, 3, 0, 3, 0, 0, 255);
  mask_file("dense-256", 0, mask_edge_width(11), 15, mask_edge_width(8), 15, 0, 45, 3, 0, 0, 255);
}

/* ---- move ---- */
typedef struct move_actor_spec {
  uint8_t w, h;
  int8_t x, y;
  int16_t vx, vy;
  uint8_t slope;
} move_actor_spec;

static void put_speed(enc *e, int16_t v) {
  const uint16_t u = (uint16_t)(v + 300); /* decodes as u % 601 - 300 */
  put8(e, (uint8_t)u), put8(e, (uint8_t)(u >> 8));
}

static void move_file(const char *name, uint8_t w, uint8_t h, uint8_t roughness, uint8_t noise,
                      const move_actor_spec *actors, size_t n) {
  enc e = {.n = 0};
  put8(&e, w), put8(&e, h), put8(&e, (uint8_t)-3), put8(&e, 5);
  put32(&e, 0xF100D000u + w * 7u + roughness), put8(&e, roughness), put8(&e, noise);
  put8(&e, (uint8_t)(n - 1));
  for (size_t i = 0; i < n; i++) {
    const move_actor_spec *a = &actors[i];
    put8(&e, a->w), put8(&e, a->h), put8(&e, (uint8_t)a->x), put8(&e, (uint8_t)a->y);
    put_speed(&e, a->vx), put_speed(&e, a->vy), put8(&e, a->slope);
  }
  save(&e, "move", name);
}

static void move_seeds(void) {
  /* Small actors walking both ways with each slope limit, big ones across word edges. */
  for (uint8_t rough = 0; rough <= 8; rough += 2)
    for (uint8_t slope = 0; slope <= 8; slope += 4) {
      const move_actor_spec actors[4] = {{0, 3, 2, 10, 120, 7, slope},
                                         {1, 1, 60, 20, -150, -40, slope},
                                         {0x81, 12, -5, 0, 300, 300, slope},
                                         {20, 23, 30, -20, -300, 12, slope}};
      char name[64];
      snprintf(name, sizeof name, "rough-%u-slope-%u", rough, slope);
      move_file(name, 0x80 + (rough % 8), 48, rough, (uint8_t)(rough * 3 % 16), actors, 4);
    }
  const move_actor_spec flat[2] = {{3, 7, 0, 0, 100, 0, 0}, {3, 7, 10, 0, -100, 100, 2}};
  move_file("flat", 100, 40, 0, 0, flat, 2);
  const move_actor_spec tall[1] = {{69, 23, -10, -30, 90, 250, 8}};
  move_file("tall-actor-steep-level", 0x87, 64, 8, 4, tall, 1);
}

/* ---- circle ---- */
typedef struct circle_pair {
  float ax, ay, ar, bx, by, br, avx, avy, bvx, bvy;
  uint8_t am, bm; /* mass = (byte + 1) / 4 */
} circle_pair;

static void circle_file(const char *name, const circle_pair *p, size_t n) {
  enc e = {.n = 0};
  put8(&e, (uint8_t)n);
  for (size_t i = 0; i < n; i++) {
    const float v[10] = {p[i].ax, p[i].ay,  p[i].ar,  p[i].bx,  p[i].by,
                         p[i].br, p[i].avx, p[i].avy, p[i].bvx, p[i].bvy};
    for (int k = 0; k < 10; k++) putf(&e, v[k]);
    put8(&e, p[i].am), put8(&e, p[i].bm);
  }
  save(&e, "circle", name);
}

static void circle_seeds(void) {
  /* The seed's example: masses 10 (byte 39), 5 against -1, head-on. */
  const circle_pair example = {0, 0, 10, 19, 0, 10, 5, 0, -1, 0, 39, 39};
  circle_file("example", &example, 1);
  /* Boundaries: distance r1 + r2 exactly and one ulp either side, on an axis and on a 3-4-5
   * diagonal, at growing magnitudes (where the box check's sums round differently). */
  circle_pair edge[48];
  size_t n = 0;
  for (int scale = 0; scale < 4; scale++) {
    const float base = scale == 0 ? 0.0f : scale == 1 ? 1000.0f : scale == 2 ? 1048576.0f : 3.0e7f;
    const float r2s[3] = {nextafterf(3.0f, 0.0f), 3.0f, nextafterf(3.0f, 10.0f)};
    for (int k = 0; k < 3; k++) {
      edge[n++] = (circle_pair){base, base, 2, base + 3, base + 4, r2s[k], 1, 2, -3, 0.5f, 3, 200};
      edge[n++] =
          (circle_pair){base, -base, 2.5f, base + 5, -base, r2s[k] - 0.5f, 2, 0, -2, 0, 7, 7};
      edge[n++] = (circle_pair){-base, base, 0.1f, -base + 0.3f, base + 0.4f, r2s[k] - 2.6f,
                                0,     1,    0,    -1,           0,           255};
      edge[n++] = (circle_pair){base, base, 1, base, base, 1, 1, 1, 1, 1, 5, 9};
    }
  }
  circle_file("boundaries", edge, n);
  const circle_pair specials[4] = {
      {NAN, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1, 1},
      {0, 0, INFINITY, 5, 5, 1, 0, 0, 0, 0, 1, 1},
      {-0.0f, 0, 1, 0.0f, 2, 1, 0x1p-149f, 0, -0x1p-149f, 0, 1, 1},
      {1e30f, 1e30f, 1e30f, -1e30f, -1e30f, 1e30f, 1e30f, 0, -1e30f, 0, 255, 0},
  };
  circle_file("specials", specials, 4);
}

/* ---- sim ---- */
static void sim_file(const char *name, uint8_t kind, uint8_t n, uint8_t frames, uint32_t seed,
                     uint8_t speed, uint8_t scale) {
  enc e = {.n = 0};
  put8(&e, kind), put8(&e, n), put8(&e, frames), put32(&e, seed), put8(&e, speed), put8(&e, scale);
  save(&e, "sim", name);
}

static void sim_seeds(void) {
  sim_file("balls-slow", 0, 80, 24, 1, 4, 6);
  sim_file("balls-fast", 0, 60, 24, 2, 200, 4);
  sim_file("balls-dense", 0, 95, 12, 3, 20, 0);
  sim_file("world-platforms", 1, 60, 24, 4, 16, 10);
  sim_file("world-pile", 1, 90, 24, 5, 8, 0);
  sim_file("world-fast", 1, 40, 24, 6, 250, 3);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT_DIR (fuzz/corpus)\n", argv[0]);
    return 2;
  }
  out_dir = argv[1];
  aabb_seeds();
  mtd_seeds();
  sprite_seeds();
  sweep_seeds();
  broadphase_seeds();
  mask_seeds();
  move_seeds();
  circle_seeds();
  sim_seeds();
  args_seeds();
  printf("make_seeds: wrote %zu seed files under %s\n", files_written, out_dir);
  return 0;
}
