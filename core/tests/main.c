/* The unit-test runner: resolves the backend first (so that a bad COLLIDE_BACKEND fails the
 * run at once with the library's message and exit status 2), then hands over to Criterion.
 * `--list-backends` prints the backends this CPU supports, one per line, for `make test`. */
#include "collide.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char *argv[]) {
  if (argc > 1 && strcmp(argv[1], "--list-backends") == 0) {
    col_backend_info info;
    for (size_t i = 0; col_backend_at(i, &info); i++)
      if (info.supported) printf("%s\n", info.name);
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
