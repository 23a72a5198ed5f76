/* Differential fuzz target: every broadphase on every supported backend against the scalar
 * brute force, as sorted pair lists, both touch rules.
 * Input: flags byte (bit 0: 3D), n as two bytes (0..1023), then boxes of 4 (2D) or 6 (3D)
 * floats (min x, min y, max x, max y[, min z, max z]) while the input lasts; the remaining
 * boxes come from a generator seeded by the input length: small boxes in a 1000-wide world.
 * Then the incremental cache is checked over three frames of moving boxes. */
#include "fuzz_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "broadphase";

static bool same(const col_pairs *x, const col_pairs *y) {
  return x->count == y->count &&
         (x->count == 0 || memcmp(x->data, y->data, x->count * sizeof(col_pair)) == 0);
}

static void print_pairs(const char *label, const col_pairs *p) {
  fprintf(stderr, "  %-22s %zu pairs:", label, p->count);
  for (size_t i = 0; i < p->count && i < 64; i++)
    fprintf(stderr, " (%u,%u)", p->data[i].a, p->data[i].b);
  fputs(p->count > 64 ? " ...\n" : "\n", stderr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const unsigned dims = (fz_u8(&r) & 1) ? 3 : 2;
  const size_t n = ((size_t)fz_u8(&r) | (size_t)fz_u8(&r) << 8) % 1024;
  float *v[6];
  for (int k = 0; k < 6; k++) v[k] = malloc((n + 1) * sizeof(float));
  uint64_t seed = size * 0x9E3779B97F4A7C15u;
  for (size_t i = 0; i < n; i++) {
    const int order[6] = {0, 1, 3, 4, 2, 5};
    for (unsigned k = 0; k < 2 * dims; k++) {
      float f;
      if (r.n > 0) {
        f = fz_float(&r);
      } else {
        seed += 0x9E3779B97F4A7C15u;
        const uint64_t z = (seed ^ (seed >> 29)) * 0xBF58476D1CE4E5B9u;
        const float c = (float)(z >> 40) * 0x1p-24f * 1000.0f;
        f = order[k] >= 3 ? v[order[k] - 3][i] + (float)(z & 7) : c;
      }
      v[order[k]][i] = f;
    }
    if (dims == 2) v[2][i] = v[5][i] = 0.0f;
  }
  const col_boxes boxes = {dims, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, n};

  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(
      names, FZ_MAX_BACKENDS, COL_KERNEL_AABB2_QUERY | COL_KERNEL_AABB3_QUERY | COL_KERNEL_SAP_RUN);
  for (int rule = 0; rule < 2; rule++) {
    const col_touch touch = rule ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
    col_pairs want = {0};
    fz_select("scalar");
    if (col_broadphase_pairs(COL_BROADPHASE_BRUTE, &boxes, touch, &want, NULL) != COL_OK) abort();
    col_pairs_sort(&want);
    for (size_t b = 0; b < nb; b++) {
      fz_select(names[b]);
      for (size_t a = 0; a < col_broadphase_count(); a++) {
        col_broadphase_info info;
        if (!col_broadphase_at(a, &info)) abort();
        if ((dims == 2 && !info.two_d) || (dims == 3 && !info.three_d)) continue;
        col_pairs got = {0};
        if (col_broadphase_pairs(info.algorithm, &boxes, touch, &got, NULL) != COL_OK) abort();
        col_pairs_sort(&got);
        if (!same(&got, &want)) {
          fprintf(stderr, "fuzz broadphase: %s on %s, touch rule %d, %uD, %zu boxes\n", info.name,
                  names[b], touch, dims, n);
          for (size_t i = 0; i < n && i < 200; i++) {
            char label[48];
            snprintf(label, sizeof label, "box %zu min, max", i);
            const float box[6] = {v[0][i], v[1][i], v[2][i], v[3][i], v[4][i], v[5][i]};
            fz_print_floats(label, box, 6);
          }
          print_pairs("brute/scalar", &want);
          char label[48];
          snprintf(label, sizeof label, "%s/%s  <- DIFFERS", info.name, names[b]);
          print_pairs(label, &got);
          fz_fail();
        }
        col_pairs_free(&got);
      }
    }
    col_pairs_free(&want);
  }

  /* The incremental cache over three frames: the boxes as decoded, then every fifth box
   * moved (by a grid step, or to NaN and back), each frame against brute force. */
  col_broadphase_cache *cache = NULL;
  if (col_broadphase_cache_create(&cache) != COL_OK) abort();
  fz_select("scalar");
  /* Frames 0-2 keep the tree, 3-5 sweep and prune (switching resets the cache). */
  for (int frame = 0; frame < 6; frame++) {
    if (frame == 3 && col_broadphase_cache_set_algorithm(cache, COL_BROADPHASE_SAP) != COL_OK)
      abort();
    if (frame > 0)
      for (size_t i = (size_t)frame; i < n; i += 5) {
        const float step = (float)((int)(i % 7) - 3) * 0.25f;
        for (int k = 0; k < 6; k++) v[k][i] += step;
        if (i % 11 == 0) v[1][i] = frame == 1 ? NAN : v[4][i];
      }
    col_pairs want = {0}, got = {0};
    if (col_broadphase_pairs(COL_BROADPHASE_BRUTE, &boxes, COL_TOUCH_OVERLAPS, &want, NULL) !=
            COL_OK ||
        col_broadphase_cache_update(cache, &boxes, COL_TOUCH_OVERLAPS, &got, NULL) != COL_OK)
      abort();
    col_pairs_sort(&want), col_pairs_sort(&got);
    if (!same(&got, &want)) {
      fprintf(stderr, "fuzz broadphase: incremental cache, frame %d, %uD, %zu boxes\n", frame, dims,
              n);
      print_pairs("brute/scalar", &want);
      print_pairs("cache  <- DIFFERS", &got);
      fz_fail();
    }
    col_pairs_free(&want), col_pairs_free(&got);
  }
  col_broadphase_cache_destroy(cache);
  for (int k = 0; k < 6; k++) free(v[k]);
  return 0;
}
