/* The platformer world step's sweep for fast movers (sims.h, col_world.sweep_above): a box
 * that tunnels through a thin wall today stops at it with the sweep on; a box sliding along
 * a floor of tiles is not caught by the seams; the sweep off (0, negative, NaN) is the seed's
 * step bit for bit; the naive step equals sims.h's text written out here (every other box
 * swept: the library skips those it proves the sweep cannot hit); and the broadphase-backed
 * steps equal the naive loop bit for bit with the sweep on, every algorithm, many random
 * worlds fast enough to cut moves and send entities wild. */
#include "helpers.h"

#define MAX_ALG 16
#define NALG    col_broadphase_count()
#define ALG(a)  algorithm_at(a).algorithm

/* Steps `w` once naively (a < 0) or with algorithm a. */
static void step(col_world *w, float dt, long a) {
  const col_sim_pairs pairing = a < 0 ? COL_SIM_NAIVE : COL_SIM_BROADPHASE;
  const col_broadphase alg = a < 0 ? COL_BROADPHASE_BRUTE : ALG((size_t)a);
  cr_assert_eq(col_world_step(w, dt, pairing, alg, NULL), COL_OK);
}

/* A wall half a unit thick at x = 10 and a unit box moving 20 a frame to the right (and 3
 * down on y, where nothing is in the way): without the sweep it lands beyond the wall (at
 * x 20), with it it stops against the wall, its x velocity 0, its y move made in full. */
Test(sim_sweep, a_fast_mover_stops_at_a_thin_wall) {
  for (long a = -1; a < (long)NALG; a++)
    for (int on = 0; on < 2; on++) {
      col_world w;
      cr_assert_eq(col_world_create(2, (col_vec2){0, 0}, &w), COL_OK);
      w.box[0] = (col_aabb2){{10, -10}, {10.5f, 10}};
      w.box[1] = (col_aabb2){{0, 0}, {1, 1}};
      w.velocity[1] = (col_vec2){20, 3};
      w.sweep_above = on ? 0.5f : 0.0f;
      step(&w, 1.0f, a);
      const col_aabb2 b = w.box[1];
      if (!on) {
        assert_float_bits(b.min.x, 20.0f, "algorithm %ld: the seed's step tunnels", a);
        assert_float_bits(w.velocity[1].x, 20.0f);
      } else {
        cr_expect(b.max.x <= 10.0f && b.max.x >= 10.0f - 0x1p-16f,
                  "algorithm %ld: stopped at the wall, max x %a", a, (double)b.max.x);
        assert_float_bits(w.velocity[1].x, 0.0f);
      }
      assert_float_bits(b.min.y, 3.0f);
      assert_float_bits(w.velocity[1].y, 3.0f);
      assert_float_bits(w.box[0].min.x, 10.0f); /* the wall stays */
      col_world_destroy(&w);
    }
}

/* A box resting on two floor tiles that meet at x = 10, moving 5 a frame to the right under
 * gravity: the x sweep slides along the tiles' tops (no hit under the open rule), so the seam
 * does not stop it; with a threshold small enough to sweep the fall too, the fall into the
 * floor it touches hits at t = 0 and it stays exactly on top. */
Test(sim_sweep, a_box_sliding_over_a_seam_is_not_caught) {
  for (long a = -1; a < (long)NALG; a++)
    for (int k = 0; k < 2; k++) {
      col_world w;
      cr_assert_eq(col_world_create(3, (col_vec2){0, -0.125f}, &w), COL_OK);
      w.box[0] = (col_aabb2){{0, -1}, {10, 0}};
      w.box[1] = (col_aabb2){{10, -1}, {40, 0}};
      w.box[2] = (col_aabb2){{1, 0}, {2, 1}};
      w.velocity[2] = (col_vec2){5, 0};
      w.weight[2] = 1;
      w.sweep_above = k == 0 ? 0.5f : 0.0625f;
      for (int frame = 0; frame < 4; frame++) step(&w, 1.0f, a);
      assert_float_bits(w.box[2].min.x, 21.0f, "algorithm %ld threshold %d", a, k);
      assert_float_bits(w.box[2].min.y, 0.0f, "algorithm %ld threshold %d", a, k);
      assert_float_bits(w.velocity[2].x, 5.0f);
      col_world_destroy(&w);
    }
}

/* Random worlds: platforms and boxes, some of them piled up, moving fast. */
static void random_world(col_world *w, uint64_t *rng, float speed, bool pile) {
  for (size_t i = 0; i < w->count; i++) {
    const bool platform = i % 4 == 0;
    float x = (float)rand_below(rng, 4000) / 10.0f, y = (float)rand_below(rng, 3000) / 10.0f;
    if (pile && !platform)
      x = 200.0f + (float)rand_below(rng, 100) / 10.0f,
      y = 150.0f + (float)rand_below(rng, 100) / 10.0f;
    const float sx =
        platform ? 20.0f + (float)rand_below(rng, 60) : 1.0f + (float)rand_below(rng, 8);
    const float sy = platform ? 0.5f + (float)rand_below(rng, 4) : 1.0f + (float)rand_below(rng, 8);
    w->box[i] = (col_aabb2){{x, y}, {x + sx, y + sy}};
    w->weight[i] = platform ? 0.0f : 0.5f + (float)rand_below(rng, 4) / 4.0f;
    const float vx = ((float)rand_below(rng, 201) - 100.0f) / 100.0f * speed;
    const float vy = ((float)rand_below(rng, 201) - 100.0f) / 100.0f * speed;
    w->velocity[i] = platform && i % 8 == 0 ? (col_vec2){0, 0} : (col_vec2){vx, vy};
  }
}

static void copy_world(col_world *to, const col_world *from) {
  memcpy(to->box, from->box, from->count * sizeof *from->box);
  memcpy(to->velocity, from->velocity, from->count * sizeof *from->velocity);
  memcpy(to->weight, from->weight, from->count * sizeof *from->weight);
  to->sweep_above = from->sweep_above;
}

static bool same_world(const col_world *a, const col_world *b) {
  return memcmp(a->box, b->box, a->count * sizeof *a->box) == 0 &&
         memcmp(a->velocity, b->velocity, a->count * sizeof *a->velocity) == 0;
}

/* 0, a negative value, NaN and a threshold no move reaches are all the seed's step. */
Test(sim_sweep, off_is_the_seed_step) {
  uint64_t rng = 17;
  const float off[3] = {-1.0f, NAN, 1e30f};
  col_world ref, w[3];
  const size_t n = 120;
  cr_assert_eq(col_world_create(n, (col_vec2){0, 0.5f}, &ref), COL_OK);
  random_world(&ref, &rng, 30.0f, false);
  for (int k = 0; k < 3; k++) {
    cr_assert_eq(col_world_create(n, ref.gravity, &w[k]), COL_OK);
    copy_world(&w[k], &ref);
    w[k].sweep_above = off[k];
  }
  for (int frame = 0; frame < 40; frame++) {
    step(&ref, 0.5f, -1);
    for (int k = 0; k < 3; k++) {
      step(&w[k], 0.5f, frame % 2 ? -1 : (long)((size_t)frame % NALG));
      cr_assert(same_world(&ref, &w[k]), "frame %d, sweep_above %g: differs", frame,
                (double)off[k]);
    }
  }
  col_world_destroy(&ref);
  for (int k = 0; k < 3; k++) col_world_destroy(&w[k]);
}

Test(sim_sweep, broadphase_steps_equal_the_naive_loop) {
  uint64_t rng = 23;
  int changed = 0;
  for (int scene = 0; scene < 8; scene++) {
    const size_t n = 20 + 30 * (size_t)scene;
    const float speed = scene % 2 ? 60.0f : 8.0f;
    const float thresholds[4] = {0.5f, 0.25f, 2.0f, 0x1p-10f};
    col_world ref, unswept, bp[MAX_ALG];
    cr_assert_eq(col_world_create(n, (col_vec2){0, 0.5f}, &ref), COL_OK);
    random_world(&ref, &rng, speed, scene % 3 == 2);
    ref.sweep_above = thresholds[scene % 4];
    cr_assert_eq(col_world_create(n, ref.gravity, &unswept), COL_OK);
    copy_world(&unswept, &ref);
    unswept.sweep_above = 0;
    for (size_t a = 0; a < NALG; a++) {
      cr_assert_eq(col_world_create(n, ref.gravity, &bp[a]), COL_OK);
      copy_world(&bp[a], &ref);
    }
    for (int frame = 0; frame < 60; frame++) {
      step(&ref, 0.25f, -1);
      step(&unswept, 0.25f, -1);
      changed += !same_world(&ref, &unswept);
      for (size_t a = 0; a < NALG; a++) {
        step(&bp[a], 0.25f, (long)a);
        cr_assert(same_world(&ref, &bp[a]), "scene %d frame %d algorithm %zu: worlds differ", scene,
                  frame, a);
      }
    }
    col_world_destroy(&ref);
    col_world_destroy(&unswept);
    for (size_t a = 0; a < NALG; a++) col_world_destroy(&bp[a]);
  }
  cr_expect_gt(changed, 0, "the sweep should change some frames");
}

/* sims.h's step with the sweep, written from its text: every other box swept on a fast axis. */
static float defined_move(col_world *w, size_t i, int axis, float d) {
  const col_aabb2 b = w->box[i];
  const float side = axis == 0 ? b.max.x - b.min.x : b.max.y - b.min.y;
  if (!(w->sweep_above > 0 && fabsf(d) > w->sweep_above * side)) return d;
  const col_vec2 move = axis == 0 ? (col_vec2){d, 0} : (col_vec2){0, d};
  bool hit = false;
  float t = 0;
  for (size_t j = 0; j < w->count; j++) {
    const col_aabb2_hit h =
        j == i ? (col_aabb2_hit){0} : col_sweep_aabb2(b, move, w->box[j], COL_TOUCH_SEPARATES);
    if (h.hit && (h.normal.x != 0 || h.normal.y != 0) && (!hit || h.t < t)) hit = true, t = h.t;
  }
  if (!hit) return d;
  *(axis == 0 ? &w->velocity[i].x : &w->velocity[i].y) = 0;
  return t * d;
}

static void defined_step(col_world *w, float dt) {
  for (size_t i = 0; i < w->count; i++) {
    col_vec2 *v = &w->velocity[i];
    v->x = v->x + w->gravity.x * w->weight[i];
    v->y = v->y + w->gravity.y * w->weight[i];
    col_aabb2 *b = &w->box[i];
    const float dx = defined_move(w, i, 0, v->x * dt);
    b->min.x += dx, b->max.x += dx;
    const float dy = defined_move(w, i, 1, v->y * dt);
    b->min.y += dy, b->max.y += dy;
    for (size_t j = 0; j < w->count; j++) {
      const col_mtd m = j == i ? (col_mtd){0} : col_aabb2_mtd(*b, w->box[j]);
      if (!m.hit) continue;
      if (m.d.x != 0)
        b->min.x += m.d.x, b->max.x += m.d.x, v->x = 0;
      else
        b->min.y += m.d.y, b->max.y += m.d.y, v->y = 0;
    }
  }
}

Test(sim_sweep, the_naive_step_is_the_headers_definition) {
  uint64_t rng = 29;
  for (int scene = 0; scene < 8; scene++) {
    const size_t n = 10 + 20 * (size_t)scene;
    const float thresholds[4] = {0.5f, 0.25f, 2.0f, 0x1p-10f};
    col_world lib, def;
    cr_assert_eq(col_world_create(n, (col_vec2){0, 0.5f}, &lib), COL_OK);
    random_world(&lib, &rng, scene % 2 ? 60.0f : 8.0f, scene % 3 == 2);
    lib.sweep_above = thresholds[scene % 4];
    cr_assert_eq(col_world_create(n, lib.gravity, &def), COL_OK);
    copy_world(&def, &lib);
    for (int frame = 0; frame < 40; frame++) {
      step(&lib, 0.25f, -1);
      defined_step(&def, 0.25f);
      cr_assert(same_world(&lib, &def), "scene %d frame %d: differs from sims.h", scene, frame);
    }
    col_world_destroy(&lib);
    col_world_destroy(&def);
  }
}
