/* The harnesses' way to your own kernels (docs/user-kernels.md): the
 * Makefile compiles each file of USER_KERNELS with col_user_register renamed per file, and
 * generates the function below (scripts/build/user-register.sh), which calls them in order. The
 * unit tests, fuzzers and benchmarks call it once at start, before they list backends and
 * broadphases. */
#ifndef COLLIDE_HARNESS_USER_KERNELS_H
#define COLLIDE_HARNESS_USER_KERNELS_H

/* 0 when every file registered (or none was given); otherwise prints which file failed and
 * why to stderr and returns -1. */
int harness_register_user_kernels(void);

#endif
