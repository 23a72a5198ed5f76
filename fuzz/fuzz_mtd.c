/* Differential fuzz target: the MTD batch on every supported backend against the scalar
 * reference (and the reference against col_aabb2_mtd), bit for bit.
 * Input: offset byte (misalignment of the arrays, 0..15 floats), n byte (0..127), then n
 * pairs of boxes, 8 floats each: a min x y, a max x y, b min x y, b max x y. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "mtd";

static bool same_mtd(col_mtd x, col_mtd y) {
  return x.hit == y.hit && memcmp(&x.d.x, &y.d.x, sizeof(float)) == 0 &&
         memcmp(&x.d.y, &y.d.y, sizeof(float)) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const size_t offset = fz_u8(&r) % 16;
  const size_t n = fz_u8(&r) % 128;
  unsigned char *raw_a = fz_alloc(offset * 4 + n * sizeof(col_aabb2));
  unsigned char *raw_b = fz_alloc(offset * 4 + n * sizeof(col_aabb2));
  col_aabb2 *a = (col_aabb2 *)(void *)(raw_a + offset * 4);
  col_aabb2 *b = (col_aabb2 *)(void *)(raw_b + offset * 4);
  for (size_t i = 0; i < n; i++) {
    a[i].min.x = fz_float(&r), a[i].min.y = fz_float(&r);
    a[i].max.x = fz_float(&r), a[i].max.y = fz_float(&r);
    b[i].min.x = fz_float(&r), b[i].min.y = fz_float(&r);
    b[i].max.x = fz_float(&r), b[i].max.y = fz_float(&r);
  }

  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, COL_KERNEL_AABB2_MTD);
  col_mtd *out[FZ_MAX_BACKENDS];
  bool agree = true;
  for (size_t k = 0; k < nb; k++) {
    out[k] = fz_alloc(n * sizeof(col_mtd));
    fz_select(names[k]);
    if (col_aabb2_mtd_batch(n, a, b, out[k]) != COL_OK) abort();
    for (size_t i = 0; i < n; i++) agree = agree && same_mtd(out[k][i], out[0][i]);
  }
  bool defined = true;
  for (size_t i = 0; i < n; i++)
    defined = defined && same_mtd(out[0][i], col_aabb2_mtd(a[i], b[i]));

  if (!agree || !defined) {
    if (agree) fprintf(stderr, "fuzz mtd: scalar batch differs from col_aabb2_mtd\n");
    fprintf(stderr, "fuzz mtd: input: %zu pairs (only differing pairs shown)\n", n);
    for (size_t i = 0; i < n; i++) {
      bool differs = !same_mtd(out[0][i], col_aabb2_mtd(a[i], b[i]));
      for (size_t k = 1; k < nb; k++) differs = differs || !same_mtd(out[k][i], out[0][i]);
      if (!differs) continue;
      char label[80];
      snprintf(label, sizeof label, "pair %zu: a min x y, max x y", i);
      fz_print_floats(label, &a[i].min.x, 4);
      snprintf(label, sizeof label, "pair %zu: b min x y, max x y", i);
      fz_print_floats(label, &b[i].min.x, 4);
      for (size_t k = 0; k < nb; k++)
        fprintf(stderr, "  %-10s d = (%a, %a) hit = %d%s\n", names[k], (double)out[k][i].d.x,
                (double)out[k][i].d.y, out[k][i].hit,
                same_mtd(out[k][i], out[0][i]) ? "" : "   <- DIFFERS from scalar");
    }
    fz_fail();
  }
  for (size_t k = 0; k < nb; k++) free(out[k]);
  free(raw_a), free(raw_b);
  return 0;
}
