/* Writes one fuzz target's hand-made seed inputs into a folder (fuzz/corpus/<target>/): the
 * seeds' worked examples and every edge the target is meant to reach. The Makefile links one
 * such program per fuzz target, with that target's seed writer fuzz/seeds/<target>.c (a target
 * without one is an error), and `make seeds` runs them all; the output is committed.
 * Usage: make_seeds_<target> OUTPUT_DIR */
#include "seeds/encode.h"

const char fz_target[] = "make_seeds";

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT_DIR (fuzz/corpus/<target>)\n", argv[0]);
    return 2;
  }
  seeds_into(argv[1]);
  seeds_write();
  printf("make_seeds: wrote %zu seed files in %s\n", seeds_saved(), argv[1]);
  return 0;
}
