/* Differential fuzz target: one segment against N spheres on every supported backend against
 * the scalar reference (and the reference against col_segment_sphere one by one), bit for bit.
 * Input: offset byte (array misalignment, 0..15 floats), from (3 floats), to (3 floats),
 * n byte (0..127), then n spheres of 4 floats: center x y z, radius. */
#include "fuzz_common.h"

#include <stdlib.h>
#include <string.h>

const char fz_target[] = "sweep";

static bool same_hit(col_segment_hit x, col_segment_hit y) {
  return x.hit == y.hit && x.index == y.index && memcmp(&x.t, &y.t, sizeof(float)) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  const size_t offset = fz_u8(&r) % 16;
  col_vec3 from, to;
  from.x = fz_float(&r), from.y = fz_float(&r), from.z = fz_float(&r);
  to.x = fz_float(&r), to.y = fz_float(&r), to.z = fz_float(&r);
  const size_t n = fz_u8(&r) % 128;
  float *base[4], *v[4];
  for (int k = 0; k < 4; k++) {
    base[k] = fz_alloc((offset + n) * sizeof(float));
    v[k] = base[k] + offset;
  }
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) v[k][i] = fz_float(&r);
  const col_sphere_soa set = {v[0], v[1], v[2], v[3], n};

  /* The definition: each sphere alone, the smallest t, the lowest index among equals. */
  col_segment_hit defined = {false, 0.0f, COL_INDEX_NONE};
  for (size_t i = 0; i < n; i++) {
    const col_hit h =
        col_segment_sphere(from, to, (col_sphere){{v[0][i], v[1][i], v[2][i]}, v[3][i]});
    if (h.hit && (!defined.hit || h.t < defined.t))
      defined = (col_segment_hit){true, h.t, (uint32_t)i};
  }

  const char *names[FZ_MAX_BACKENDS];
  const size_t nb = fz_backends(names, FZ_MAX_BACKENDS, COL_KERNEL_SEGMENT);
  col_segment_hit out[FZ_MAX_BACKENDS];
  bool agree = true;
  for (size_t k = 0; k < nb; k++) {
    fz_select(names[k]);
    if (col_segment_spheres(from, to, &set, &out[k]) != COL_OK) abort();
    agree = agree && same_hit(out[k], out[0]);
  }
  if (!agree || !same_hit(out[0], defined)) {
    if (agree) fprintf(stderr, "fuzz sweep: scalar batch differs from col_segment_sphere\n");
    fprintf(stderr, "fuzz sweep: input: %zu spheres\n", n);
    fz_print_floats("from", &from.x, 3);
    fz_print_floats("to", &to.x, 3);
    for (size_t i = 0; i < n; i++) {
      char label[80];
      snprintf(label, sizeof label, "sphere %zu center x y z, radius", i);
      fz_print_floats(label, (const float[]){v[0][i], v[1][i], v[2][i], v[3][i]}, 4);
    }
    fprintf(stderr, "  %-10s hit = %d t = %a index = %u\n", "definition", defined.hit,
            (double)defined.t, defined.index);
    for (size_t k = 0; k < nb; k++)
      fprintf(stderr, "  %-10s hit = %d t = %a index = %u%s\n", names[k], out[k].hit,
              (double)out[k].t, out[k].index,
              same_hit(out[k], out[0]) ? "" : "   <- DIFFERS from scalar");
    fz_fail();
  }
  for (int k = 0; k < 4; k++) free(base[k]);
  return 0;
}
