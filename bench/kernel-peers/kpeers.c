/* The registry of kernel peers: the list (bench/kernel-peers/kernel-peers.list, through the
 * header mk/kernel-peers.mk writes from it, kpeers_list.h) joined with the adapters built in. */
#include "kpeers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kpeers_list.h" /* generated: KPEERS_LISTED(X), KPEERS_BUILT(X) */

#define DECLARE(lib) extern const kp_table kp_##lib##_table;
KPEERS_BUILT(DECLARE)

typedef struct listed {
  const char *name, *lib, *package, *family, *function, *rules;
  bool built;
} listed;

#define LISTED(name, lib, package, family, function, rules, built)                                 \
  {name, #lib, package, #family, function, rules, built},
static const listed rows[] = {KPEERS_LISTED(LISTED)};
enum { ROWS = sizeof rows / sizeof rows[0] };

#define TABLE(lib) {#lib, &kp_##lib##_table},
static const struct {
  const char *lib;
  const kp_table *table;
} tables[] = {KPEERS_BUILT(TABLE){NULL, NULL}};

static const char *const family_names[KP_FAMILIES] = {
    "box2", "box3", "mtd", "segbox2", "segbox3", "segsphere", "segcircle", "circle"};

const char *kp_family_name(kp_family f) {
  return (unsigned)f < KP_FAMILIES ? family_names[f] : "?";
}

int kp_family_of(const char *name) {
  for (int f = 0; f < KP_FAMILIES; f++)
    if (strcmp(family_names[f], name) == 0) return f;
  return -1;
}

bool kp_family_is_query(kp_family f) { return f != KP_MTD && f != KP_CIRCLE; }

bool kp_family_is_2d(kp_family f) {
  return f == KP_BOX2 || f == KP_MTD || f == KP_SEGBOX2 || f == KP_SEGCIRCLE || f == KP_CIRCLE;
}

static kp_kernel kernels[ROWS];
static char problems[2048];
static size_t problems_used;

static void problem(const char *what, const char *a, const char *b) {
  if (problems_used < sizeof problems)
    problems_used += (size_t)snprintf(problems + problems_used, sizeof problems - problems_used,
                                      "kernel-peers: %s %s%s\n", what, a, b);
}

static const kp_impl *find_impl(const char *lib, const char *kernel) {
  for (size_t t = 0; tables[t].lib != NULL; t++) {
    if (strcmp(tables[t].lib, lib) != 0) continue;
    for (size_t i = 0; i < tables[t].table->count; i++)
      if (strcmp(tables[t].table->impls[i].kernel, kernel) == 0) return &tables[t].table->impls[i];
  }
  return NULL;
}

static void build(void) {
  static bool done;
  if (done) return;
  done = true;
  for (size_t r = 0; r < ROWS; r++) {
    const int f = kp_family_of(rows[r].family);
    if (f < 0) problem("unknown family in the list:", rows[r].family, "");
    const kp_impl *impl = rows[r].built ? find_impl(rows[r].lib, rows[r].name) : NULL;
    if (rows[r].built && impl == NULL)
      problem("the adapter of its library does not define the kernel", rows[r].name, "");
    kernels[r] = (kp_kernel){
        rows[r].name,  rows[r].lib, rows[r].package, (kp_family)(f < 0 ? 0 : f), rows[r].function,
        rows[r].rules, impl};
  }
  for (size_t t = 0; tables[t].lib != NULL; t++)
    for (size_t i = 0; i < tables[t].table->count; i++) {
      bool listed_here = false;
      for (size_t r = 0; r < ROWS; r++)
        listed_here |= strcmp(rows[r].name, tables[t].table->impls[i].kernel) == 0 &&
                       strcmp(rows[r].lib, tables[t].lib) == 0;
      if (!listed_here)
        problem("an adapter defines a kernel the list does not name:",
                tables[t].table->impls[i].kernel, "");
    }
}

size_t kp_kernels(const kp_kernel **list) {
  build();
  if (problems_used) {
    fputs(problems, stderr);
    exit(2);
  }
  *list = kernels;
  return ROWS;
}

const char *kp_check(void) {
  build();
  return problems;
}

const char *kp_absent(void) {
  static char text[1024];
  static bool done;
  if (!done) {
    size_t used = 0;
    done = true;
    for (size_t r = 0; r < ROWS; r++) {
      if (rows[r].built || used >= sizeof text) continue;
      bool said = false; /* one line per library */
      for (size_t q = 0; q < r; q++) said |= strcmp(rows[q].lib, rows[r].lib) == 0;
      if (!said)
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 "%s: %s was not installed when collide was built\n", rows[r].lib,
                                 rows[r].package);
    }
  }
  return text;
}
