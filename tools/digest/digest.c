/* The digest's context: where an input's values come from (splitmix64 from the kernel's name
 * and the input's index, or a fuzzer's bytes), the answer's canonical bytes into XXH3, and the
 * --show printer. */
/* open_memstream, strtok_r */
#define _POSIX_C_SOURCE 200809L

#include "digest.h"

#include "splitmix64.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Header-only xxHash (Debian's libxxhash-dev): nothing to link, so the cross and wasm builds
 * need only the header. */
#define XXH_INLINE_ALL
#include <xxhash.h>

struct dg_ctx {
  uint64_t state;       /* splitmix64 (bytes == NULL) */
  const uint8_t *bytes; /* a fuzzer's input, else NULL */
  size_t nbytes, at;
  XXH3_state_t hash;
  FILE *show;
};

uint64_t dg_u64(dg_ctx *c) {
  if (!c->bytes) return splitmix64(&c->state);
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)(c->at < c->nbytes ? c->bytes[c->at++] : 0) << (8 * i);
  return v;
}

/* A fuzzer's bytes are read one at a time where one byte decides (so a mutation of one byte
 * changes one choice); the generator's draws take a whole word either way. */
static uint32_t draw_small(dg_ctx *c, uint32_t n) {
  if (c->bytes) {
    /* One byte even for n > 256: a fuzzer's sets stay under 256 more than their base size,
     * so that an input costs milliseconds at most. */
    const uint32_t v = c->at < c->nbytes ? c->bytes[c->at++] : 0;
    return v % n;
  }
  return (uint32_t)(splitmix64(&c->state) % n);
}

uint32_t dg_below(dg_ctx *c, uint32_t n) { return n <= 1 ? 0 : draw_small(c, n); }

bool dg_chance(dg_ctx *c, unsigned k) { return draw_small(c, 256) < k; }

static float from_bits(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint32_t to_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* +0, -0, +inf, -inf, quiet NaN, negative NaN with a payload, signalling-pattern NaN, the
 * smallest subnormals, the largest subnormal, FLT_MIN, FLT_MAX and their negatives, and 1e30
 * (huge but squares to infinity). */
static const uint32_t special_bits[16] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc12345u,
    0x7f800001u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u, 0x7f7fffffu,
    0xff7fffffu, 0x80800000u, 0x7149f2cau, 0xf149f2cau,
};

float dg_ulps(float x, int k) {
  for (; k > 0; k--) x = nextafterf(x, INFINITY);
  for (; k < 0; k++) x = nextafterf(x, -INFINITY);
  return x;
}

float dg_coord(dg_ctx *c, unsigned special) {
  if (dg_chance(c, special)) return from_bits(special_bits[dg_below(c, 16)]);
  const uint32_t kind = dg_below(c, 16);
  const float grid = (float)((int)dg_below(c, 129) - 64) / 4.0f;
  if (kind < 10) return grid;
  if (kind < 12) return dg_ulps(grid, (int)dg_below(c, 7) - 3);
  if (kind < 15) { /* wide: any finite float up to about 2^20 in magnitude */
    const float m = (float)(dg_u64(c) >> 40) / 16.0f;
    return dg_chance(c, 128) ? -m : m;
  }
  const float huge = from_bits(0x60000000u + (uint32_t)(dg_u64(c) % 0x1f800000u)); /* 2^65 up */
  return dg_chance(c, 128) ? -huge : huge;
}

float dg_size(dg_ctx *c, unsigned special) {
  if (dg_chance(c, special)) return from_bits(special_bits[dg_below(c, 16)]);
  const uint32_t kind = dg_below(c, 16);
  const float grid = (float)dg_below(c, 33) / 4.0f;
  if (kind < 11) return grid;
  if (kind < 13) return dg_ulps(grid, (int)dg_below(c, 5) - 2);
  return (float)(dg_u64(c) >> 44) / 64.0f; /* up to 2^14 */
}

/* ---- recording ---- */

bool dg_showing(const dg_ctx *c) { return c->show != NULL; }

static void show_floats(dg_ctx *c, const char *kind, const char *name, const float *v, size_t n) {
  fprintf(c->show, "  %s %s[%zu]:", kind, name, n);
  for (size_t i = 0; i < n; i++) {
    if (i % 4 == 0) fprintf(c->show, "\n    [%zu]", i);
    fprintf(c->show, "  %.9g (%a)", (double)v[i], (double)v[i]);
  }
  fputc('\n', c->show);
}

static void show_u32s(dg_ctx *c, const char *kind, const char *name, const uint32_t *v, size_t n) {
  fprintf(c->show, "  %s %s[%zu]:", kind, name, n);
  for (size_t i = 0; i < n; i++) {
    if (i % 16 == 0) fprintf(c->show, "\n    [%zu]", i);
    fprintf(c->show, " %" PRIu32, v[i]);
  }
  fputc('\n', c->show);
}

void dg_in_floats(dg_ctx *c, const char *name, const float *v, size_t n) {
  if (c->show) show_floats(c, "input", name, v, n);
}

void dg_in_u32s(dg_ctx *c, const char *name, const uint32_t *v, size_t n) {
  if (c->show) show_u32s(c, "input", name, v, n);
}

void dg_in_int(dg_ctx *c, const char *name, int64_t v) {
  if (c->show) fprintf(c->show, "  input %s: %" PRId64 "\n", name, v);
}

static void put_le(dg_ctx *c, uint64_t v, unsigned bytes) {
  uint8_t b[8];
  for (unsigned i = 0; i < bytes; i++) b[i] = (uint8_t)(v >> (8 * i));
  XXH3_64bits_update(&c->hash, b, bytes);
}

void dg_out_floats(dg_ctx *c, const char *name, const float *v, size_t n) {
  put_le(c, n, 8);
  for (size_t i = 0; i < n; i++) put_le(c, v[i] != v[i] ? 0x7fc00000u : to_bits(v[i]), 4);
  if (c->show) show_floats(c, "answer", name, v, n);
}

void dg_out_float(dg_ctx *c, const char *name, float v) {
  put_le(c, v != v ? 0x7fc00000u : to_bits(v), 4);
  if (c->show) fprintf(c->show, "  answer %s: %.9g (%a)\n", name, (double)v, (double)v);
}

void dg_out_u32s(dg_ctx *c, const char *name, const uint32_t *v, size_t n) {
  put_le(c, n, 8);
  for (size_t i = 0; i < n; i++) put_le(c, v[i], 4);
  if (c->show) show_u32s(c, "answer", name, v, n);
}

void dg_out_u8s(dg_ctx *c, const char *name, const uint8_t *v, size_t n) {
  put_le(c, n, 8);
  XXH3_64bits_update(&c->hash, v, n);
  if (c->show) {
    fprintf(c->show, "  answer %s[%zu]:", name, n);
    for (size_t i = 0; i < n; i++) {
      if (i % 32 == 0) fprintf(c->show, "\n    [%zu]", i);
      fprintf(c->show, " %u", v[i]);
    }
    fputc('\n', c->show);
  }
}

void dg_out_int(dg_ctx *c, const char *name, int64_t v) {
  put_le(c, (uint64_t)v, 8);
  if (c->show) fprintf(c->show, "  answer %s: %" PRId64 "\n", name, v);
}

void dg_out_u64(dg_ctx *c, const char *name, uint64_t v) {
  put_le(c, v, 8);
  if (c->show) fprintf(c->show, "  answer %s: %" PRIu64 "\n", name, v);
}

void dg_out_bool(dg_ctx *c, const char *name, bool v) {
  put_le(c, v ? 1 : 0, 1);
  if (c->show) fprintf(c->show, "  answer %s: %s\n", name, v ? "true" : "false");
}

void dg_out_status(dg_ctx *c, const char *name, col_status s) {
  put_le(c, (uint64_t)(int64_t)s, 8);
  if (c->show) fprintf(c->show, "  answer %s: %s\n", name, col_status_string(s));
}

void dg_out_pairs(dg_ctx *c, const char *name, const col_pairs *p) {
  put_le(c, p->count, 8);
  for (size_t i = 0; i < p->count; i++)
    put_le(c, (uint64_t)p->data[i].a | (uint64_t)p->data[i].b << 32, 8);
  if (c->show) {
    fprintf(c->show, "  answer %s: %zu pairs", name, p->count);
    for (size_t i = 0; i < p->count; i++) {
      if (i % 10 == 0) fprintf(c->show, "\n    [%zu]", i);
      fprintf(c->show, " (%" PRIu32 ",%" PRIu32 ")", p->data[i].a, p->data[i].b);
    }
    fputc('\n', c->show);
  }
}

void *dg_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "collide-digest: out of memory (%zu bytes)\n", bytes);
    abort();
  }
  return p;
}

/* ---- running ---- */

static uint64_t finish(dg_ctx *c, const dg_kernel *k, uint32_t index, FILE *show) {
  c->show = show;
  XXH3_64bits_reset(&c->hash);
  if (show)
    fprintf(show, "%s input %" PRIu32 " on %s:\n", k->name, index,
            k->slots ? col_backend_name() : "-");
  k->run(c, k, index);
  return XXH3_64bits_digest(&c->hash);
}

uint64_t dg_run_input(const dg_kernel *k, uint32_t index, FILE *show) {
  dg_ctx c;
  memset(&c, 0, sizeof c);
  /* The input's seed: its kernel's name and its index (so an input is made again alone). */
  const char *seed = k->group ? k->group : k->name;
  c.state = XXH3_64bits(seed, strlen(seed)) ^ ((uint64_t)index * SPLITMIX64_MIX1);
  return finish(&c, k, index, show);
}

uint64_t dg_run_bytes(const dg_kernel *k, const uint8_t *bytes, size_t n, FILE *show) {
  dg_ctx c;
  memset(&c, 0, sizeof c);
  c.bytes = bytes;
  c.nbytes = n;
  return finish(&c, k, 0, show);
}

char *dg_show_text(const dg_kernel *k, uint32_t index, const uint8_t *bytes, size_t n) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) {
    perror("collide: open_memstream");
    abort();
  }
  if (bytes)
    dg_run_bytes(k, bytes, n, f);
  else
    dg_run_input(k, index, f);
  fclose(f);
  return text;
}

void dg_print_difference(FILE *out, const char *name_a, char *text_a, const char *name_b,
                         char *text_b) {
  size_t shown = 0, hidden = 0, differ = 0;
  bool in_answer = false;
  char *sa = NULL, *sb = NULL;
  char *la = strtok_r(text_a, "\n", &sa), *lb = strtok_r(text_b, "\n", &sb);
  for (la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb); la && lb;
       la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
    if (strncmp(la, "  input ", 8) == 0) in_answer = false;
    if (strncmp(la, "  answer ", 9) == 0) in_answer = true;
    const bool head = strncmp(la, "    ", 4) != 0;
    if (!in_answer) {
      if (shown < 30)
        fprintf(out, "  %s\n", la), shown++;
      else
        hidden++;
    } else if (strcmp(la, lb) != 0) {
      if (differ++ < 8) fprintf(out, "  %-10s %s\n  %-10s %s\n", name_a, la, name_b, lb);
    } else if (head && differ < 8) {
      fprintf(out, "  %-10s %s\n", "both", la);
    }
  }
  if (hidden || differ > 8)
    fprintf(out, "  (%zu more lines of input, %zu more differing lines of answers not shown)\n",
            hidden, differ > 8 ? differ - 8 : 0);
}

uint64_t dg_fold(const uint64_t *hashes, size_t n) {
  XXH3_state_t s;
  XXH3_64bits_reset(&s);
  for (size_t i = 0; i < n; i++) {
    uint8_t b[8];
    for (int j = 0; j < 8; j++) b[j] = (uint8_t)(hashes[i] >> (8 * j));
    XXH3_64bits_update(&s, b, 8);
  }
  return XXH3_64bits_digest(&s);
}

size_t dg_all_kernels(dg_kernel *out, size_t max) {
  size_t (*const families[])(dg_kernel *) = {dg_boxes_kernels,      dg_circles_kernels,
                                             dg_sweep_kernels,      dg_pixels_kernels,
                                             dg_broadphase_kernels, dg_sims_kernels};
  size_t n = 0;
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
    dg_kernel part[DG_FAMILY_MAX];
    const size_t m = families[f](part);
    for (size_t i = 0; i < m && n < max; i++) out[n++] = part[i];
  }
  return n;
}
