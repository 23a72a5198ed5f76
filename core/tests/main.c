/* The unit-test runner: resolves the backend first (so that a bad COLLIDE_BACKEND fails the
 * run at once with the library's message and exit status 2), then hands over to Criterion.
 * `--list-backends` prints the backends this CPU supports, one per line, for `make test`
 * (`--list-backends user` only the user ones); `--list-user` what USER_KERNELS registered, one
 * per line, for make test's summary. The user kernels of the build (USER_KERNELS) are
 * registered first. */
#include "backend_filter.h"
#include "collide.h"
#include "user_kernels.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

/* Criterion runs each test in a fresh process of this binary that does not pass through
 * main, so the user kernels are registered by a constructor, in every process. */
static int user_registration;
__attribute__((constructor)) static void register_user_kernels(void) {
  user_registration = harness_register_user_kernels();
}

/* The user backends (with the CPU's verdict: one it cannot run is not tested) and the user
 * broadphases, which the registry names "user:<name>" after its built-in rows. */
static void list_user(void) {
  col_backend_info backend;
  for (size_t i = 0; col_backend_at(i, &backend); i++)
    if (backend.kind == COL_BACKEND_USER)
      printf("%s (backend%s)\n", backend.name,
             backend.supported ? "" : "; this CPU cannot run it: not tested");
  col_broadphase_info broadphase;
  for (size_t i = 0; col_broadphase_at(i, &broadphase); i++)
    if (strncmp(broadphase.name, "user:", 5) == 0) printf("%s (broadphase)\n", broadphase.name);
}

int main(int argc, char *argv[]) {
  if (user_registration != 0) return 2;
  if (argc > 1 && strcmp(argv[1], "--list-user") == 0) {
    list_user();
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "--list-backends") == 0) {
    const bool user_only = argc > 2 && strcmp(argv[2], "user") == 0;
    col_backend_info found[16 + COL_USER_MAX];
    const size_t n =
        harness_backends(found, sizeof found / sizeof found[0], COL_KERNEL_ALL,
                         user_only ? HARNESS_KIND(COL_BACKEND_USER) : HARNESS_ALL_KINDS);
    for (size_t i = 0; i < n; i++) printf("%s\n", found[i].name);
    return 0;
  }
  col_status st = col_backend_init();
  if (st != COL_OK) {
    fprintf(stderr, "collide-tests: no usable backend: %s\n", col_status_string(st));
    return 2;
  }
  struct criterion_test_set *tests = criterion_initialize();
  int result = 0;
  if (criterion_handle_args(argc, argv, true)) result = !criterion_run_all_tests(tests);
  criterion_finalize(tests);
  return result;
}
