/* The runner of the unit tests built for ThreadSanitizer (make tsan; tools/tsan/criterion/
 * criterion.h says why not Criterion): every registered test whose "suite/name" matches one of
 * the patterns on the command line (fnmatch; none: every test), one after another, each in a
 * child process of its own as Criterion runs them (a test may need a fresh process: the
 * built-in pool is created once per process). The parent starts no thread, so every fork is
 * of a single-threaded process. Exit 0 when all passed, else 1; a race ThreadSanitizer reports
 * fails its test (make tsan sets halt_on_error and the exit code). */
#define _POSIX_C_SOURCE 200809L
#include "collide.h"
#include "criterion/criterion.h"

#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static tsan_test *first, **last = &first;
static jmp_buf leave;
static unsigned failures;

void tsan_register(tsan_test *test) {
  /* In registration order (the files' order), as Criterion lists them per file. */
  test->next = NULL;
  *last = test, last = &test->next;
}

void tsan_failed(const char *file, int line, bool fatal, const char *check, const char *format,
                 ...) {
  failures++;
  fprintf(stderr, "%s:%d: %s failed: %s", file, line, fatal ? "assertion" : "expectation", check);
  if (format[0] != '\0') {
    va_list ap;
    va_start(ap, format);
    fputs(": ", stderr);
    vfprintf(stderr, format, ap);
    va_end(ap);
  }
  fputc('\n', stderr);
  if (fatal) longjmp(leave, 1);
}

static bool selected(const tsan_test *t, int argc, char **argv) {
  char full[256];
  snprintf(full, sizeof full, "%s/%s", t->suite, t->name);
  for (int i = 1; i < argc; i++)
    if (fnmatch(argv[i], full, 0) == 0) return true;
  return argc < 2;
}

int main(int argc, char **argv) {
  const col_status st = col_backend_init();
  if (st != COL_OK) {
    fprintf(stderr, "collide-tsan-tests: no usable backend: %s\n", col_status_string(st));
    return 2;
  }
  unsigned ran = 0, failed = 0;
  for (tsan_test *t = first; t != NULL; t = t->next) {
    if (!selected(t, argc, argv)) continue;
    ran++;
    fflush(NULL);
    const pid_t child = fork();
    if (child < 0) {
      perror("collide-tsan-tests: fork");
      return 2;
    }
    if (child == 0) {
      if (setjmp(leave) == 0) t->fn();
      fflush(NULL);
      _exit(failures ? 1 : 0);
    }
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      failed++;
      if (WIFSIGNALED(status))
        fprintf(stderr, "[FAIL] %s::%s (signal %d)\n", t->suite, t->name, WTERMSIG(status));
      else
        fprintf(stderr, "[FAIL] %s::%s (exit %d)\n", t->suite, t->name, WEXITSTATUS(status));
    }
  }
  printf("collide-tsan-tests: %u tests, %u passed, %u failed (backend %s)\n", ran, ran - failed,
         failed, col_backend_name());
  if (ran == 0) {
    fprintf(stderr, "collide-tsan-tests: no test matches\n");
    return 1;
  }
  return failed ? 1 : 0;
}
