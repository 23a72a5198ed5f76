/* Structure checks (COL_VALIDATE): each kept structure has a validate function in its own
 * file that checks its invariants after every operation that changes it, so a broken link or
 * order is reported where it happens, not frames later as a wrong pair set. Compiled only when
 * COL_VALIDATE is defined (the unit tests', sanitizer and fuzzing builds; never the release
 * library, whose object code this header leaves unchanged). */
#ifndef COL_VALIDATE_H
#define COL_VALIDATE_H

#ifdef COL_VALIDATE
#include <stdio.h>
#include <stdlib.h>

/* Names the structure, the broken invariant and where, then aborts (a crash the fuzzers and
 * the unit tests report with this line). */
static inline _Noreturn void col__validate_fail(const char *structure, const char *invariant,
                                                size_t index) {
  fprintf(stderr, "collide: %s invalid: %s (at index %zu)\n", structure, invariant, index);
  fflush(stderr);
  abort();
}
#define COL_VALIDATE_CALL(call) (call)
#else
#define COL_VALIDATE_CALL(call) ((void)0)
#endif

#endif
