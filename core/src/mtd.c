/* Minimum translation distance (DESIGN.md 4.2): the public single pair (the reference, from
 * mtd_ref.h) and the batch's argument checks and dispatch. */
#include "mtd_ref.h"

col_mtd col_aabb2_mtd(col_aabb2 a, col_aabb2 b) { return col__mtd_ref(a, b); }

col_status col_aabb2_mtd_batch(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out) {
  if (n > 0 && (a == NULL || b == NULL || out == NULL)) return COL_ERR_NULL;
  const col__backend *be;
  col_status st = col__backend_active(&be);
  if (st != COL_OK) return st;
  if (n > 0) be->k.aabb2_mtd_batch(n, a, b, out);
  return COL_OK;
}
