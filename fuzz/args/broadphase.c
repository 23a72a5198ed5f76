/* Argument fuzzing of the broadphases: the pair search (with the per-frame cache) and the
 * bipartite sweep (see fuzz_args.c; the cache's settings and the streamed search: cache.c). */
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
  /* Static marks (pick bit 3, when the algorithm is not an odd value): the static rule's call,
   * or (bit 4) its parallel form on the built-in pool, which takes any dims sweep and prune
   * takes; bit 5 a NULL marks array (the plain call). The cache gets the marks set, one more
   * than the boxes when bit 5 is set (the update's SIZE); bit 4 turns its contact events on,
   * asked for after the update (ARGUMENT after a failed one). */
  const bool marked = !(pick & 0x80) && (pick & 8), par_static = marked && !cached && (pick & 16);
  const bool marks_null = marked && !cached && (pick & 32);
  const bool marks_over = marked && cached && (pick & 32),
             tracked = marked && cached && (pick & 16);
  uint8_t *marks = NULL;
  if (marked && !marks_null) { /* a count too large to allocate fails its checks first */
    const size_t room = fa_fits(n) ? n + 1 : 1;
    marks = fz_alloc(room);
    for (size_t i = 0; i < room; i++) marks[i] = (uint8_t)(i % 3 == 0);
  }
  if (par_static) applies &= ~ERR(COL_ERR_ARGUMENT) & ~ERR(COL_ERR_SIZE);
  if (par_static && ((dims != 2 && dims != 3) || n > UINT32_MAX)) applies |= ERR(COL_ERR_SIZE);
  if (par_static && !fa_valid01(touch)) applies |= ERR(COL_ERR_ARGUMENT);
  const bool marks_set = marked && cached && fa_fits(n); /* the marks' copy is allocated */
  if (marks_over && marks_set) applies |= ERR(COL_ERR_SIZE);
  const uint8_t starve = fa_starve(r);
  if (starve & 0x40)
    fa_push_starved(&out, 7, 9);
  else
    col_pairs_push(&out, 7, 9);
  if (applies != 0 || fa_fits(n)) {
    col_status st;
    col_broadphase_cache *cache = NULL;
    if (cached) {
      if (col_broadphase_cache_create(&cache) != COL_OK) abort();
      if (marks_set && col_broadphase_cache_set_static(cache, marks, n + marks_over) != COL_OK)
        abort();
      if (tracked && col_broadphase_cache_track_changes(cache, true) != COL_OK) abort();
      fa_arm(starve);
      if (listed)
        st = col_broadphase_cache_update_moved(
            cache_null ? NULL : cache, boxes_null ? NULL : &boxes, list_null ? NULL : list,
            list_count, (col_touch)touch, out_null ? NULL : &out, NULL);
      else
        st = col_broadphase_cache_update(cache_null ? NULL : cache, boxes_null ? NULL : &boxes,
                                         (col_touch)touch, out_null ? NULL : &out, NULL);
    } else if (par_static) {
      fa_arm(starve);
      st = col_broadphase_pairs_parallel_static(boxes_null ? NULL : &boxes, marks, (col_touch)touch,
                                                NULL, out_null ? NULL : &out, NULL);
    } else if (marked) {
      fa_arm(starve);
      st = col_broadphase_pairs_static((col_broadphase)algorithm, boxes_null ? NULL : &boxes, marks,
                                       (col_touch)touch, out_null ? NULL : &out, NULL);
    } else {
      fa_arm(starve);
      st = col_broadphase_pairs((col_broadphase)algorithm, boxes_null ? NULL : &boxes,
                                (col_touch)touch, out_null ? NULL : &out, NULL);
    }
    /* broadphase.h: COL_ERR_MEMORY empties the list (and resets the cache) */
    fa_judge_starved(listed       ? "col_broadphase_cache_update_moved"
                     : cached     ? "col_broadphase_cache_update"
                     : par_static ? "col_broadphase_pairs_parallel_static"
                     : marked     ? "col_broadphase_pairs_static"
                                  : "col_broadphase_pairs",
                     st, applies,
                     /* parallel.h: the parallel calls empty `out` on any error */
                     par_static && !out_null
                         ? out.count == 0
                         : out.count == 1 && out.data[0].a == 7 && out.data[0].b == 9,
                     out.count == 0);
    /* The contact events of the update: there when it succeeded, ARGUMENT otherwise. */
    if (tracked && !cache_null) {
      col_pairs began = {0}, ended = {0};
      const col_status ch = col_broadphase_cache_changes(cache, &began, &ended);
      if (ch != (st == COL_OK ? COL_OK : COL_ERR_ARGUMENT)) {
        fprintf(stderr,
                "fuzz args: col_broadphase_cache_changes after an update of status %d: %d\n",
                (int)st, (int)ch);
        fz_fail();
      }
      col_pairs_free(&began), col_pairs_free(&ended);
    }
    col_broadphase_cache_destroy(cache);
  }
  free(marks);
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
  const uint8_t starve = fa_starve(r);
  if (starve & 0x40)
    fa_push_starved(&out, 7, 9);
  else
    col_pairs_push(&out, 7, 9);
  if (applies != 0 || all_fit) {
    fa_arm(starve);
    const col_status st = col_broadphase_bipartite((nulls[0] & 0xC0) == 0xC0 ? NULL : &set[0],
                                                   (nulls[1] & 0xC0) == 0xC0 ? NULL : &set[1],
                                                   (col_touch)touch, out_null ? NULL : &out, NULL);
    fa_judge_starved("col_broadphase_bipartite", st, applies,
                     out.count == 1 && out.data[0].a == 7 && out.data[0].b == 9, out.count == 0);
  }
  col_pairs_free(&out);
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 6; k++) free(v[s][k]);
}
