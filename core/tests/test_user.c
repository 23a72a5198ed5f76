/* Registering user backends and broadphases (collide/backends.h): the checks at registration,
 * the listing, empty slots running the reference, and a user broadphase's contract as the
 * front end enforces it. Each test runs in its own process, so registrations do not leak. */
#define _POSIX_C_SOURCE 200809L
#include "backend.h"
#include "helpers.h"

#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>

static size_t calls;

/* A 2D query that finds nothing: wrong on purpose, so a test can tell it ran. */
static size_t find_nothing(col_aabb2 q, const col_aabb2_soa *set, col_touch touch, uint32_t *idx) {
  (void)q, (void)set, (void)touch, (void)idx;
  calls++;
  return 0;
}

static col_user_backend minimal(const char *name) {
  return (col_user_backend){.version = COL_USER_VERSION,
                            .name = name,
                            .width = 1,
                            .kernels = {.aabb2_query = find_nothing}};
}

static bool listed(const char *name, col_backend_info *out) {
  for (size_t i = 0; col_backend_at(i, out); i++)
    if (strcmp(out->name, name) == 0) return true;
  return false;
}

Test(user_backend, registration_checks_every_field) {
  const size_t before = col_backend_count();
  col_user_backend b = minimal("ok");
  cr_expect_eq(col_backend_register(NULL), COL_ERR_NULL);
  b.name = NULL;
  cr_expect_eq(col_backend_register(&b), COL_ERR_NULL);
  b = minimal("ok"), b.version = COL_USER_VERSION + 1;
  cr_expect_eq(col_backend_register(&b), COL_ERR_VERSION);
  const char *bad_names[] = {"",       "has space", "has/slash",
                             "colon:", "é",         "a-name-of-thirty-three-characters"};
  for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
    b = minimal(bad_names[i]);
    cr_expect_eq(col_backend_register(&b), COL_ERR_ARGUMENT, "name \"%s\"", bad_names[i]);
  }
  b = minimal("ok"), b.width = 0;
  cr_expect_eq(col_backend_register(&b), COL_ERR_ARGUMENT, "width 0");
  b = minimal("ok"), b.kernels = (col_kernels){0};
  cr_expect_eq(col_backend_register(&b), COL_ERR_ARGUMENT, "no kernel at all");
  cr_expect_eq(col_backend_count(), before, "nothing registered by a refused call");

  b = minimal("a-name-of-thirty-two-characters.");
  cr_expect_eq(col_backend_register(&b), COL_OK, "32 characters is the limit");
  b = minimal("ok");
  cr_assert_eq(col_backend_register(&b), COL_OK);
  cr_expect_eq(col_backend_register(&b), COL_ERR_EXISTS, "the same name twice");
  cr_expect_eq(col_backend_count(), before + 2);
}

Test(user_backend, the_registry_holds_col_user_max) {
  char names[COL_USER_MAX + 1][8];
  size_t users = 0;
  col_backend_info info;
  for (size_t i = 0; col_backend_at(i, &info); i++) users += info.kind == COL_BACKEND_USER;
  for (size_t i = users; i < COL_USER_MAX; i++) {
    snprintf(names[i], sizeof names[i], "u%zu", i);
    const col_user_backend b = minimal(names[i]);
    cr_assert_eq(col_backend_register(&b), COL_OK, "%s", names[i]);
  }
  const col_user_backend extra = minimal("extra");
  cr_expect_eq(col_backend_register(&extra), COL_ERR_SIZE);
}

Test(user_backend, listed_and_run_only_for_its_slots) {
  const char name[] = "partial";
  const col_user_backend b = minimal(name);
  cr_assert_eq(col_backend_register(&b), COL_OK);
  col_backend_info info;
  cr_assert(listed("user:partial", &info), "listed as user:<name>");
  cr_expect_eq(info.kind, COL_BACKEND_USER);
  cr_expect(!info.emulated && info.supported && info.width == 1);
  cr_expect_eq(info.kernels, (unsigned)COL_KERNEL_AABB2_QUERY, "only the slot it filled");

  cr_assert_eq(col_backend_select("user:partial"), COL_OK);
  const float lo[2] = {0, 5}, hi[2] = {1, 6};
  const col_aabb2_soa set = {lo, lo, hi, hi, 2};
  uint32_t idx[2];
  size_t count = 99;
  calls = 0;
  cr_assert_eq(col_aabb2_query((col_aabb2){{0, 0}, {1, 1}}, &set, COL_TOUCH_OVERLAPS, idx, &count),
               COL_OK);
  cr_expect_eq(calls, 1, "its own kernel ran");
  cr_expect_eq(count, 0, "and its (wrong) answer came back");
  /* An empty slot runs the reference: the 3D query still answers correctly. */
  const col_aabb3_soa set3 = {lo, lo, lo, hi, hi, hi, 2};
  cr_assert_eq(
      col_aabb3_query((col_aabb3){{0, 0, 0}, {1, 1, 1}}, &set3, COL_TOUCH_OVERLAPS, idx, &count),
      COL_OK);
  cr_expect_eq(count, 1);
  cr_expect_eq(idx[0], 0);
}

static bool never(void) { return false; }

/* The library explains a refused COLLIDE_BACKEND on stderr once; the test reads that back
 * (a passing run prints nothing, a failing one shows what was said). */
static size_t times_said(const char *what) {
  fflush(stderr);
  FILE *err = cr_get_redirected_stderr();
  cr_assert_not_null(err);
  char said[1024] = {0};
  const size_t got = fread(said, 1, sizeof said - 1, err);
  size_t times = 0;
  for (const char *at = said; (at = strstr(at, what)) != NULL; at += strlen(what)) times++;
  cr_expect_lt(got, sizeof said - 1, "more said than expected: %s", said);
  return times;
}

Test(user_backend, cpu_check_and_environment, .init = cr_redirect_stderr) {
  col_user_backend b = minimal("needs-cpu");
  b.supported = never;
  cr_assert_eq(col_backend_register(&b), COL_OK);
  cr_expect_eq(col_backend_select("user:needs-cpu"), COL_ERR_UNSUPPORTED);
  /* COLLIDE_BACKEND read before the backend existed: registering it resolves again. */
  col__backend_reset();
  cr_assert_eq(setenv("COLLIDE_BACKEND", "user:later", 1), 0);
  cr_expect_eq(col_backend_init(), COL_ERR_BACKEND);
  cr_expect_eq(times_said("collide: COLLIDE_BACKEND=\"user:later\" is not a backend"), 1,
               "the refusal is explained once");
  const col_user_backend later = minimal("later");
  cr_assert_eq(col_backend_register(&later), COL_OK);
  cr_expect_eq(col_backend_init(), COL_OK);
  cr_expect_str_eq(col_backend_name(), "user:later");
  /* Never chosen automatically. */
  col__backend_reset();
  cr_assert_eq(unsetenv("COLLIDE_BACKEND"), 0);
  cr_assert_eq(col_backend_init(), COL_OK);
  cr_expect_neq(strncmp(col_backend_name(), "user:", 5), 0);
}

Test(user_backend, kernel_slots_have_names_and_built_in_tables_are_full) {
  unsigned seen = 0;
  for (unsigned bit = 1; bit <= COL_KERNEL_ALL; bit <<= 1) {
    const char *name = col_kernel_name((col_kernel)bit);
    cr_assert_not_null(name, "bit %u", bit);
    for (unsigned other = 1; other < bit; other <<= 1)
      cr_expect_str_neq(name, col_kernel_name((col_kernel)other));
    seen |= bit;
  }
  cr_expect_eq(seen, (unsigned)COL_KERNEL_ALL);
  cr_expect_null(col_kernel_name((col_kernel)0));
  cr_expect_null(col_kernel_name((col_kernel)3));
  cr_expect_null(col_kernel_name((col_kernel)(COL_KERNEL_ALL + 1)));
  cr_expect_eq(col__kernels_present(&col__backend_scalar.k), (unsigned)COL_KERNEL_ALL);
  col_kernels holed = col__backend_scalar.k;
  holed.sap_run = NULL;
  cr_expect_eq(col__kernels_present(&holed), COL_KERNEL_ALL & ~(unsigned)COL_KERNEL_SAP_RUN);
}

Test(user_backend, a_built_in_table_with_a_hole_is_refused_by_name, .init = cr_redirect_stderr) {
  col__backend broken = col__backend_scalar;
  broken.name = "broken";
  broken.k.mask_overlap = NULL;
  cr_expect(col__backend_complete(&col__backend_scalar, true));
  cr_expect(!col__backend_complete(&broken, true));
  fflush(stderr);
  cr_expect_stderr_eq_str(
      "collide: backend \"broken\" has no mask kernel: its table is incomplete\n");
  broken.kind = COL_BACKEND_USER;
  cr_expect(col__backend_complete(&broken, false), "a user table's holes run the reference");
}

/* A user broadphase that records what it was given and pairs boxes 0 and 1. */
static struct {
  size_t calls;
  col_broadphase_stats stats_in;
  size_t out_count_in;
  void *context;
  col_status answer;
} seen;

static col_status pair_first_two(const col_boxes *boxes, col_touch touch, col_pairs *out,
                                 col_broadphase_stats *stats, void *context) {
  (void)touch;
  seen.calls++;
  seen.stats_in = *stats;
  seen.out_count_in = out->count;
  seen.context = context;
  if (seen.answer != COL_OK) {
    col_pairs_push(out, 0, 1);
    return seen.answer;
  }
  stats->tests = 7;
  stats->pairs = 12345; /* overwritten from the list */
  return boxes->count >= 2 ? col_pairs_push(out, 1, 0) : COL_OK;
}

static col_user_broadphase user_bp(const char *name) {
  static int token;
  return (col_user_broadphase){.version = COL_USER_VERSION,
                               .name = name,
                               .pairs = pair_first_two,
                               .context = &token,
                               .two_d = true,
                               .three_d = false};
}

Test(user_broadphase, registration_checks_every_field) {
  col_broadphase alg;
  const size_t before = col_broadphase_count();
  col_user_broadphase u = user_bp("mine");
  cr_expect_eq(col_broadphase_register(NULL, &alg), COL_ERR_NULL);
  cr_expect_eq(col_broadphase_register(&u, NULL), COL_ERR_NULL);
  u.pairs = NULL;
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_NULL);
  u = user_bp(NULL);
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_NULL);
  u = user_bp("mine"), u.version = 0;
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_VERSION);
  u = user_bp("");
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_ARGUMENT);
  u = user_bp("a b");
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_ARGUMENT);
  u = user_bp("mine"), u.two_d = false;
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_ARGUMENT, "neither 2D nor 3D");
  cr_expect_eq(col_broadphase_count(), before);

  u = user_bp("mine");
  cr_assert_eq(col_broadphase_register(&u, &alg), COL_OK);
  cr_expect_eq((size_t)alg, before, "the next registry index");
  cr_expect_eq(col_broadphase_register(&u, &alg), COL_ERR_EXISTS);
  col_broadphase_info info;
  cr_assert(col_broadphase_at(before, &info));
  cr_expect_str_eq(info.name, "user:mine");
  cr_expect_eq(info.algorithm, (col_broadphase)before);
  cr_expect(info.two_d && !info.three_d && !info.uses_backend);
}

Test(user_broadphase, the_front_end_validates_and_fills_in) {
  col_broadphase alg;
  const col_user_broadphase u = user_bp("mine");
  cr_assert_eq(col_broadphase_register(&u, &alg), COL_OK);
  const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  col_boxes boxes = {2, {lo, lo, NULL}, {hi, hi, NULL}, 3};
  col_pairs out = {0};
  cr_assert_eq(col_pairs_push(&out, 2, 1), COL_OK, "stale content the front end must clear");
  col_broadphase_stats stats;
  seen.calls = 0, seen.answer = COL_OK;
  cr_assert_eq(col_broadphase_pairs(alg, &boxes, COL_TOUCH_OVERLAPS, &out, &stats), COL_OK);
  cr_expect_eq(seen.calls, 1);
  cr_expect_eq(seen.out_count_in, 0, "an emptied list");
  cr_expect(seen.stats_in.tests == 0 && seen.stats_in.pairs == 0 &&
            seen.stats_in.scratch_bytes == 0);
  cr_expect_eq(seen.context, u.context, "the registered context");
  cr_assert_eq(out.count, 1);
  cr_expect(out.data[0].a == 0 && out.data[0].b == 1, "col_pairs_push orders a < b");
  cr_expect(stats.tests == 7 && stats.pairs == 1, "pairs counted from the list");

  /* Input the front end refuses never reaches the function. */
  boxes.dims = 3, boxes.min[2] = lo, boxes.max[2] = hi;
  cr_expect_eq(col_broadphase_pairs(alg, &boxes, COL_TOUCH_OVERLAPS, &out, NULL), COL_ERR_SIZE,
               "3D boxes to a 2D-only broadphase");
  boxes.dims = 2;
  cr_expect_eq(col_broadphase_pairs(alg, &boxes, (col_touch)7, &out, NULL), COL_ERR_ARGUMENT);
  cr_expect_eq(
      col_broadphase_pairs((col_broadphase)(alg + 1), &boxes, COL_TOUCH_OVERLAPS, &out, NULL),
      COL_ERR_ARGUMENT, "past the registry");
  boxes.min[0] = NULL;
  cr_expect_eq(col_broadphase_pairs(alg, &boxes, COL_TOUCH_OVERLAPS, &out, NULL), COL_ERR_NULL);
  cr_expect_eq(seen.calls, 1);

  /* Its error reaches the caller with the list emptied. */
  boxes.min[0] = lo;
  seen.answer = COL_ERR_MEMORY;
  cr_expect_eq(col_broadphase_pairs(alg, &boxes, COL_TOUCH_OVERLAPS, &out, NULL), COL_ERR_MEMORY);
  cr_expect_eq(out.count, 0);
  col_pairs_free(&out);
  cr_expect_eq(col_pairs_push(NULL, 0, 1), COL_ERR_NULL);
}
