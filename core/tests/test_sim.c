/* The seeds' simulations: worked examples (two balls meeting head-on as in the seed's
 * example, a box landing on a floor) and, over many frames, the broadphase-backed steps
 * against the naive loops bit for bit, with every broadphase algorithm, in scenes slow and
 * fast enough to force the fallback; error codes. */
#include "helpers.h"
#include "sim_grid.h"

/* Every registered broadphase algorithm (at most MAX_ALG of them in these tests). */
#define MAX_ALG 16
#define NALG    col_broadphase_count()
#define ALG(a)  algorithm_at(a).algorithm

Test(sim, two_balls_meet_head_on) {
  for (int pairing = 0; pairing < 2; pairing++) {
    col_balls b;
    cr_assert_eq(col_balls_create(2, 100, 100, &b), COL_OK);
    /* Masses 10 (radius = mass), 5 to the right against 1 to the left, as in the seed. */
    b.x[0] = 20, b.y[0] = 50, b.vx[0] = 5, b.radius[0] = 10;
    b.x[1] = 45, b.y[1] = 50, b.vx[1] = -1, b.radius[1] = 10;
    col_sim_stats st = {0, 0, 0};
    cr_assert_eq(col_balls_step(&b, (col_sim_pairs)pairing, COL_BROADPHASE_SAP, &st), COL_OK);
    /* Moved to 25 and 44 (19 apart < 20): velocities exchanged, then each moves by its new one. */
    assert_float_bits(b.vx[0], -1.0f);
    assert_float_bits(b.vx[1], 5.0f);
    assert_float_bits(b.x[0], 24.0f);
    assert_float_bits(b.x[1], 49.0f);
    assert_float_bits(b.y[0], 50.0f);
    cr_expect_eq(st.contacts, 1u);
    cr_expect_eq(st.fallbacks, 0u);
    col_balls_destroy(&b);
  }
}

Test(sim, balls_bounce_off_walls) {
  col_balls b;
  cr_assert_eq(col_balls_create(1, 100, 100, &b), COL_OK);
  b.x[0] = 97, b.y[0] = 4, b.vx[0] = 2, b.vy[0] = -2, b.radius[0] = 3;
  cr_assert_eq(col_balls_step(&b, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, NULL), COL_OK);
  /* At (99, 2): past the right wall moving right, past the top moving up: both reverse. */
  assert_float_bits(b.x[0], 99.0f);
  assert_float_bits(b.vx[0], -2.0f);
  assert_float_bits(b.vy[0], 2.0f);
  col_balls_destroy(&b);
}

/* The wall rule's edges (sims.h): a ball that ends exactly touching a wall has not reached
 * past it; a ball past a wall bounces only when moving towards it, so a zero velocity stays
 * +0.0 and one moving away keeps its sign. One ball per case, both axes. */
Test(sim, balls_at_the_wall_exactly) {
  const struct {
    float pos, v, want_v;
    const char *what;
  } cases[] = {
      {4, -1, -1, "ends touching the low wall (p - r == 0), moving towards it: no bounce"},
      {96, 1, 1, "ends touching the high wall (p + r == 100), moving towards it: no bounce"},
      {2, 0, 0, "past the low wall, not moving: stays +0.0"},
      {99, 0, 0, "past the high wall, not moving: stays +0.0"},
      {1, 1, 1, "past the low wall, moving away: no bounce"},
      {98, -1, -1, "past the high wall, moving away: no bounce"},
      {2.5f, -0.5f, 0.5f, "past the low wall, moving towards it: bounces"},
      {98.5f, 0.5f, -0.5f, "past the high wall, moving towards it: bounces"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int axis = 0; axis < 2; axis++) {
      col_balls b;
      cr_assert_eq(col_balls_create(1, 100, 100, &b), COL_OK);
      b.radius[0] = 3;
      float *p = axis ? b.y : b.x, *v = axis ? b.vy : b.vx;
      float *q = axis ? b.x : b.y, *w = axis ? b.vx : b.vy;
      p[0] = cases[c].pos - cases[c].v, v[0] = cases[c].v; /* ends at pos */
      q[0] = 50, w[0] = 0;
      cr_assert_eq(col_balls_step(&b, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, NULL), COL_OK);
      cr_expect_eq(fbits(p[0]), fbits(cases[c].pos), "%s (axis %d): position", cases[c].what, axis);
      cr_expect_eq(fbits(v[0]), fbits(cases[c].want_v), "%s (axis %d): velocity %a", cases[c].what,
                   axis, (double)v[0]);
      cr_expect_eq(fbits(w[0]), fbits(0.0f), "%s (axis %d): the other axis", cases[c].what, axis);
      col_balls_destroy(&b);
    }
}

static void random_balls(col_balls *b, uint64_t *rng, float speed) {
  for (size_t i = 0; i < b->count; i++) {
    b->radius[i] = 2.0f + (float)rand_below(rng, 60) / 10.0f;
    b->x[i] =
        b->radius[i] + (float)rand_below(rng, 10000) / 10000.0f * (b->width - 2 * b->radius[i]);
    b->y[i] =
        b->radius[i] + (float)rand_below(rng, 10000) / 10000.0f * (b->height - 2 * b->radius[i]);
    b->vx[i] = ((float)rand_below(rng, 2001) - 1000.0f) / 1000.0f * speed;
    b->vy[i] = ((float)rand_below(rng, 2001) - 1000.0f) / 1000.0f * speed;
  }
}

static bool same_floats(const float *a, const float *b, size_t n) {
  return memcmp(a, b, n * sizeof(float)) == 0;
}

Test(sim, balls_broadphase_steps_equal_the_naive_loop) {
  uint64_t rng = 8;
  uint64_t fallbacks = 0, naive_tests = 0, bp_tests = 0;
  for (int scene = 0; scene < 6; scene++) {
    const size_t n = 40 + 50 * (size_t)scene;
    const float speed = scene % 3 == 2 ? 12.0f : 1.5f; /* fast scenes force fallbacks */
    col_balls ref, bp[MAX_ALG];
    cr_assert_eq(col_balls_create(n, 300, 200, &ref), COL_OK);
    random_balls(&ref, &rng, speed);
    for (size_t a = 0; a < NALG; a++) {
      cr_assert_eq(col_balls_create(n, 300, 200, &bp[a]), COL_OK);
      memcpy(bp[a].x, ref.x, n * 4), memcpy(bp[a].y, ref.y, n * 4), memcpy(bp[a].vx, ref.vx, n * 4);
      memcpy(bp[a].vy, ref.vy, n * 4), memcpy(bp[a].radius, ref.radius, n * 4);
    }
    for (int frame = 0; frame < 120; frame++) {
      col_sim_stats sn = {0, 0, 0};
      cr_assert_eq(col_balls_step(&ref, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, &sn), COL_OK);
      if (speed < 2) naive_tests += sn.tests; /* savings are judged on the slow scenes */
      for (size_t a = 0; a < NALG; a++) {
        col_sim_stats sb = {0, 0, 0};
        cr_assert_eq(col_balls_step(&bp[a], COL_SIM_BROADPHASE, ALG(a), &sb), COL_OK);
        cr_assert(same_floats(ref.x, bp[a].x, n) && same_floats(ref.y, bp[a].y, n) &&
                      same_floats(ref.vx, bp[a].vx, n) && same_floats(ref.vy, bp[a].vy, n),
                  "scene %d frame %d algorithm %zu: trajectories differ", scene, frame, a);
        cr_assert_eq(sb.contacts, sn.contacts, "scene %d frame %d algorithm %zu", scene, frame, a);
        fallbacks += sb.fallbacks;
        if (speed < 2) bp_tests += sb.tests;
      }
    }
    col_balls_destroy(&ref);
    for (size_t a = 0; a < NALG; a++) col_balls_destroy(&bp[a]);
  }
  cr_expect_gt(fallbacks, 0u, "the fast scenes should exercise the fallback");
  cr_expect_lt(bp_tests, naive_tests * NALG / 4,
               "the broadphase should save tests: %llu vs %llu naive, %llu fallbacks",
               (unsigned long long)bp_tests, (unsigned long long)naive_tests * NALG,
               (unsigned long long)fallbacks);
}

Test(sim, a_box_lands_on_the_floor) {
  for (int pairing = 0; pairing < 2; pairing++) {
    col_world w;
    cr_assert_eq(col_world_create(2, (col_vec2){0, 5}, &w), COL_OK);
    w.box[0] = (col_aabb2){{10, 80}, {20, 90}}, w.weight[0] = 1;
    w.box[1] = (col_aabb2){{0, 100}, {100, 110}}, w.weight[1] = 0; /* the floor: no gravity */
    col_sim_stats st = {0, 0, 0};
    cr_assert_eq(col_world_step(&w, 1.0f, (col_sim_pairs)pairing, COL_BROADPHASE_GRID, &st),
                 COL_OK);
    assert_float_bits(w.box[0].max.y, 95.0f); /* falling, not there yet */
    for (int frame = 0; frame < 3; frame++) {
      cr_assert_eq(col_world_step(&w, 1.0f, (col_sim_pairs)pairing, COL_BROADPHASE_GRID, &st),
                   COL_OK);
      /* v = 10 (then 5 after each landing) takes it 5 into the floor; the MTD's smallest push
       * is 5 up: it rests on the floor with its vertical velocity zeroed. */
      assert_float_bits(w.box[0].min.y, 90.0f);
      assert_float_bits(w.box[0].max.y, 100.0f);
      assert_float_bits(w.velocity[0].y, 0.0f);
      assert_float_bits(w.box[1].min.y, 100.0f); /* touching the player is no collision */
    }
    cr_expect_eq(st.contacts, 3u);
    col_world_destroy(&w);
  }
}

static void random_world(col_world *w, uint64_t *rng, float speed) {
  for (size_t i = 0; i < w->count; i++) {
    const bool platform = i % 4 == 0;
    const float x = (float)rand_below(rng, 4000) / 10.0f, y = (float)rand_below(rng, 3000) / 10.0f;
    const float sx =
        platform ? 20.0f + (float)rand_below(rng, 60) : 3.0f + (float)rand_below(rng, 8);
    const float sy = platform ? 3.0f : 3.0f + (float)rand_below(rng, 8);
    w->box[i] = (col_aabb2){{x, y}, {x + sx, y + sy}};
    w->weight[i] = platform ? 0.0f : 0.5f + (float)rand_below(rng, 4) / 4.0f;
    w->velocity[i] = platform ? (col_vec2){0, 0}
                              : (col_vec2){((float)rand_below(rng, 201) - 100.0f) / 100.0f * speed,
                                           ((float)rand_below(rng, 201) - 100.0f) / 100.0f * speed};
  }
}

Test(sim, world_broadphase_steps_equal_the_naive_loop) {
  uint64_t rng = 9;
  uint64_t fallbacks = 0;
  for (int scene = 0; scene < 6; scene++) {
    const size_t n = 30 + 40 * (size_t)scene;
    const float speed = scene % 3 == 2 ? 40.0f : 4.0f;
    col_world ref, bp[MAX_ALG];
    cr_assert_eq(col_world_create(n, (col_vec2){0, 0.5f}, &ref), COL_OK);
    random_world(&ref, &rng, speed);
    if (scene % 3 == 1) /* a pile: small boxes overlapping deeply, resolved many times over */
      for (size_t i = 0; i < n; i++) {
        const float x = 200.0f + (float)rand_below(&rng, 100) / 10.0f;
        const float y = 150.0f + (float)rand_below(&rng, 100) / 10.0f;
        ref.box[i] = (col_aabb2){{x, y}, {x + 4, y + 4}};
      }
    for (size_t a = 0; a < NALG; a++) {
      cr_assert_eq(col_world_create(n, ref.gravity, &bp[a]), COL_OK);
      memcpy(bp[a].box, ref.box, n * sizeof *ref.box);
      memcpy(bp[a].velocity, ref.velocity, n * sizeof *ref.velocity);
      memcpy(bp[a].weight, ref.weight, n * sizeof *ref.weight);
    }
    for (int frame = 0; frame < 120; frame++) {
      cr_assert_eq(col_world_step(&ref, 0.25f, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, NULL), COL_OK);
      for (size_t a = 0; a < NALG; a++) {
        col_sim_stats sb = {0, 0, 0};
        cr_assert_eq(col_world_step(&bp[a], 0.25f, COL_SIM_BROADPHASE, ALG(a), &sb), COL_OK);
        cr_assert(memcmp(ref.box, bp[a].box, n * sizeof *ref.box) == 0 &&
                      memcmp(ref.velocity, bp[a].velocity, n * sizeof *ref.velocity) == 0,
                  "scene %d frame %d algorithm %zu: worlds differ", scene, frame, a);
        fallbacks += sb.fallbacks;
      }
    }
    col_world_destroy(&ref);
    for (size_t a = 0; a < NALG; a++) col_world_destroy(&bp[a]);
  }
  cr_expect_gt(fallbacks, 0u, "the piles should exercise the fallback");
}

/* Entity 0 starts deep inside a big box (entity 2) and is pushed 52 to the left, far past its
 * margin (it turns wild), onto entity 1, whose turn comes next and which was never its
 * candidate (their grown boxes are apart): entity 1 must still be pushed out of entity 0's
 * final box, as the naive loop does. */
Test(sim, a_wild_entity_lands_on_one_that_was_no_candidate) {
  for (size_t a = 0; a < NALG; a++) {
    col_world w[2];
    for (int k = 0; k < 2; k++) {
      cr_assert_eq(col_world_create(3, (col_vec2){0, 0}, &w[k]), COL_OK);
      w[k].box[0] = (col_aabb2){{48, 48}, {52, 52}};
      w[k].box[1] = (col_aabb2){{-6, 49}, {-1, 51}};
      w[k].box[2] = (col_aabb2){{0, 0}, {100, 100}};
    }
    cr_assert_eq(col_world_step(&w[0], 1.0f, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, NULL), COL_OK);
    col_sim_stats st = {0, 0, 0};
    cr_assert_eq(col_world_step(&w[1], 1.0f, COL_SIM_BROADPHASE, ALG(a), &st), COL_OK);
    assert_float_bits(w[0].box[0].min.x, -4.0f); /* pushed out of the big box, to the left */
    assert_float_bits(w[0].box[1].min.x, -9.0f); /* then entity 1 is pushed 3 out of it */
    cr_expect(memcmp(w[0].box, w[1].box, sizeof(col_aabb2) * 3) == 0, "algorithm %zu differs", a);
    cr_expect_gt(st.fallbacks, 0u);
    for (int k = 0; k < 2; k++) col_world_destroy(&w[k]);
  }
}

/* An inverted box (max x far below min x; found by the golden digest): its negative side once
 * made the mean extent, and so every entity's margin, negative, the grown boxes shrank and the
 * broadphase step missed a collision the naive loop resolves. */
Test(sim, an_inverted_box_does_not_shrink_the_other_entities_margins) {
  for (size_t a = 0; a < NALG; a++) {
    col_world w[2];
    for (int k = 0; k < 2; k++) {
      cr_assert_eq(col_world_create(3, (col_vec2){0, -0.5f}, &w[k]), COL_OK);
      w[k].box[0] = (col_aabb2){{-34.5f, 11.25f}, {-28.25f, 18}};
      w[k].box[1] = (col_aabb2){{-38.25f, 12}, {-32.75f, 16.25f}};
      w[k].box[2] = (col_aabb2){{3100000, -40.5f}, {-1e30f, -40}}; /* inverted on x */
      w[k].velocity[1] = (col_vec2){-70570.4f, -1.9375f};
      w[k].weight[0] = w[k].weight[1] = w[k].weight[2] = 6;
    }
    col_sim_stats sn = {0, 0, 0}, sb = {0, 0, 0};
    cr_assert_eq(col_world_step(&w[0], 1.0f / 60, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, &sn),
                 COL_OK);
    cr_assert_eq(col_world_step(&w[1], 1.0f / 60, COL_SIM_BROADPHASE, ALG(a), &sb), COL_OK);
    cr_assert_eq(sn.contacts, 1u); /* entity 1 sweeps through entity 0 */
    cr_expect(memcmp(w[0].box, w[1].box, sizeof(col_aabb2) * 3) == 0, "algorithm %zu differs", a);
    cr_expect(memcmp(w[0].velocity, w[1].velocity, sizeof(col_vec2) * 3) == 0, "algorithm %zu", a);
    cr_expect_eq(sb.contacts, sn.contacts, "algorithm %zu", a);
    for (int k = 0; k < 2; k++) col_world_destroy(&w[k]);
  }
}

/* The world step's grid over an extent past 1e30 on both axes (boxes near +-FLT_MAX; found by
 * the sim fuzzer): the cell side stops growing at 1e30, and the grid once asked for 1e14 cells
 * (out of memory, or ASan's allocation limit). It must stay within its cell budget, and still
 * find a box stored anywhere. */
Test(sim, the_world_grid_over_nearly_the_float_range_stays_within_its_budget) {
  col__box_grid g = {0};
  cr_assert_eq(col__grid_reset(&g, -1e37f, -1e37f, 1e37f, 1e37f, 1e30f, 28), COL_OK);
  cr_expect_leq((uint64_t)g.width * g.height, 28u, "%u x %u cells", g.width, g.height);
  cr_assert_eq(col__grid_insert(&g, 7, 1e37f, 1e37f, 1e37f, 1e37f), COL_OK);
  uint32_t *ids = NULL;
  size_t count = 0, capacity = 0;
  cr_assert_eq(col__grid_query(&g, 9e36f, 9e36f, 1e37f, 1e37f, &ids, &count, &capacity), COL_OK);
  cr_expect(count == 1 && ids[0] == 7);
  free(ids);
  col__grid_free(&g);
}

/* The benchmark's crowded world: boxes and platforms dropped at random over a fifth of the
 * area (many start inside each other), one floor wider than everything. Many entities turn wild
 * every frame (formerly, past 1,024 of them, every pair was tested); their partners come from
 * the grids, some pushed beyond the grown boxes' extent (clamped cells), and the floor is a box
 * too big for the grid's cells. Still bit-identical to the naive loop. */
Test(sim, crowded_world_with_many_wild_entities_equals_the_naive_loop) {
  const size_t n = 2000;
  const float side = sqrtf((float)n * 400.0f);
  uint64_t rng = 92;
  col_world ref, bp;
  cr_assert_eq(col_world_create(n, (col_vec2){0, 0.3f}, &ref), COL_OK);
  ref.box[0] = (col_aabb2){{-10, side}, {side + 10, side + 20}}, ref.weight[0] = 0;
  for (size_t i = 1; i < n; i++) {
    const float x = (float)rand_below(&rng, 100000) / 100000.0f * side;
    const float y = (float)rand_below(&rng, 100000) / 100000.0f * side;
    const bool platform = i % 4 == 0;
    ref.box[i] =
        platform ? (col_aabb2){{x, y}, {x + 30, y + 4}} : (col_aabb2){{x, y}, {x + 8, y + 8}};
    ref.weight[i] = platform ? 0.0f : 1.0f;
    ref.velocity[i] =
        (col_vec2){platform ? 0.0f : ((float)rand_below(&rng, 401) - 200.0f) / 100.0f, 0};
  }
  cr_assert_eq(col_world_create(n, ref.gravity, &bp), COL_OK);
  memcpy(bp.box, ref.box, n * sizeof *ref.box);
  memcpy(bp.velocity, ref.velocity, n * sizeof *ref.velocity);
  memcpy(bp.weight, ref.weight, n * sizeof *ref.weight);
  uint64_t wild = 0;
  for (int frame = 0; frame < 5; frame++) {
    cr_assert_eq(col_world_step(&ref, 1.0f, COL_SIM_NAIVE, COL_BROADPHASE_BRUTE, NULL), COL_OK);
    col_sim_stats sb = {0, 0, 0};
    cr_assert_eq(col_world_step(&bp, 1.0f, COL_SIM_BROADPHASE, ALG(frame % NALG), &sb), COL_OK);
    cr_assert(memcmp(ref.box, bp.box, n * sizeof *ref.box) == 0 &&
                  memcmp(ref.velocity, bp.velocity, n * sizeof *ref.velocity) == 0,
              "frame %d: worlds differ", frame);
    wild += sb.fallbacks;
    cr_expect_lt(sb.tests, (uint64_t)n * 64, "frame %d: %llu tests, not a local search", frame,
                 (unsigned long long)sb.tests);
  }
  cr_expect_gt(wild, 100u, "the crowd should send many entities wild (%llu)",
               (unsigned long long)wild);
  col_world_destroy(&ref);
  col_world_destroy(&bp);
}

Test(sim, errors) {
  col_balls b;
  cr_expect_eq(col_balls_create(2, 10, 10, NULL), COL_ERR_NULL);
  cr_assert_eq(col_balls_create(2, 10, 10, &b), COL_OK);
  cr_expect_eq(col_balls_step(NULL, COL_SIM_NAIVE, COL_BROADPHASE_SAP, NULL), COL_ERR_NULL);
  cr_expect_eq(col_balls_step(&b, (col_sim_pairs)2, COL_BROADPHASE_SAP, NULL), COL_ERR_ARGUMENT);
  cr_expect_eq(col_balls_step(&b, COL_SIM_BROADPHASE, (col_broadphase)9, NULL), COL_ERR_ARGUMENT);
  /* Missing arrays are an error only when there are balls to move. */
  col_balls holes = b;
  holes.scratch = NULL;
  cr_expect_eq(col_balls_step(&holes, COL_SIM_NAIVE, COL_BROADPHASE_SAP, NULL), COL_ERR_NULL);
  holes = b, holes.x = NULL;
  cr_expect_eq(col_balls_step(&holes, COL_SIM_NAIVE, COL_BROADPHASE_SAP, NULL), COL_ERR_NULL);
  const col_balls none = {NULL, NULL, NULL, NULL, NULL, 0, 10, 10, NULL};
  const col_world nobody = {NULL, NULL, NULL, 0, {0, 1}, NULL, 0};
  for (int pairing = 0; pairing < 2; pairing++) {
    col_balls empty = none;
    cr_expect_eq(col_balls_step(&empty, (col_sim_pairs)pairing, COL_BROADPHASE_SAP, NULL), COL_OK,
                 "no balls, no arrays: nothing to do");
    col_world empty_world = nobody;
    cr_expect_eq(col_world_step(&empty_world, 1, (col_sim_pairs)pairing, COL_BROADPHASE_SAP, NULL),
                 COL_OK, "no entities, no arrays: nothing to do");
  }
  col_balls_destroy(&b);
  col_balls_destroy(NULL);
  col_world w;
  cr_assert_eq(col_world_create(0, (col_vec2){0, 1}, &w), COL_OK);
  cr_expect_eq(col_world_step(&w, 1, COL_SIM_BROADPHASE, COL_BROADPHASE_TREE, NULL), COL_OK);
  cr_expect_eq(col_world_step(&w, 1, (col_sim_pairs)-1, COL_BROADPHASE_TREE, NULL),
               COL_ERR_ARGUMENT);
  col_world_destroy(&w);
  col_world_destroy(NULL);
}
