/* Argument fuzzing of the two simulations (see fuzz_args.c). */
#include "args.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The simulations: create with a NULL output or a count past UINT32_MAX (COL_ERR_OVERFLOW);
 * step with the checked arrays missing (x and scratch for the balls, box and scratch for the
 * world: COL_ERR_NULL when there is anything to move), pairing and algorithm out of range
 * (COL_ERR_ARGUMENT); nothing moves on error. */
void fa_sims(fz_reader *r) {
  /* sims.h: a NULL simulation is COL_ERR_NULL to a step, ignored by destroy. */
  fa_judge("col_balls_step", col_balls_step(NULL, COL_SIM_NAIVE, COL_BROADPHASE_SAP, NULL),
           ERR(COL_ERR_NULL), true);
  fa_judge("col_world_step", col_world_step(NULL, 1, COL_SIM_NAIVE, COL_BROADPHASE_SAP, NULL),
           ERR(COL_ERR_NULL), true);
  col_balls_destroy(NULL);
  col_world_destroy(NULL);
  const uint8_t bits = fz_u8(r);
  const bool world = bits & 1, out_null = bits & 2, first_null = bits & 4, scratch_null = bits & 8;
  const size_t n = fa_count(r);
  const int pairing = fa_enum(r), algorithm = fa_enum(r);
  const float width = fz_float(r), height = fz_float(r);
  col_balls b;
  col_world w;
  if (n > UINT32_MAX || out_null) {
    const col_status st = world
                              ? col_world_create(n, (col_vec2){width, height}, out_null ? NULL : &w)
                              : col_balls_create(n, width, height, out_null ? NULL : &b);
    fa_judge(world ? "col_world_create" : "col_balls_create", st,
             out_null ? ERR(COL_ERR_NULL) | (n > UINT32_MAX ? ERR(COL_ERR_OVERFLOW) : 0)
                      : ERR(COL_ERR_OVERFLOW),
             true);
    return;
  }
  if (!fa_fits(n)) return;
  /* The valid create and the step with an allocation failing (sims.h: the create's *out
   * untouched; the balls unchanged, the world's entities after the failed turn unchanged: with
   * only vertical motion and no contact here, x stays in both). */
  const uint8_t starve = fa_starve(r);
  if (starve & 0x80) {
    unsigned char
        mark[sizeof(col_world) > sizeof(col_balls) ? sizeof(col_world) : sizeof(col_balls)];
    memset(&w, CANARY, sizeof w), memset(&b, CANARY, sizeof b), memset(mark, CANARY, sizeof mark);
    fa_arm(starve);
    const col_status st = world ? col_world_create(n, (col_vec2){0, 0.25f}, &w)
                                : col_balls_create(n, width, height, &b);
    const bool kept =
        memcmp(world ? (void *)&w : (void *)&b, mark, world ? sizeof w : sizeof b) == 0;
    fa_judge_starved(world ? "col_world_create" : "col_balls_create", st, 0, kept, kept);
    if (st == COL_OK && world) col_world_destroy(&w);
    if (st == COL_OK && !world) col_balls_destroy(&b);
  }
  const col_status made = world ? col_world_create(n, (col_vec2){0, 0.25f}, &w)
                                : col_balls_create(n, width, height, &b);
  if (made != COL_OK) abort();
  for (size_t i = 0; i < n; i++) {
    if (world)
      w.box[i] = (col_aabb2){{(float)i, 0}, {(float)i + 0.5f, 1}}, w.weight[i] = 1;
    else
      b.x[i] = (float)i, b.y[i] = 1, b.vx[i] = 0.5f, b.radius[i] = 0.25f;
  }
  col_balls bs = b;
  col_world ws = w;
  if (world) {
    if (first_null) ws.box = NULL;
    if (scratch_null) ws.scratch = NULL;
  } else {
    if (first_null) bs.x = NULL;
    if (scratch_null) bs.scratch = NULL;
  }
  unsigned applies = 0;
  if (n > 0 && (first_null || scratch_null)) applies |= ERR(COL_ERR_NULL);
  if ((pairing != COL_SIM_NAIVE && pairing != COL_SIM_BROADPHASE) || algorithm < 0 ||
      (size_t)algorithm >= col_broadphase_count())
    applies |= ERR(COL_ERR_ARGUMENT);
  fa_arm((uint8_t)(starve << 1 & 0x80) | (starve & 0x3f));
  const col_status st =
      world ? col_world_step(&ws, 1, (col_sim_pairs)pairing, (col_broadphase)algorithm, NULL)
            : col_balls_step(&bs, (col_sim_pairs)pairing, (col_broadphase)algorithm, NULL);
  bool kept = true;
  for (size_t i = 0; i < n; i++)
    kept = kept && (world ? w.box[i].min.x == (float)i : b.x[i] == (float)i);
  fa_judge_starved(world ? "col_world_step" : "col_balls_step", st, applies, kept, kept);
  if (world)
    col_world_destroy(&w);
  else
    col_balls_destroy(&b);
}
