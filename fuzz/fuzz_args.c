/* Argument fuzz target: every public entry point that takes pointers, sizes or enums, called
 * with decoded arguments that are often invalid (NULL pointers, negative or overflowing sizes,
 * strides, counts past UINT32_MAX, enums out of range). The oracle is the header's error list
 * for that function, written out here independently: a call must return one of the errors
 * that apply (OK exactly when none does), and on an error leave every output untouched (they
 * start as canaries) and read nothing (arrays are allocated to exactly what they hold, which
 * may be less than a count that is being refused, so a read past them is an ASan report).
 * Calls that allocate once their arguments pass are also made with an allocation failing (a
 * byte after their arguments asks for it; args.h), against the header's state for
 * COL_ERR_MEMORY.
 * Input: an operation byte, then the operation's argument bytes (see each operation in args/);
 * the broadphase operation's NULL-flags byte also picks the per-frame cache (bit 6) and a NULL
 * cache (bit 7). */
#include "args/args.h"

const char fz_target[] = "args";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_reader r = {data, size};
  /* Operation bytes 0xF0-0xF7 pick the bipartite sweep, 0xF8-0xFF the registration of a
   * broadphase, 0xE0-0xEF the calls added after them (the registry, the thread pool, ...); the
   * others keep the meaning they had before them, and the corpus with them. */
  const uint8_t op = fz_u8(&r);
  if (op >= 0xE0 && op < 0xF0) {
    const unsigned later = op - 0xE0u;
    if (later < 4)
      fa_registry(&r);
    else if (later < 6)
      fa_pool(&r);
    else if (later < 8)
      fa_parallel(&r);
    else if (later < 12)
      fa_scene(&r);
    else if (later < 14)
      fa_cache_settings(&r);
    else if (later < 15)
      fa_masks(&r);
    else
      fa_stream(&r);
    return 0;
  }
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
