/* Argument fuzzing of the registration of one's own backend or broadphase (see fuzz_args.c).
 * The registry lives for the process: names registered by earlier inputs stay taken, and once
 * it is full every valid registration must get SIZE; the expected status is worked out from
 * the registry as listed before the call. */
#include "args.h"

#include <stdlib.h>
#include <string.h>

/* Names: NULL, empty, a space, a slash, 33 and 32 characters, valid ones (one twice, so that
 * it is often taken). */
enum { NAMES = 12 };
static const char *const names[NAMES] = {NULL,
                                         "",
                                         "two words",
                                         "slash/",
                                         "abcdefghijklmnopqrstuvwxyz0123456", /* 33 characters */
                                         "abcdefghijklmnopqrstuvwxyz012345",  /* 32 */
                                         "fuzz-0",
                                         "fuzz-1",
                                         "fuzz_2",
                                         "F.3",
                                         "fuzz-0",
                                         "brute"};

/* backends.h: 1-32 characters of [A-Za-z0-9_.-]. */
static bool valid_name(const char *name) {
  bool ok = name != NULL && name[0] != '\0' && strlen(name) <= 32;
  for (const char *c = name; ok && *c != '\0'; c++)
    ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
         *c == '_' || *c == '-' || *c == '.';
  return ok;
}

/* The broadphase registered here: brute force, so that any later call through it (the other
 * operations pick algorithms by index) is exact. It checks what the header promises it:
 * validated boxes, an emptied list, zeroed stats; and reports stats of its own, which
 * col_broadphase_pairs must pass on. */
enum { USER_TESTS = 42, USER_SCRATCH = 7 };
static int user_context; /* its address is the registered context, passed back on each call */
static col_status user_pairs(const col_boxes *boxes, col_touch touch, col_pairs *out,
                             col_broadphase_stats *stats, void *context) {
  if (context != &user_context || boxes == NULL || out == NULL || out->count != 0 ||
      stats == NULL || stats->tests != 0 || stats->pairs != 0 || stats->scratch_bytes != 0 ||
      (boxes->dims != 2 && boxes->dims != 3) || !fa_valid01((int)touch)) {
    fputs("fuzz args: a registered broadphase got arguments the header rules out\n", stderr);
    fz_fail();
  }
  stats->tests = USER_TESTS, stats->scratch_bytes = USER_SCRATCH;
  return col_broadphase_pairs(COL_BROADPHASE_BRUTE, boxes, touch, out, NULL);
}

/* The registry as it is before a registration (earlier inputs, USER_KERNELS): its length, how
 * many user entries it has, and whether "user:<name>" (written to full) is taken. */
struct listing {
  size_t count, users;
  bool taken;
};
static struct listing walk_listing(bool backends, const char *name, char full[64]) {
  struct listing seen = {backends ? col_backend_count() : col_broadphase_count(), 0, false};
  full[0] = '\0';
  if (name != NULL) snprintf(full, 64, "user:%s", name);
  for (size_t k = 0; k < seen.count; k++) {
    const char *listed;
    bool user;
    if (backends) {
      col_backend_info info;
      if (!col_backend_at(k, &info)) fz_fail();
      listed = info.name, user = info.kind == COL_BACKEND_USER;
    } else {
      col_broadphase_info info;
      if (!col_broadphase_at(k, &info)) fz_fail();
      listed = info.name, user = strncmp(info.name, "user:", 5) == 0;
    }
    seen.users += user;
    seen.taken = seen.taken || strcmp(listed, full) == 0;
  }
  return seen;
}

/* col_broadphase_register with a name from a list (NULL, empty, too long, a bad character, and
 * valid ones, some of them taken by then), a wrong version, NULL pointers, neither 2D nor 3D.
 * backends.h: NULL (broadphase, name, pairs, algorithm), VERSION, ARGUMENT (the name, neither
 * dimension), EXISTS (the name taken), SIZE (COL_USER_MAX user broadphases already); on error
 * nothing changes. On success *algorithm is the registry's former count, and the registry lists
 * the new broadphase under "user:<name>" with its dimensions, which then finds brute force's
 * pairs. The registry lives for the process: names registered by earlier inputs stay taken, and
 * once it is full every valid registration must get SIZE. */
static void register_broadphase(const char *name, uint8_t bits, uint8_t version) {
  const col_user_broadphase bp = {version < 0xF0 ? COL_USER_VERSION : version & 3u,
                                  name,
                                  bits & 1 ? NULL : user_pairs,
                                  &user_context,
                                  (bits & 2) != 0,
                                  (bits & 4) != 0};
  const bool bp_null = bits & 8, out_null = bits & 16;
  char full[64];
  const struct listing seen = walk_listing(false, name, full);
  const size_t before = seen.count, users = seen.users;
  const bool taken = seen.taken;
  const bool name_ok = valid_name(name);
  unsigned applies = 0;
  if (bp_null || out_null || name == NULL || bp.pairs == NULL) applies |= ERR(COL_ERR_NULL);
  if (bp.version != COL_USER_VERSION) applies |= ERR(COL_ERR_VERSION);
  if ((name != NULL && !name_ok) || !(bp.two_d || bp.three_d)) applies |= ERR(COL_ERR_ARGUMENT);
  if (taken) applies |= ERR(COL_ERR_EXISTS);
  if (users >= COL_USER_MAX) applies |= ERR(COL_ERR_SIZE);
  col_broadphase algorithm;
  memset(&algorithm, CANARY, sizeof algorithm);
  const col_status st = col_broadphase_register(bp_null ? NULL : &bp, out_null ? NULL : &algorithm);
  const size_t after = col_broadphase_count();
  fa_judge("col_broadphase_register", st, applies,
           fa_untouched(&algorithm, sizeof algorithm) && after == before);
  if (st != COL_OK) return;
  col_broadphase_info info;
  if ((size_t)algorithm != before || after != before + 1 || !col_broadphase_at(before, &info) ||
      strcmp(info.name, full) != 0 || info.algorithm != algorithm || info.uses_backend ||
      info.two_d != bp.two_d || info.three_d != bp.three_d) {
    fprintf(stderr,
            "fuzz args: registering \"%s\" (2D %d, 3D %d) gave algorithm %d, %zu -> %zu "
            "broadphases, listed as \"%s\"\n",
            name, bp.two_d, bp.three_d, (int)algorithm, before, after,
            after > before && col_broadphase_at(before, &info) ? info.name : "(nothing)");
    fz_fail();
  }
  /* Two boxes that touch, in the dimensions it takes: one pair, its stats passed on. */
  const float lo[2] = {0, 1}, hi[2] = {1, 2};
  const col_boxes two = {bp.two_d ? 2u : 3u, {lo, lo, lo}, {hi, hi, hi}, 2};
  col_pairs out = {0};
  col_broadphase_stats stats;
  const col_status found = col_broadphase_pairs(algorithm, &two, COL_TOUCH_OVERLAPS, &out, &stats);
  if (found != COL_OK || out.count != 1 || out.data[0].a != 0 || out.data[0].b != 1 ||
      stats.tests != USER_TESTS || stats.pairs != 1 || stats.scratch_bytes != USER_SCRATCH) {
    fprintf(stderr,
            "fuzz args: the broadphase registered as \"%s\" returned %d, %zu pairs, "
            "stats %zu tests %zu pairs %zu bytes\n",
            full, st, out.count, (size_t)stats.tests, (size_t)stats.pairs,
            (size_t)stats.scratch_bytes);
    fz_fail();
  }
  col_pairs_free(&out);
}

/* A kernel slot's function for the registered backends: never called (a user backend runs
 * only when selected, which only the registry operation does, and it runs no kernel before it
 * selects the backend it found back: registry.c). */
static size_t never_run(const col_sap_view *v, size_t r, col_touch touch, uint32_t *out,
                        size_t *tested) {
  (void)v, (void)r, (void)touch, (void)out, (void)tested;
  fputs("fuzz args: a registered backend's kernel ran, but it was never selected\n", stderr);
  fz_fail();
}

/* col_backend_register. backends.h: NULL (backend, name), VERSION, ARGUMENT (the name, width
 * 0, every slot empty), EXISTS (a user backend of that name), SIZE (COL_USER_MAX user backends
 * already); nothing changes on error. On success the list gains "user:<name>" at its end, with
 * its width, kind and the one slot it filled. */
static void register_backend(const char *name, uint8_t bits, uint8_t version) {
  col_user_backend be = {
      version < 0xF0 ? COL_USER_VERSION : version & 3u, name, bits >> 5u, NULL, {0}};
  if (bits & 1) be.kernels.sap_run = never_run;
  const bool be_null = bits & 8;
  char full[64];
  const struct listing seen = walk_listing(true, name, full);
  const size_t before = seen.count, users = seen.users;
  const bool taken = seen.taken;
  unsigned applies = 0;
  if (be_null || name == NULL) applies |= ERR(COL_ERR_NULL);
  if (be.version != COL_USER_VERSION) applies |= ERR(COL_ERR_VERSION);
  if ((name != NULL && !valid_name(name)) || be.width == 0 || be.kernels.sap_run == NULL)
    applies |= ERR(COL_ERR_ARGUMENT);
  if (taken) applies |= ERR(COL_ERR_EXISTS);
  if (users >= COL_USER_MAX) applies |= ERR(COL_ERR_SIZE);
  const col_status st = col_backend_register(be_null ? NULL : &be);
  const size_t after = col_backend_count();
  fa_judge("col_backend_register", st, applies, after == before);
  if (st != COL_OK) return;
  col_backend_info info;
  if (after != before + 1 || !col_backend_at(before, &info) || strcmp(info.name, full) != 0 ||
      info.kind != COL_BACKEND_USER || info.width != be.width || info.emulated ||
      info.kernels != COL_KERNEL_SAP_RUN) {
    fprintf(stderr, "fuzz args: registering backend \"%s\" (width %u) gave %zu -> %zu backends\n",
            name, be.width, before, after);
    fz_fail();
  }
}

/* Registration (operation bytes 0xF8-0xFF): a name (the first byte; its top bit: a backend
 * instead of a broadphase), flag bits (the second; for a broadphase: bit 0 a NULL function,
 * bits 1-2 2D and 3D, bit 3 a NULL struct, bit 4 a NULL output; for a backend: bit 0 its one
 * kernel slot filled, bit 3 a NULL struct, bits 5-7 its width), the version (bytes from 0xF0
 * give 0-3). */
void fa_register(fz_reader *r) {
  const uint8_t pick = fz_u8(r), bits = fz_u8(r), version = fz_u8(r);
  if (pick & 0x80)
    register_backend(names[pick % NAMES], bits, version);
  else
    register_broadphase(names[pick % NAMES], bits, version);
}

/* Registration of a name made of the input's bytes (the registry operation's choice 4): a
 * length byte (0..39), that many bytes (any: the characters backends.h allows and the others,
 * and enough distinct names to fill the registry to COL_USER_MAX), then the bytes of
 * fa_register (pick: only its top bit, a backend; flags; version). */
void fa_register_named(fz_reader *r) {
  char name[40];
  const size_t len = fz_u8(r) % 40u;
  for (size_t k = 0; k < len; k++) {
    const uint8_t c = fz_u8(r);
    name[k] = c ? (char)c : '_'; /* no NUL inside */
  }
  name[len] = '\0';
  const uint8_t pick = fz_u8(r), bits = fz_u8(r), version = fz_u8(r);
  if (pick & 0x80)
    register_backend(name, bits, version);
  else
    register_broadphase(name, bits, version);
}
