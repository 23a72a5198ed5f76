/* A stand-in for Criterion's header under ThreadSanitizer (make tsan): Criterion itself cannot
 * start in a ThreadSanitizer process (its shared-memory arena is refused: "Could not
 * initialize inheritable arena"), so the unit tests that start threads are compiled against
 * this header and run in-process by tools/tsan/runner.c. It covers the macros those tests use:
 * Test (its options ignored), cr_assert / cr_expect and their _eq, _neq, _lt, _leq, _gt, _geq,
 * _null, _not_null, _not, _str_eq, _str_neq forms, each with an optional printf message. A
 * failed cr_assert ends its test; a failed cr_expect is counted and the test goes on. Like
 * Criterion's, it brings in the standard headers the tests rely on. */
#ifndef COLLIDE_TSAN_CRITERION_H
#define COLLIDE_TSAN_CRITERION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tsan_test {
  const char *suite, *name;
  void (*fn)(void);
  struct tsan_test *next;
} tsan_test;

/* A check without a message passes "" as its format. */
#pragma GCC diagnostic ignored "-Wformat-zero-length"

void tsan_register(tsan_test *test);
/* Reports a failed check; `fatal` leaves the test (longjmp to the runner). */
void tsan_failed(const char *file, int line, bool fatal, const char *check, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

#define Test(suite, name, ...)                                                                     \
  static void suite##__##name(void);                                                               \
  static tsan_test suite##__##name##_entry = {#suite, #name, suite##__##name, NULL};               \
  __attribute__((constructor)) static void suite##__##name##_register(void) {                      \
    tsan_register(&suite##__##name##_entry);                                                       \
  }                                                                                                \
  static void suite##__##name(void)

/* The message, if any, is a string literal followed by its arguments: "" joins onto it. */
#define TSAN_CHECK(fatal, cond, text, ...)                                                         \
  do {                                                                                             \
    if (!(cond)) tsan_failed(__FILE__, __LINE__, fatal, text, "" __VA_ARGS__);                     \
  } while (0)

#define cr_assert(cond, ...)           TSAN_CHECK(true, cond, #cond, __VA_ARGS__)
#define cr_expect(cond, ...)           TSAN_CHECK(false, cond, #cond, __VA_ARGS__)
#define cr_assert_not(cond, ...)       TSAN_CHECK(true, !(cond), "!(" #cond ")", __VA_ARGS__)
#define cr_expect_not(cond, ...)       TSAN_CHECK(false, !(cond), "!(" #cond ")", __VA_ARGS__)
#define TSAN_CMP(fatal, a, op, b, ...) TSAN_CHECK(fatal, (a)op(b), #a " " #op " " #b, __VA_ARGS__)
#define cr_assert_eq(a, b, ...)        TSAN_CMP(true, a, ==, b, __VA_ARGS__)
#define cr_expect_eq(a, b, ...)        TSAN_CMP(false, a, ==, b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...)       TSAN_CMP(true, a, !=, b, __VA_ARGS__)
#define cr_expect_neq(a, b, ...)       TSAN_CMP(false, a, !=, b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...)        TSAN_CMP(true, a, <, b, __VA_ARGS__)
#define cr_expect_lt(a, b, ...)        TSAN_CMP(false, a, <, b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...)       TSAN_CMP(true, a, <=, b, __VA_ARGS__)
#define cr_expect_leq(a, b, ...)       TSAN_CMP(false, a, <=, b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...)        TSAN_CMP(true, a, >, b, __VA_ARGS__)
#define cr_expect_gt(a, b, ...)        TSAN_CMP(false, a, >, b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...)       TSAN_CMP(true, a, >=, b, __VA_ARGS__)
#define cr_expect_geq(a, b, ...)       TSAN_CMP(false, a, >=, b, __VA_ARGS__)
#define cr_assert_null(p, ...)         TSAN_CHECK(true, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_expect_null(p, ...)         TSAN_CHECK(false, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...)     TSAN_CHECK(true, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_expect_not_null(p, ...)     TSAN_CHECK(false, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...)    TSAN_CHECK(true, strcmp(a, b) == 0, #a " eq " #b, __VA_ARGS__)
#define cr_expect_str_eq(a, b, ...)    TSAN_CHECK(false, strcmp(a, b) == 0, #a " eq " #b, __VA_ARGS__)
#define cr_assert_str_neq(a, b, ...)   TSAN_CHECK(true, strcmp(a, b) != 0, #a " ne " #b, __VA_ARGS__)
#define cr_expect_str_neq(a, b, ...)   TSAN_CHECK(false, strcmp(a, b) != 0, #a " ne " #b, __VA_ARGS__)

#endif
