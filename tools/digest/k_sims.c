/* The digest's simulations: the bouncing balls and the platformer world, naive and
 * broadphase-backed (sweep and prune), a few hundred objects over frames, the world also with
 * its sweep for fast movers on; every object's state after each frame is the answer. */
#include "digest.h"

#include <stdlib.h>

static void balls(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  const size_t n = 2 + dg_below(c, 300);
  const float side = 16.0f * (float)(4 + dg_below(c, 60));
  col_balls b;
  col_status st = col_balls_create(n, side, side, &b);
  dg_out_status(c, "create", st);
  if (st != COL_OK) return;
  for (size_t i = 0; i < n; i++) {
    b.x[i] = dg_size(c, 1) * side / 8.0f, b.y[i] = dg_size(c, 1) * side / 8.0f;
    b.vx[i] = dg_coord(c, 1) / 4.0f, b.vy[i] = dg_coord(c, 1) / 4.0f;
    b.radius[i] = 1.0f + dg_size(c, 0); /* mass = radius: positive */
  }
  dg_in_floats(c, "width = height", &b.width, 1);
  dg_in_floats(c, "x", b.x, n), dg_in_floats(c, "y", b.y, n);
  dg_in_floats(c, "vx", b.vx, n), dg_in_floats(c, "vy", b.vy, n);
  dg_in_floats(c, "radius", b.radius, n);
  const int frames = 4 + (int)dg_below(c, 12);
  dg_in_int(c, "frames", frames);
  const col_sim_pairs pairing = k->arg ? COL_SIM_BROADPHASE : COL_SIM_NAIVE;
  for (int f = 0; f < frames && st == COL_OK; f++) {
    st = col_balls_step(&b, pairing, COL_BROADPHASE_SAP, NULL);
    dg_out_status(c, "step", st);
    dg_out_floats(c, "x", b.x, n), dg_out_floats(c, "y", b.y, n);
    dg_out_floats(c, "vx", b.vx, n), dg_out_floats(c, "vy", b.vy, n);
  }
  col_balls_destroy(&b);
}

static void world(dg_ctx *c, const dg_kernel *k, uint32_t index) {
  (void)index;
  const size_t n = 2 + dg_below(c, 200);
  const col_vec2 gravity = {0.0f, dg_chance(c, 32) ? dg_coord(c, 4) : -0.5f};
  col_world w;
  col_status st = col_world_create(n, gravity, &w);
  dg_out_status(c, "create", st);
  if (st != COL_OK) return;
  const float spread = (float)(1 + dg_below(c, 8));
  for (size_t i = 0; i < n; i++) {
    const float x = dg_coord(c, 1) * spread, y = dg_coord(c, 1) * spread;
    w.box[i] = (col_aabb2){{x, y}, {x + dg_size(c, 1), y + dg_size(c, 1)}};
    w.velocity[i] = (col_vec2){dg_coord(c, 1) / 4.0f, dg_coord(c, 1) / 4.0f};
    w.weight[i] = dg_chance(c, 64) ? 0.0f : dg_size(c, 1);
  }
  const float dt = dg_chance(c, 200) ? 1.0f / 60.0f : dg_size(c, 2);
  /* The swept group (arg bit 1): a threshold, and velocities up to 16 times as fast, drawn after
   * the unswept group's inputs so that those stay as they were. */
  if (k->arg & 2) {
    const float thresholds[4] = {0.5f, 0.25f, 1.0f, 0x1p-6f};
    w.sweep_above = thresholds[dg_below(c, 4)];
    const float boost = (float)(1 + dg_below(c, 16));
    for (size_t i = 0; i < n; i++) w.velocity[i].x *= boost, w.velocity[i].y *= boost;
    dg_in_floats(c, "sweep_above", &w.sweep_above, 1);
  }
  dg_in_floats(c, "gravity", &gravity.x, 2);
  dg_in_floats(c, "dt", &dt, 1);
  dg_in_floats(c, "boxes", &w.box[0].min.x, 4 * n);
  dg_in_floats(c, "velocities", &w.velocity[0].x, 2 * n);
  dg_in_floats(c, "weights", w.weight, n);
  const int frames = 4 + (int)dg_below(c, 12);
  dg_in_int(c, "frames", frames);
  const col_sim_pairs pairing = k->arg & 1 ? COL_SIM_BROADPHASE : COL_SIM_NAIVE;
  for (int f = 0; f < frames && st == COL_OK; f++) {
    st = col_world_step(&w, dt, pairing, COL_BROADPHASE_SAP, NULL);
    dg_out_status(c, "step", st);
    dg_out_floats(c, "boxes", &w.box[0].min.x, 4 * n);
    dg_out_floats(c, "velocities", &w.velocity[0].x, 2 * n);
  }
  col_world_destroy(&w);
}

size_t dg_sims_kernels(dg_kernel *out) {
  const dg_kernel k[] = {
      {"balls_step.naive", 48, COL_KERNEL_ALL, 0, balls, "balls_step"},
      {"balls_step.broadphase", 48, COL_KERNEL_ALL, 1, balls, "balls_step"},
      {"world_step.naive", 48, COL_KERNEL_ALL, 0, world, "world_step"},
      {"world_step.broadphase", 48, COL_KERNEL_ALL, 1, world, "world_step"},
      /* arg: bit 0 the broadphase, bit 1 the sweep for fast movers (col_world.sweep_above) */
      {"world_step_swept.naive", 48, COL_KERNEL_ALL, 2, world, "world_step_swept"},
      {"world_step_swept.broadphase", 48, COL_KERNEL_ALL, 3, world, "world_step_swept"},
  };
  return dg_copy_kernels(out, k, sizeof k / sizeof k[0]);
}
