/* Differential fuzz target: AABB queries (2D SoA, 2D AoS, 3D SoA; both touch rules) on every
 * supported backend, compared with the scalar reference and with the single-pair rule.
 * Input: offset byte (array start misalignment, 0..15 floats), query (6 floats: min x y,
 * max x y, min z, max z), n byte (0..127), then n boxes of 6 floats in the same order. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "aabb";

enum { QUERIES = 6 }; /* 2D SoA, 2D AoS, 3D SoA, each closed then open */
static const char *const query_names[QUERIES] = {"2d-soa closed", "2d-soa open",   "2d-aos closed",
                                                 "2d-aos open",   "3d-soa closed", "3d-soa open"};

typedef struct answers {
  size_t count[QUERIES];
  uint32_t *idx[QUERIES];
} answers;

static void run_all(answers *out, col_aabb3 q, const col_aabb3_soa *set3, const col_aabb2 *aos) {
  const col_aabb2 q2 = {{q.min.x, q.min.y}, {q.max.x, q.max.y}};
  const col_aabb2_soa set2 = {set3->min_x, set3->min_y, set3->max_x, set3->max_y, set3->count};
  for (int rule = 0; rule < 2; rule++) {
    const col_touch touch = rule ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
    int st = col_aabb2_query(q2, &set2, touch, out->idx[rule], &out->count[rule]);
    st |=
        col_aabb2_query_aos(q2, aos, set3->count, touch, out->idx[2 + rule], &out->count[2 + rule]);
    st |= col_aabb3_query(q, set3, touch, out->idx[4 + rule], &out->count[4 + rule]);
    if (st != COL_OK) {
      fprintf(stderr, "fuzz aabb: a query failed on valid input\n");
      abort();
    }
  }
}

static bool same(const answers *a, const answers *b) {
  for (int k = 0; k < QUERIES; k++) {
    if (a->count[k] != b->count[k]) return false;
    if (a->count[k] && memcmp(a->idx[k], b->idx[k], a->count[k] * sizeof(uint32_t)) != 0)
      return false;
  }
  return true;
}

/* The reference kernel itself must equal the single-pair definition. */
static bool matches_definition(const answers *a, col_aabb3 q, const col_aabb3_soa *s) {
  for (int rule = 0; rule < 2; rule++) {
    const col_touch touch = rule ? COL_TOUCH_SEPARATES : COL_TOUCH_OVERLAPS;
    size_t k2 = 0, k3 = 0;
    for (size_t i = 0; i < s->count; i++) {
      const col_aabb3 b = {{s->min_x[i], s->min_y[i], s->min_z[i]},
                           {s->max_x[i], s->max_y[i], s->max_z[i]}};
      const col_aabb2 q2 = {{q.min.x, q.min.y}, {q.max.x, q.max.y}};
      const col_aabb2 b2 = {{b.min.x, b.min.y}, {b.max.x, b.max.y}};
      if (col_aabb2_overlap(q2, b2, touch) && (k2 >= a->count[rule] || a->idx[rule][k2++] != i))
        return false;
      if (col_aabb3_overlap(q, b, touch) &&
          (k3 >= a->count[4 + rule] || a->idx[4 + rule][k3++] != i))
        return false;
    }
    if (k2 != a->count[rule] || k3 != a->count[4 + rule]) return false;
  }
  return true;
}

static void report(col_aabb3 q, const col_aabb3_soa *s, const char **names, const answers *ans,
                   size_t nb) {
  fprintf(stderr, "fuzz aabb: input: %zu boxes\n", s->count);
  fz_print_floats("query min x y z, max x y z",
                  (const float[]){q.min.x, q.min.y, q.min.z, q.max.x, q.max.y, q.max.z}, 6);
  /* The boxes some backend answers differently from scalar first, then the others (at most
   * 32 boxes in all: the answers below list every index). */
  bool *disputed = fz_alloc(s->count + 1);
  memset(disputed, 0, s->count + 1);
  unsigned char *seen = fz_alloc(s->count + 1);
  for (size_t b = 1; b < nb; b++)
    for (int k = 0; k < QUERIES; k++) {
      memset(seen, 0, s->count + 1);
      for (size_t j = 0; j < ans[0].count[k]; j++) seen[ans[0].idx[k][j]] |= 1;
      for (size_t j = 0; j < ans[b].count[k]; j++) seen[ans[b].idx[k][j]] |= 2;
      for (size_t i = 0; i < s->count; i++) disputed[i] |= seen[i] == 1 || seen[i] == 2;
    }
  size_t shown = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < s->count; i++) {
      if (disputed[i] != (pass == 0)) continue;
      if (shown++ == 32) fprintf(stderr, "  ... (%zu boxes in all)\n", s->count);
      if (shown > 32) continue;
      char label[80];
      snprintf(label, sizeof label, "box %zu%s min x y z, max x y z", i,
               disputed[i] ? " (answers differ)" : "");
      fz_print_floats(label,
                      (const float[]){s->min_x[i], s->min_y[i], s->min_z[i], s->max_x[i],
                                      s->max_y[i], s->max_z[i]},
                      6);
    }
  free(seen);
  free(disputed);
  /* scalar, then the backends that differ from it, then the ones that agree */
  for (int pass = 0; pass < 3; pass++)
    for (size_t b = 0; b < nb; b++) {
      if ((pass == 0) != (b == 0) || (pass > 0 && same(&ans[0], &ans[b]) != (pass == 2))) continue;
      for (int k = 0; k < QUERIES; k++) {
        fprintf(stderr, "  %-10s %-13s count %zu:", names[b], query_names[k], ans[b].count[k]);
        for (size_t j = 0; j < ans[b].count[k]; j++) fprintf(stderr, " %u", ans[b].idx[k][j]);
        const bool differs = ans[b].count[k] != ans[0].count[k] ||
                             (ans[b].count[k] && memcmp(ans[b].idx[k], ans[0].idx[k],
                                                        ans[b].count[k] * sizeof(uint32_t)) != 0);
        fputs(differs ? "   <- DIFFERS from scalar\n" : "\n", stderr);
      }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const size_t offset = fz_u8(&r) % 16;
  col_aabb3 q;
  q.min.x = fz_float(&r), q.min.y = fz_float(&r), q.max.x = fz_float(&r);
  q.max.y = fz_float(&r), q.min.z = fz_float(&r), q.max.z = fz_float(&r);
  const size_t n = fz_u8(&r) % 128;

  /* Each array is its own allocation ending right after element n-1 (ASan sees any read
   * past it), starting `offset` floats into the block so that vector loads are unaligned. */
  float *base[6], *v[6];
  for (int k = 0; k < 6; k++) {
    base[k] = fz_alloc((offset + n) * sizeof(float));
    v[k] = base[k] + offset;
  }
  unsigned char *aos_raw = fz_alloc(offset * sizeof(float) + n * sizeof(col_aabb2));
  col_aabb2 *aos = (col_aabb2 *)(void *)(aos_raw + offset * sizeof(float));
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) v[k][i] = fz_float(&r); /* min x, min y, max x, max y */
    v[4][i] = fz_float(&r), v[5][i] = fz_float(&r);     /* min z, max z */
    aos[i] = (col_aabb2){{v[0][i], v[1][i]}, {v[2][i], v[3][i]}};
  }
  const col_aabb3_soa set = {v[0], v[1], v[4], v[2], v[3], v[5], n};

  const char *names[FZ_MAX_BACKENDS];
  const size_t nb =
      fz_backends(names, FZ_MAX_BACKENDS,
                  COL_KERNEL_AABB2_QUERY | COL_KERNEL_AABB2_QUERY_AOS | COL_KERNEL_AABB3_QUERY);
  answers ans[FZ_MAX_BACKENDS];
  bool agree = true;
  for (size_t b = 0; b < nb; b++) {
    for (int k = 0; k < QUERIES; k++) ans[b].idx[k] = fz_alloc(n * sizeof(uint32_t));
    fz_select(names[b]);
    run_all(&ans[b], q, &set, aos);
    agree = agree && same(&ans[0], &ans[b]);
  }
  if (!agree || !matches_definition(&ans[0], q, &set)) {
    if (agree) fprintf(stderr, "fuzz aabb: scalar differs from the single-pair rule\n");
    report(q, &set, names, ans, nb);
    fz_fail();
  }
  for (size_t b = 0; b < nb; b++)
    for (int k = 0; k < QUERIES; k++) free(ans[b].idx[k]);
  for (int k = 0; k < 6; k++) free(base[k]);
  free(aos_raw);
  return 0;
}
