/* Argument fuzzing of the broadphases: the pair search, the per-frame cache, the bipartite
 * sweep and the registration of a broadphase of one's own (see fuzz_args.c). */
#include "args.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void fa_broadphase(fz_reader *r) {
  const uint8_t nulls = fz_u8(r);
  const size_t n = fa_count(r);
  static const unsigned dims_values[4] = {2, 3, 0, 4};
  const unsigned dims = dims_values[fz_u8(r) & 3];
  const int touch = fa_enum(r);
  static const int odd[4] = {-1, 1000, INT_MAX, INT_MIN};
  const uint8_t pick = fz_u8(r);
  const int algorithm = pick & 0x80 ? odd[pick & 3] : (int)(pick % 8);
  float *v[6];
  bool arrays = true;
  for (int k = 0; k < 6; k++) {
    v[k] = fa_floats(r, n, nulls & (1u << k));
    if (k % 3 < (int)(dims < 3 ? dims : 3)) arrays = arrays && v[k] != NULL;
  }
  const bool boxes_null = fz_u8(r) == 0xEE, out_null = fz_u8(r) == 0xEE;
  const col_boxes boxes = {dims, {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, n};
  col_pairs out = {0};
  col_pairs_push(&out, 7, 9);
  col_broadphase_info info = {0};
  /* Bit 6: the per-frame cache instead (its algorithm is set apart; bit 7: a NULL cache). */
  const bool cached = nulls & 0x40, cache_null = cached && (nulls & 0x80);
  const bool known = cached || (algorithm >= 0 && col_broadphase_at((size_t)algorithm, &info));
  /* collide.h: NULL (boxes, out, or an array with count > 0; the cache), SIZE (dims not 2 or 3,
   * count > UINT32_MAX, a dimension the algorithm does not take), ARGUMENT (touch, algorithm). */
  unsigned applies = 0;
  if (boxes_null || out_null || cache_null || (n > 0 && (dims == 2 || dims == 3) && !arrays))
    applies |= ERR(COL_ERR_NULL);
  if ((dims != 2 && dims != 3) || n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
  if (!cached && known && ((dims == 2 && !info.two_d) || (dims == 3 && !info.three_d)))
    applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(touch) || !known) applies |= ERR(COL_ERR_ARGUMENT);
  /* The cache told which boxes moved (pick bit 0): up to 3 listed indices, each possibly past
   * the count (SIZE when the boxes are otherwise valid), or a NULL list (pick bit 6: NULL
   * when it has entries, fine when it has none). */
  const bool listed = cached && (pick & 1);
  const size_t list_count = (pick >> 1) & 3;
  const bool list_null = listed && (pick & 0x40); /* with no entry, NULL is allowed */
  uint32_t list[3];
  for (size_t q = 0; q < list_count; q++) list[q] = (uint32_t)(fz_u8(r) % (n + 2));
  if (list_null && list_count > 0) applies |= ERR(COL_ERR_NULL);
  if (listed && !list_null)
    for (size_t q = 0; q < list_count; q++)
      if (list[q] >= n) applies |= ERR(COL_ERR_SIZE);
  if (applies != 0 || fa_fits(n)) {
    col_status st;
    if (cached) {
      col_broadphase_cache *cache = NULL;
      if (col_broadphase_cache_create(&cache) != COL_OK) abort();
      if (listed)
        st = col_broadphase_cache_update_moved(
            cache_null ? NULL : cache, boxes_null ? NULL : &boxes, list_null ? NULL : list,
            list_count, (col_touch)touch, out_null ? NULL : &out, NULL);
      else
        st = col_broadphase_cache_update(cache_null ? NULL : cache, boxes_null ? NULL : &boxes,
                                         (col_touch)touch, out_null ? NULL : &out, NULL);
      col_broadphase_cache_destroy(cache);
    } else {
      st = col_broadphase_pairs((col_broadphase)algorithm, boxes_null ? NULL : &boxes,
                                (col_touch)touch, out_null ? NULL : &out, NULL);
    }
    fa_judge(listed   ? "col_broadphase_cache_update_moved"
             : cached ? "col_broadphase_cache_update"
                      : "col_broadphase_pairs",
             st, applies, out.count == 1 && out.data[0].a == 7 && out.data[0].b == 9);
  }
  col_pairs_free(&out);
  for (int k = 0; k < 6; k++) free(v[k]);
}

/* Bipartite sweep and prune: two sets, each NULL, of any dims (2, 3, 0, 4) and count, with
 * arrays missing (flags), touch out of range, a NULL output. collide.h: errors as
 * col_broadphase_pairs (NULL: a set, out, or an array of a set with count > 0; SIZE: dims not
 * 2 or 3, count > UINT32_MAX, and the two sets' dims differing; ARGUMENT: touch). */
void fa_bipartite(fz_reader *r) {
  static const unsigned dims_values[4] = {2, 3, 0, 4};
  const uint8_t nulls[2] = {fz_u8(r), fz_u8(r)};
  const int touch = fa_enum(r);
  const bool out_null = fz_u8(r) == 0xEE;
  float *v[2][6];
  col_boxes set[2];
  unsigned applies = 0;
  bool all_fit = true;
  for (int s = 0; s < 2; s++) {
    const size_t n = fa_count(r);
    const unsigned dims = dims_values[fz_u8(r) & 3];
    bool arrays = true;
    for (int k = 0; k < 6; k++) {
      v[s][k] = fa_floats(r, n, nulls[s] & (1u << k));
      if (k % 3 < (int)(dims < 3 ? dims : 3)) arrays = arrays && v[s][k] != NULL;
    }
    set[s] = (col_boxes){dims, {v[s][0], v[s][1], v[s][2]}, {v[s][3], v[s][4], v[s][5]}, n};
    if ((nulls[s] & 0xC0) == 0xC0 || (n > 0 && (dims == 2 || dims == 3) && !arrays))
      applies |= ERR(COL_ERR_NULL);
    if ((dims != 2 && dims != 3) || n > UINT32_MAX) applies |= ERR(COL_ERR_SIZE);
    all_fit = all_fit && fa_fits(n);
  }
  if (out_null) applies |= ERR(COL_ERR_NULL);
  if (set[0].dims != set[1].dims) applies |= ERR(COL_ERR_SIZE);
  if (!fa_valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  col_pairs out = {0};
  col_pairs_push(&out, 7, 9);
  if (applies != 0 || all_fit) {
    const col_status st = col_broadphase_bipartite((nulls[0] & 0xC0) == 0xC0 ? NULL : &set[0],
                                                   (nulls[1] & 0xC0) == 0xC0 ? NULL : &set[1],
                                                   (col_touch)touch, out_null ? NULL : &out, NULL);
    fa_judge("col_broadphase_bipartite", st, applies,
             out.count == 1 && out.data[0].a == 7 && out.data[0].b == 9);
  }
  col_pairs_free(&out);
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 6; k++) free(v[s][k]);
}

/* The broadphase registered here: brute force, so that any later call through it (the other
 * operations pick algorithms by index) is exact. It checks what the header promises it:
 * validated boxes, an emptied list, zeroed stats; and reports stats of its own, which
 * col_broadphase_pairs must pass on. */
enum { USER_TESTS = 42, USER_SCRATCH = 7 };
static col_status user_pairs(const col_boxes *boxes, col_touch touch, col_pairs *out,
                             col_broadphase_stats *stats, void *context) {
  if (context != &user_pairs || boxes == NULL || out == NULL || out->count != 0 || stats == NULL ||
      stats->tests != 0 || stats->pairs != 0 || stats->scratch_bytes != 0 ||
      (boxes->dims != 2 && boxes->dims != 3) || !fa_valid01((int)touch)) {
    fputs("fuzz args: a registered broadphase got arguments the header rules out\n", stderr);
    fz_fail();
  }
  stats->tests = USER_TESTS, stats->scratch_bytes = USER_SCRATCH;
  return col_broadphase_pairs(COL_BROADPHASE_BRUTE, boxes, touch, out, NULL);
}

/* col_broadphase_register with a name from a list (NULL, empty, too long, a bad character, and
 * valid ones, some of them taken by then), a wrong version, NULL pointers, neither 2D nor 3D.
 * backends.h: NULL (broadphase, name, pairs, algorithm), VERSION, ARGUMENT (the name, neither
 * dimension), EXISTS (the name taken), SIZE (COL_USER_MAX user broadphases already); on error
 * nothing changes. On success *algorithm is the registry's former count, and the registry lists
 * the new broadphase under "user:<name>" with its dimensions, which then finds brute force's
 * pairs. The registry lives for the process: names registered by earlier inputs stay taken, and
 * once it is full every valid registration must get SIZE. */
void fa_register(fz_reader *r) {
  static const char *const names[12] = {NULL,
                                        "",
                                        "two words",
                                        "slash/",
                                        "abcdefghijklmnopqrstuvwxyz0123456", /* 33 characters */
                                        "abcdefghijklmnopqrstuvwxyz012345",  /* 32 */
                                        "fuzz-0",
                                        "fuzz-1",
                                        "fuzz_2",
                                        "F.3",
                                        "fuzz-0",
                                        "brute"};
  const uint8_t pick = fz_u8(r), bits = fz_u8(r), version = fz_u8(r);
  const char *name = names[pick % 12];
  const col_user_broadphase bp = {version < 0xF0 ? COL_USER_VERSION : version & 3u,
                                  name,
                                  bits & 1 ? NULL : user_pairs,
                                  (void *)&user_pairs,
                                  (bits & 2) != 0,
                                  (bits & 4) != 0};
  const bool bp_null = bits & 8, out_null = bits & 16;
  /* Taken names: walk the registry as it is (earlier inputs, USER_KERNELS). */
  const size_t before = col_broadphase_count();
  size_t users = 0;
  bool taken = false;
  char full[64] = "";
  if (name != NULL) snprintf(full, sizeof full, "user:%s", name);
  for (size_t k = 0; k < before; k++) {
    col_broadphase_info info;
    if (!col_broadphase_at(k, &info)) fz_fail();
    users += strncmp(info.name, "user:", 5) == 0;
    taken = taken || strcmp(info.name, full) == 0;
  }
  bool name_ok = name != NULL && name[0] != '\0' && strlen(name) <= 32;
  for (const char *c = name; name_ok && *c != '\0'; c++)
    name_ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '-' || *c == '.';
  unsigned applies = 0;
  if (bp_null || out_null || name == NULL || bp.pairs == NULL) applies |= ERR(COL_ERR_NULL);
  if (bp.version != COL_USER_VERSION) applies |= ERR(COL_ERR_VERSION);
  if ((name != NULL && !name_ok) || !(bp.two_d || bp.three_d)) applies |= ERR(COL_ERR_ARGUMENT);
  if (taken) applies |= ERR(COL_ERR_EXISTS);
  if (users >= COL_USER_MAX) applies |= ERR(COL_ERR_SIZE);
  col_broadphase algorithm;
  memset(&algorithm, CANARY, sizeof algorithm);
  const col_status st = col_broadphase_register(bp_null ? NULL : &bp, out_null ? NULL : &algorithm);
  const size_t after = col_broadphase_count();
  fa_judge("col_broadphase_register", st, applies,
           fa_untouched(&algorithm, sizeof algorithm) && after == before);
  if (st != COL_OK) return;
  col_broadphase_info info;
  if ((size_t)algorithm != before || after != before + 1 || !col_broadphase_at(before, &info) ||
      strcmp(info.name, full) != 0 || info.algorithm != algorithm || info.uses_backend ||
      info.two_d != bp.two_d || info.three_d != bp.three_d) {
    fprintf(stderr,
            "fuzz args: registering \"%s\" (2D %d, 3D %d) gave algorithm %d, %zu -> %zu "
            "broadphases, listed as \"%s\"\n",
            name, bp.two_d, bp.three_d, (int)algorithm, before, after,
            after > before && col_broadphase_at(before, &info) ? info.name : "(nothing)");
    fz_fail();
  }
  /* Two boxes that touch, in the dimensions it takes: one pair, its stats passed on. */
  const float lo[2] = {0, 1}, hi[2] = {1, 2};
  const col_boxes two = {bp.two_d ? 2u : 3u, {lo, lo, lo}, {hi, hi, hi}, 2};
  col_pairs out = {0};
  col_broadphase_stats stats;
  const col_status found = col_broadphase_pairs(algorithm, &two, COL_TOUCH_OVERLAPS, &out, &stats);
  if (found != COL_OK || out.count != 1 || out.data[0].a != 0 || out.data[0].b != 1 ||
      stats.tests != USER_TESTS || stats.pairs != 1 || stats.scratch_bytes != USER_SCRATCH) {
    fprintf(stderr,
            "fuzz args: the broadphase registered as \"%s\" returned %d, %zu pairs, "
            "stats %zu tests %zu pairs %zu bytes\n",
            full, st, out.count, (size_t)stats.tests, (size_t)stats.pairs,
            (size_t)stats.scratch_bytes);
    fz_fail();
  }
  col_pairs_free(&out);
}
