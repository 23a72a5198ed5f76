/* The backend registry: listing, forcing by name, and COLLIDE_BACKEND resolution. */
#define _POSIX_C_SOURCE 200809L
#include "backend.h"
#include "helpers.h"

#include <criterion/redirect.h>
#include <stdio.h>
#include <stdlib.h>

static bool find(const char *name, col_backend_info *out) {
  for (size_t i = 0; col_backend_at(i, out); i++)
    if (strcmp(out->name, name) == 0) return true;
  return false;
}

/* The rows the ISA files' collide-isa lines make (isa_list.h), in the registry's order. */
enum {
  N = COL_BACKEND_NATIVE,
  R = COL_BACKEND_REFERENCE,
  C = COL_BACKEND_COMPILER,
  E = COL_BACKEND_EMULATED
};
static const struct {
  const char *name;
  unsigned width;
  int kind;
  bool built; /* built natively here (else a stand-in, never supported) */
} expected[] = {
#define NATIVE_ROW(name, lanes, cpu_test, built)   {#name, lanes, N, built},
#define COMPILER_ROW(name, lanes, cpu_test, built) {#name, lanes, C, built},
#define EMULATED_ROW(name, lanes)                  {#name "-emu", lanes, E, true},
    /* clang-format off */
    COL_ISA_NATIVE(NATIVE_ROW)
    {"scalar", 1, R, true},
    COL_ISA_COMPILER(COMPILER_ROW)
    COL_ISA_EMULATED(EMULATED_ROW)
    /* clang-format on */
};

Test(backend, listing_has_every_backend) {
  const size_t n = sizeof expected / sizeof expected[0];
  /* The build's user kernels (USER_KERNELS), if any, follow the built-in backends. */
  cr_assert_geq(col_backend_count(), n);
  for (size_t i = 0; i < col_backend_count(); i++) {
    col_backend_info info;
    cr_assert(col_backend_at(i, &info));
    if (i >= n) {
      cr_expect_eq(info.kind, COL_BACKEND_USER, "%s", info.name);
      cr_expect_eq(strncmp(info.name, "user:", 5), 0, "%s", info.name);
      continue;
    }
    cr_assert_str_eq(info.name, expected[i].name, "listing order at %zu", i);
    cr_expect_eq(info.width, expected[i].width, "%s", info.name);
    cr_expect_eq((int)info.kind, expected[i].kind, "%s", info.name);
    cr_expect_eq(info.emulated, expected[i].kind == E, "%s", info.name);
    if (info.emulated || strcmp(info.name, "scalar") == 0)
      cr_expect(info.supported, "%s runs everywhere", info.name);
    cr_expect_eq(info.kernels, info.supported ? COL_KERNEL_ALL : info.kernels,
                 "%s implements every kernel", info.name);
    if (!expected[i].built)
      cr_expect(!info.supported && info.kernels == 0, "%s is not built here", info.name);
  }
}

/* The backends programs and saved results already name keep their names and their relative
 * order (a new ISA file may go anywhere among them). */
Test(backend, listing_keeps_the_known_order) {
  static const char *const known[] = {"avx512",  "avx2",       "sse2",     "neon",     "scalar",
                                      "autovec", "avx512-emu", "avx2-emu", "sse2-emu", "neon-emu"};
  size_t k = 0;
  for (size_t i = 0; i < sizeof expected / sizeof expected[0] && k < 10; i++)
    if (strcmp(expected[i].name, known[k]) == 0) k++;
  cr_expect_eq(k, 10, "%s missing or out of order", k < 10 ? known[k] : "");
}

Test(backend, support_follows_the_cpu) {
  col_backend_info info;
#if defined(__x86_64__)
  cr_assert(find("sse2", &info) && info.supported, "sse2 is the x86-64 baseline");
  cr_assert(find("avx2", &info));
  cr_expect_eq(info.supported, (bool)__builtin_cpu_supports("avx2"));
  cr_assert(find("avx512", &info));
  cr_expect_eq(info.supported, (bool)__builtin_cpu_supports("avx512f"));
  cr_assert(find("neon", &info) && !info.supported, "no native NEON on x86");
  cr_assert(find("autovec", &info));
  cr_expect_eq(info.supported, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
#elif defined(__aarch64__)
  cr_assert(find("neon", &info) && info.supported);
  cr_assert(find("avx2", &info) && !info.supported);
#endif
}

Test(backend, unsupported_cannot_be_selected) {
  col_backend_info info;
  for (size_t i = 0; col_backend_at(i, &info); i++)
    if (!info.supported) {
      const char *before = col_backend_name();
      cr_assert_eq(col_backend_select(info.name), COL_ERR_UNSUPPORTED, "%s", info.name);
      cr_assert_str_eq(col_backend_name(), before, "a refused selection changes nothing");
    }
}

Test(backend, automatic_choice_is_the_newest_native, .init = cr_redirect_stderr) {
  col__backend_reset();
  cr_assert_eq(unsetenv("COLLIDE_BACKEND"), 0);
  col_backend_info first = {0};
  for (size_t i = 0; col_backend_at(i, &first); i++)
    if (first.supported && !first.emulated) break;
  cr_assert_str_eq(col_backend_name(), first.name);
  cr_assert(!first.emulated);
}

Test(backend, listing_rejects_out_of_range) {
  col_backend_info info = {.name = "untouched"};
  cr_assert(!col_backend_at(col_backend_count(), &info));
  cr_assert_str_eq(info.name, "untouched");
  cr_assert(!col_backend_at(0, NULL));
}

Test(backend, names_are_unique) {
  col_backend_info a, b;
  for (size_t i = 0; col_backend_at(i, &a); i++)
    for (size_t j = i + 1; col_backend_at(j, &b); j++) cr_assert_str_neq(a.name, b.name);
}

Test(backend, select_by_name) {
  cr_assert_eq(col_backend_select(NULL), COL_ERR_NULL);
  cr_assert_eq(col_backend_select("no-such-backend"), COL_ERR_BACKEND);
  cr_assert_eq(col_backend_select("scalar"), COL_OK);
  cr_assert_str_eq(col_backend_name(), "scalar");
}

Test(backend, unknown_env_name_fails_every_batch_call, .init = cr_redirect_stderr) {
  col__backend_reset();
  cr_assert_eq(setenv("COLLIDE_BACKEND", "bogus", 1), 0);
  cr_assert_eq(col_backend_init(), COL_ERR_BACKEND);
  cr_assert_null(col_backend_name());

  /* The reason is printed once, naming the variable, the value and the known backends. */
  fflush(stderr);
  char said[512] = {0};
  FILE *err = cr_get_redirected_stderr();
  cr_assert_not_null(err);
  size_t got = fread(said, 1, sizeof said - 1, err);
  cr_assert_gt(got, 0);
  cr_assert_not_null(strstr(said, "COLLIDE_BACKEND=\"bogus\" is not a backend"), "%s", said);
  cr_assert_not_null(strstr(said, "scalar"), "%s", said);

  size_t count = 77;
  const col_aabb2_soa set = {0};
  cr_assert_eq(col_aabb2_query((col_aabb2){{0, 0}, {1, 1}}, &set, COL_TOUCH_OVERLAPS, NULL, &count),
               COL_ERR_BACKEND);
  cr_assert_eq(count, 77, "a failed call must not write its outputs");
  cr_assert_eq(col_aabb2_mtd_batch(0, NULL, NULL, NULL), COL_ERR_BACKEND);
  col_segment_hit hit;
  const col_sphere_soa spheres = {0};
  cr_assert_eq(col_segment_spheres((col_vec3){0}, (col_vec3){0}, &spheres, &hit), COL_ERR_BACKEND);
  cr_assert_eq(col_segment_spheres_robust((col_vec3){0}, (col_vec3){0}, &spheres, &hit),
               COL_ERR_BACKEND);
  col_pixel_hit ph;
  cr_assert_eq(col_sprite_overlap((col_sprite){0}, (col_sprite){0}, 20, COL_PIXEL_FIRST, &ph),
               COL_ERR_BACKEND);

  /* An explicit selection repairs it. */
  cr_assert_eq(col_backend_select("scalar"), COL_OK);
  cr_assert_eq(col_backend_init(), COL_OK);
}

Test(backend, unsupported_env_name_is_refused, .init = cr_redirect_stderr) {
  col_backend_info info;
  bool any = false;
  for (size_t i = 0; col_backend_at(i, &info); i++)
    if (!info.supported) {
      any = true;
      col__backend_reset();
      cr_assert_eq(setenv("COLLIDE_BACKEND", info.name, 1), 0);
      cr_assert_eq(col_backend_init(), COL_ERR_UNSUPPORTED, "%s", info.name);
      cr_assert_null(col_backend_name());
    }
  cr_assert(any, "every machine lacks some native backend (neon or the x86 ones)");
}

Test(backend, env_name_is_honoured_and_empty_means_automatic) {
  col__backend_reset();
  cr_assert_eq(setenv("COLLIDE_BACKEND", "scalar", 1), 0);
  cr_assert_eq(col_backend_init(), COL_OK);
  cr_assert_str_eq(col_backend_name(), "scalar");

  col__backend_reset();
  cr_assert_eq(setenv("COLLIDE_BACKEND", "avx2-emu", 1), 0);
  cr_assert_eq(col_backend_init(), COL_OK);
  cr_assert_str_eq(col_backend_name(), "avx2-emu");

  col__backend_reset();
  cr_assert_eq(setenv("COLLIDE_BACKEND", "", 1), 0);
  cr_assert_eq(col_backend_init(), COL_OK);
  col_backend_info first;
  size_t i = 0;
  while (col_backend_at(i, &first) && !(first.supported && !first.emulated)) i++;
  cr_assert_str_eq(col_backend_name(), first.name, "automatic choice is the newest native");
}

Test(backend, status_strings_are_distinct) {
  const col_status all[] = {
      COL_OK,           COL_ERR_NULL,    COL_ERR_SIZE,        COL_ERR_STRIDE, COL_ERR_OVERFLOW,
      COL_ERR_ARGUMENT, COL_ERR_BACKEND, COL_ERR_UNSUPPORTED, COL_ERR_MEMORY, COL_ERR_EXISTS,
      COL_ERR_VERSION,  COL_ERR_TASKS,   COL_ERR_FORMAT,      COL_ERR_IO};
  const size_t n = sizeof all / sizeof all[0];
  for (size_t i = 0; i < n; i++) {
    cr_assert_gt(strlen(col_status_string(all[i])), 0);
    for (size_t j = i + 1; j < n; j++)
      cr_assert_str_neq(col_status_string(all[i]), col_status_string(all[j]));
  }
  cr_assert_str_eq(col_status_string((col_status)12345), "unknown status");
}
