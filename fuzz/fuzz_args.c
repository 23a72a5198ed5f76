/* Argument fuzz target: every public entry point that takes pointers, sizes or enums, called
 * with decoded arguments that are often invalid (NULL pointers, negative or overflowing sizes,
 * strides, counts past UINT32_MAX, enums out of range). The oracle is the header's error list
 * for that function, written out here independently: a call must return one of the errors
 * that apply (OK exactly when none does), and on an error leave every output untouched (they
 * start as canaries) and read nothing (arrays are allocated to exactly what they hold, which
 * may be less than a count that is being refused, so a read past them is an ASan report).
 * Input: an operation byte, then the operation's argument bytes (see each operation in args/);
 * the broadphase operation's NULL-flags byte also picks the per-frame cache (bit 6) and a NULL
 * cache (bit 7). */
#include "args/args.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char fz_target[] = "args";

size_t fa_count(fz_reader *r) {
  static const size_t big[4] = {(size_t)UINT32_MAX, (size_t)UINT32_MAX + 1u, SIZE_MAX / 2,
                                SIZE_MAX};
  const uint8_t v = fz_u8(r);
  return v >= 0xF0 ? big[v & 3] : (size_t)(v % 12);
}

int fa_enum(fz_reader *r) {
  static const int odd[4] = {2, -1, INT_MAX, INT_MIN};
  const uint8_t v = fz_u8(r);
  return v >= 0xC0 ? odd[v & 3] : (int)(v & 1);
}

bool fa_valid01(int v) { return v == 0 || v == 1; }

float *fa_floats(fz_reader *r, size_t count, bool null) {
  if (null) return NULL;
  const size_t n = count < MAX_ALLOC ? count : MAX_ALLOC;
  float *f = fz_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) f[i] = fz_float(r);
  return f;
}

void *fa_canaries(size_t bytes, bool null) {
  if (null) return NULL;
  unsigned char *p = fz_alloc(bytes);
  memset(p, CANARY, bytes ? bytes : 1);
  return p;
}

bool fa_untouched(const void *p, size_t bytes) {
  const unsigned char *c = p;
  for (size_t i = 0; p != NULL && i < bytes; i++)
    if (c[i] != CANARY) return false;
  return true;
}

/* The status against the set of documented errors that apply (bit -status); untouched outputs
 * on error. `called` false: the call was skipped (its arguments are valid but larger than what
 * was allocated: the other targets cover valid calls). */
void fa_judge(const char *op, col_status got, unsigned applies, bool outputs_kept) {
  const bool ok =
      applies == 0 ? got == COL_OK : got < 0 && got > -32 && (applies & (1u << -got)) != 0;
  if (ok && (got == COL_OK || outputs_kept)) return;
  fprintf(stderr, "fuzz args: %s returned %d (%s); documented errors that apply:", op, got,
          col_status_string(got));
  if (applies == 0) fputs(" none (COL_OK expected)", stderr);
  for (int s = 1; s < 32; s++)
    if (applies & (1u << s)) fprintf(stderr, " %d (%s)", -s, col_status_string((col_status)-s));
  fputc('\n', stderr);
  if (ok) fprintf(stderr, "fuzz args: %s wrote an output on error\n", op);
  fz_fail();
}

bool fa_fits(size_t count) { return count <= MAX_ALLOC; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  /* Operation bytes 0xF0-0xF7 pick the bipartite sweep and 0xF8-0xFF the registration of a
   * broadphase (the last ones added); the others keep the meaning they had before them, and
   * the corpus with them. */
  const uint8_t op = fz_u8(&r);
  switch (op >= 0xF8 ? 14 : op >= 0xF0 ? 13 : op % 13) {
  case 0: fa_aabb_query(&r, 2, false); break;
  case 1: fa_aabb_query(&r, 3, false); break;
  case 2: fa_aabb_query(&r, 2, true); break;
  case 3: fa_mtd_batch(&r); break;
  case 4: fa_circle_batch(&r, false); break;
  case 5: fa_circle_batch(&r, true); break;
  case 6: fa_segment_spheres(&r); break;
  case 7: fa_sprite_overlap(&r); break;
  case 8: fa_mask_overlap(&r); break;
  case 9: fa_pixel_move(&r, false); break;
  case 10: fa_pixel_move(&r, true); break;
  case 11: fa_sims(&r); break;
  case 13: fa_bipartite(&r); break;
  case 14: fa_register(&r); break;
  default: fa_broadphase(&r); break;
  }
  return 0;
}
