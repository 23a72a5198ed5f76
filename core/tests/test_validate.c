/* The structure checks of COL_VALIDATE builds can fail: each validate function is handed a
 * structure broken on purpose, in a forked child, and must abort with its own line naming the
 * structure and the broken rule (a check that never fires would pass every other test). The
 * right structure must pass. Skipped in builds without the checks (the release build). */
#define _DEFAULT_SOURCE
#include "helpers.h"

#include "broadphase/broadphase.h"
#include "broadphase/cache/kgrid.h"
#include "sim_grid.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef COL_VALIDATE

/* Runs run(arg) in a child whose stderr is captured. want == NULL: the child must return
 * normally; else it must die of SIGABRT having written `want`. */
static void expect_abort(void (*run)(void *), void *arg, const char *want) {
  int fd[2];
  cr_assert_eq(pipe(fd), 0);
  fflush(stdout), fflush(stderr);
  const pid_t pid = fork();
  cr_assert(pid >= 0, "fork failed");
  if (pid == 0) {
    close(fd[0]);
    dup2(fd[1], STDERR_FILENO);
    run(arg);
    _exit(0);
  }
  close(fd[1]);
  char out[1024];
  size_t len = 0;
  ssize_t got;
  while ((got = read(fd[0], out + len, sizeof out - 1 - len)) > 0) len += (size_t)got;
  out[len] = '\0';
  close(fd[0]);
  int status = 0;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  if (want == NULL) {
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a right structure failed: %s", out);
    return;
  }
  cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
            "no abort (status 0x%x) for \"%s\"; stderr: %s", status, want, out);
  cr_assert(strstr(out, want) != NULL, "want \"%s\", got: %s", want, out);
}

/* A 2D quadtree root over [0, 8]^2 (centre 4, 4): box 0 straddles x = 4 (stays), box 1 lies in
 * child 0 (low x, low y), boxes 2 and 3 in child 3 (high x, high y). */
static const col_aabb3 qt_boxes[4] = {
    {{3, 1, 0}, {5, 2, 0}}, {{0, 0, 0}, {1, 1, 0}}, {{6, 6, 0}, {7, 7, 0}}, {{5, 5, 0}, {8, 8, 0}}};

typedef struct qt_case {
  uint32_t items[4];
  size_t n, stay, count[8], above;
} qt_case;

static void qt_run(void *arg) {
  const qt_case *c = arg;
  uint32_t scratch[4];
  const col__qt_node node = {.norm = qt_boxes,
                             .items = c->items,
                             .n = c->n,
                             .stay = c->stay,
                             .count = c->count,
                             .cell = {{0, 0, 0}, {8, 8, 0}},
                             .dims = 2,
                             .box_count = 4,
                             .above = c->above};
  col__quadtree_validate(&node, scratch);
}

Test(validate, the_quadtree_check_names_each_broken_rule) {
  qt_case right = {{0, 1, 2, 3}, 4, 1, {1, 0, 0, 2}, 0};
  expect_abort(qt_run, &right, NULL);
  qt_case c = right;
  c.count[3] = 1;
  expect_abort(qt_run, &c, "collide: quadtree invalid: partition sizes do not add up");
  c = right, c.above = 1;
  expect_abort(qt_run, &c, "quadtree invalid: more boxes above and in the node than boxes");
  c = right, c.items[2] = 4;
  expect_abort(qt_run, &c, "quadtree invalid: box index out of range (at index 2)");
  c = (qt_case){{1, 0, 2, 3}, 4, 1, {1, 0, 0, 2}, 0};
  expect_abort(qt_run, &c, "quadtree invalid: staying box lies inside one child cell (at index 0)");
  c = (qt_case){{0, 2, 1, 3}, 4, 1, {1, 0, 0, 2}, 0};
  expect_abort(qt_run, &c, "quadtree invalid: box not strictly inside its child cell (at index 1)");
  c = (qt_case){{0, 1, 2, 2}, 4, 1, {1, 0, 0, 2}, 0};
  expect_abort(qt_run, &c, "quadtree invalid: box held twice in the node (at index 2)");
}

/* A grid over [0, 10]^2 with cells of 1 (11 x 11): boxes 0..2 small, box 3 covers everything
 * (the big list). */
static const float grid_box[4][4] = {
    {0.5f, 0.5f, 0.6f, 0.6f}, {2.5f, 2.5f, 3.5f, 2.6f}, {9.5f, 9.5f, 9.6f, 9.6f}, {0, 0, 10, 10}};

static void grid_box_of(const void *ctx, uint32_t id, float out[4]) {
  (void)ctx;
  memcpy(out, grid_box[id], sizeof grid_box[id]);
}

static void grid_build(col__box_grid *g) {
  cr_assert_eq(col__grid_reset(g, 0, 0, 10, 10, 1, 1000), COL_OK);
  for (uint32_t i = 0; i < 4; i++)
    cr_assert_eq(
        col__grid_insert(g, i, grid_box[i][0], grid_box[i][1], grid_box[i][2], grid_box[i][3]),
        COL_OK);
}

typedef void (*grid_break)(col__box_grid *g);

static void grid_run(void *arg) {
  col__box_grid g = {0};
  grid_build(&g);
  if (arg != NULL) (*(grid_break *)arg)(&g);
  col__grid_validate(&g, &(col__grid_boxes){grid_box_of, NULL, 4});
  col__grid_free(&g);
}

/* Box 0 is node 0 in cell (0, 0); box 1 covers cells (2, 2) and (3, 2): nodes 1 and 2; box 2
 * is node 3 in cell (9, 9). `shared` puts node 1 in a second list its box covers too. */
static void cycle(col__box_grid *g) { g->node[1].next = 1; }
static void stray_head(col__box_grid *g) { g->head[0] = (int32_t)g->nodes; }
static void moved(col__box_grid *g) { g->head[1] = g->head[0], g->head[0] = -1; }
static void lost(col__box_grid *g) { g->head[9 * 11 + 9] = -1; }
static void shared(col__box_grid *g) { g->node[2].next = 1; }
static void bad_id(col__box_grid *g) { g->node[0].id = 4; }
static void small_big(col__box_grid *g) { g->big[0] = 0; }
static void big_small(col__box_grid *g) { g->node[3].id = 3; }
static void overfull(col__box_grid *g) { g->nodes = g->node_capacity + 1; }

Test(validate, the_simulation_grid_check_names_each_broken_rule) {
  expect_abort(grid_run, NULL, NULL);
  static const struct {
    grid_break brk;
    const char *want;
  } cases[] = {
      {cycle,
       "collide: simulation grid invalid: cell list links to a node not older than the last"},
      {stray_head, "simulation grid invalid: cell head out of range (at index 0)"},
      {moved, "simulation grid invalid: node in a cell its box does not cover (at index 0)"},
      {lost, "simulation grid invalid: fewer nodes in the cell lists than stored"},
      {shared, "simulation grid invalid: more nodes in the cell lists than stored"},
      {bad_id, "simulation grid invalid: node id out of range (at index 0)"},
      {small_big, "simulation grid invalid: small box in the big list (at index 0)"},
      {big_small, "simulation grid invalid: big box stored in cell lists (at index 3)"},
      {overfull, "simulation grid invalid: more nodes than allocated"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    grid_break brk = cases[k].brk;
    expect_abort(grid_run, &brk, cases[k].want);
  }
}

/* The kept grid (cache/kgrid.h) over a 10 x 10 block of touching unit boxes and an infinite
 * floor over half the rows of cells (a big box: box 100), box 4 moving; broken one way per
 * case. */
typedef enum {
  KG_RIGHT,
  KG_FLAGS,
  KG_MOVED_PLACED,
  KG_ROOM_NOT_NAN,
  KG_COUNT_OVER,
  KG_BIG_POS,
  KG_BOX_MOVED
} kg_break;

static void kgrid_run(void *arg) {
  enum { N = 101 };
  float v[4][N];
  for (int i = 0; i < 100; i++)
    v[0][i] = (float)(i % 10), v[1][i] = (float)(i / 10), v[2][i] = v[0][i] + 1,
    v[3][i] = v[1][i] + 1;
  v[0][100] = -INFINITY, v[1][100] = 0, v[2][100] = INFINITY, v[3][100] = 5.5f;
  const col_boxes b = {2, {v[0], v[1], NULL}, {v[2], v[3], NULL}, N};
  bool moving[N] = {false};
  moving[4] = true;
  col__kgrid g = {0};
  if (col__kgrid_build(&g, &b, moving, NULL) != COL_OK || g.place[100] != COL__PLACE_BIG) abort();
  const kg_break brk = arg ? *(const kg_break *)arg : KG_RIGHT;
  size_t first = 0;
  while (g.count[first] == 0) first++; /* a cell holding entries */
  const size_t s = g.base[first];
  if (brk == KG_FLAGS) set_word(&g, s, COL__KG_FLAGS(&g), word_at(&g, s, COL__KG_FLAGS(&g)) ^ 1u);
  if (brk == KG_MOVED_PLACED) moving[word_at(&g, s, COL__KG_INDEX(&g))] = true;
  if (brk == KG_ROOM_NOT_NAN) *entry_at(&g, s + g.count[first], 0) = 0.0f;
  if (brk == KG_COUNT_OVER) g.count[first] = g.base[first + 1] - g.base[first] + 1;
  if (brk == KG_BIG_POS) g.range[6 * 100] = 5;
  if (brk == KG_BOX_MOVED) v[0][word_at(&g, s, COL__KG_INDEX(&g))] += 0.5f;
  col__kgrid_validate(&g, &b, moving);
  col__kgrid_free(&g);
}

Test(validate, the_kept_grid_check_names_each_broken_rule) {
  expect_abort(kgrid_run, NULL, NULL);
  static const struct {
    kg_break brk;
    const char *want;
  } cases[] = {
      {KG_FLAGS, "collide: kept grid invalid: an entry's first-cell flags are wrong"},
      {KG_MOVED_PLACED, "kept grid invalid: a moving box rests in the grid"},
      {KG_ROOM_NOT_NAN, "kept grid invalid: a cell's room is not NaN"},
      {KG_COUNT_OVER, "kept grid invalid: a cell's entries exceed its room"},
      {KG_BIG_POS, "kept grid invalid: a big box's position is wrong (at index 100)"},
      {KG_BOX_MOVED, "kept grid invalid: an entry's box differs from the box"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    kg_break brk = cases[k].brk;
    expect_abort(kgrid_run, &brk, cases[k].want);
  }
}

#else

Test(validate, checks_are_compiled_out) {
  cr_skip_test("built without COL_VALIDATE: the structure checks are not in this library");
}

#endif
