/* Argument fuzzing of the backend registry (see fuzz_args.c): the status and kernel names, the
 * choice of the active backend by name (col_backend_select) and by the environment
 * (COLLIDE_BACKEND, read again after col__backend_reset, the unit tests' way in), and a batch
 * call while the environment names no runnable backend. Every operation leaves the registry as
 * it found it (the active backend, COLLIDE_BACKEND), so the inputs after it run as before. */
#define _POSIX_C_SOURCE 200809L
#include "args.h"
#include "backend.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* collide.h's statuses, COL_OK to the last error. */
enum { FIRST_STATUS = COL_OK, LAST_STATUS = COL_ERR_IO };

/* col_status_string of any int: never NULL or empty, and the known statuses each a string of
 * its own (collide.h: "a short, static, human-readable description"). */
static void status_strings(int status) {
  const char *s = col_status_string((col_status)status);
  bool ok = s != NULL && s[0] != '\0';
  const bool known = status <= FIRST_STATUS && status >= LAST_STATUS;
  for (int other = FIRST_STATUS; ok && known && other >= LAST_STATUS; other--)
    ok = other == status || strcmp(col_status_string((col_status)other), s) != 0;
  if (ok) return;
  fprintf(stderr, "fuzz args: col_status_string(%d) is %s%s%s\n", status, s ? "\"" : "",
          s ? s : "NULL", s ? "\" (empty, or another status's)" : "");
  fz_fail();
}

/* backends.h's slot names, in bit order: the header's list, written out here. */
static const char *const slot_names[] = {
    "aabb2_query",    "aabb2_query_aos", "aabb3_query", "aabb2_mtd", "sprite",
    "mask",           "circle",          "elastic",     "segment",   "sap_run",
    "segment_robust", "sweep_aabb2",     "sweep_aabb3"};
enum { SLOT_COUNT = sizeof slot_names / sizeof slot_names[0] };

static void kernel_name(uint32_t bits) {
  const char *got = col_kernel_name((col_kernel)bits);
  const char *want = NULL;
  for (unsigned i = 0; i < SLOT_COUNT; i++)
    if (bits == 1u << i) want = slot_names[i];
  if (want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0) return;
  fprintf(stderr, "fuzz args: col_kernel_name(0x%x) is %s, backends.h says %s\n", bits,
          got ? got : "NULL", want ? want : "NULL");
  fz_fail();
}

/* A name to choose: NULL, empty, unknown, or the pick-th listed backend (any kind, supported
 * or not; user ones registered by earlier inputs too). */
static const char *pick_name(uint8_t pick, col_backend_info *listed) {
  memset(listed, 0, sizeof *listed);
  if (pick < 3) return pick == 0 ? NULL : pick == 1 ? "" : "no-such-backend";
  if (!col_backend_at((size_t)pick % col_backend_count(), listed)) fz_fail();
  return listed->name;
}

/* What backends.h says the choice gives: the named backend (COL_ERR_BACKEND unknown,
 * COL_ERR_UNSUPPORTED not runnable here), or without a name the newest supported native one
 * (scalar where there is none). Writes the expected active name to *name. */
static col_status expected_choice(const char *forced, const col_backend_info *listed,
                                  const char **name) {
  *name = NULL;
  if (forced != NULL && forced[0] != '\0') {
    if (listed->name == NULL) return COL_ERR_BACKEND;
    if (!listed->supported) return COL_ERR_UNSUPPORTED;
    *name = listed->name;
    return COL_OK;
  }
  col_backend_info info;
  for (size_t i = 0; col_backend_at(i, &info); i++)
    if (info.kind == COL_BACKEND_NATIVE && info.supported) return *name = info.name, COL_OK;
  *name = "scalar";
  return COL_OK;
}

static void check_choice(const char *how, const char *name, col_status got, col_status want,
                         const char *want_name) {
  const char *active = col_backend_name();
  const bool same = want_name == NULL ? active == NULL : active && strcmp(active, want_name) == 0;
  if (got == want && same) return;
  fprintf(stderr, "fuzz args: %s \"%s\" returned %d (%s), active %s; backends.h: %d (%s), %s\n",
          how, name ? name : "(NULL)", got, col_status_string(got), active ? active : "NULL", want,
          col_status_string(want), want_name ? want_name : "none");
  fz_fail();
}

/* col_backend_select: OK makes it the active one; an error leaves the active one as it was. */
static void select_by_name(uint8_t pick) {
  col_backend_info listed;
  const char *name = pick_name(pick, &listed);
  const char *before = col_backend_name();
  col_status want = name == NULL          ? COL_ERR_NULL
                    : listed.name == NULL ? COL_ERR_BACKEND
                    : !listed.supported   ? COL_ERR_UNSUPPORTED
                                          : COL_OK;
  check_choice("col_backend_select", name, col_backend_select(name), want,
               want == COL_OK ? name : before);
  check_choice("col_backend_init after selecting", name, col_backend_init(), COL_OK,
               want == COL_OK ? name : before);
  fz_select(before);
}

/* stderr into a pipe while `call` runs (the registry's one printed reason), read back into
 * text (at most size - 1 bytes). */
static col_status captured(col_status (*call)(void), char *text, size_t size) {
  int fds[2];
  if (pipe(fds) != 0) abort();
  fflush(stderr);
  const int saved = dup(2);
  if (saved < 0 || dup2(fds[1], 2) < 0) abort();
  const col_status st = call();
  fflush(stderr);
  if (dup2(saved, 2) < 0) abort();
  close(saved), close(fds[1]);
  size_t n = 0;
  ssize_t got;
  while (n + 1 < size && (got = read(fds[0], text + n, size - 1 - n)) > 0) n += (size_t)got;
  text[n] = '\0';
  close(fds[0]);
  return st;
}

/* A batch call made while no backend can be chosen (which % 9 picks the entry point: every one
 * that runs on the active backend): the choice's error, its output untouched (backends.h: "every
 * batch call then fails with that status"). One box, sphere, circle or ball, valid. */
static void batch_call_fails(uint8_t which, col_status want) {
  static const float lo[1] = {0}, hi[1] = {1};
  static const uint32_t pixel[1] = {0xff000000u};
  float vx[1] = {1}, vy[1] = {0}, wx[1] = {-1}, wy[1] = {0};
  const col_aabb2_soa set2 = {lo, lo, hi, hi, 1};
  const col_aabb3_soa set3 = {lo, lo, lo, hi, hi, hi, 1};
  const col_aabb2 box2 = {{0, 0}, {1, 1}};
  _Alignas(16) unsigned char out[64];
  memset(out, CANARY, sizeof out);
  col_status got;
  const char *call;
  switch (which % 9) {
  case 0:
    got = col_aabb2_query(box2, &set2, COL_TOUCH_OVERLAPS, (uint32_t *)out, (size_t *)(out + 8));
    call = "col_aabb2_query";
    break;
  case 1:
    got = col_aabb3_query((col_aabb3){{0, 0, 0}, {1, 1, 1}}, &set3, COL_TOUCH_OVERLAPS,
                          (uint32_t *)out, (size_t *)(out + 8));
    call = "col_aabb3_query";
    break;
  case 2:
    got = col_aabb2_query_aos(box2, &box2, 1, COL_TOUCH_OVERLAPS, (uint32_t *)out,
                              (size_t *)(out + 8));
    call = "col_aabb2_query_aos";
    break;
  case 3:
    got = col_aabb2_mtd_batch(1, &box2, &box2, (col_mtd *)out), call = "col_aabb2_mtd_batch";
    break;
  case 4: {
    const col_sprite s = {pixel, 1, 1, 1, 0, 0};
    got = col_sprite_overlap(s, s, 0, COL_PIXEL_COUNT, (col_pixel_hit *)out);
    call = "col_sprite_overlap";
    break;
  }
  case 5: {
    const col_circle_soa c = {lo, lo, hi, 1};
    got = col_circle_overlap_batch(&c, &c, COL_CIRCLE_SEED, out), call = "col_circle_overlap_batch";
    break;
  }
  case 6: {
    col_ball_soa a = {lo, lo, vx, vy, hi, 1}, b = {hi, hi, wx, wy, hi, 1};
    got = col_elastic_batch(&a, &b, (col_elastic_rule)0), call = "col_elastic_batch";
    /* the velocities are its output */
    if (vx[0] != 1 || vy[0] != 0 || wx[0] != -1 || wy[0] != 0) out[0] = 0;
    break;
  }
  case 7:
    got = col_sweep_aabb2_first(box2, (col_vec2){1, 0}, &set2, COL_TOUCH_OVERLAPS,
                                (col_aabb2_hit *)out);
    call = "col_sweep_aabb2_first";
    break;
  default: {
    const col_sphere_soa set = {lo, lo, lo, hi, 1};
    got = col_segment_spheres_robust((col_vec3){0, 0, 0}, (col_vec3){1, 1, 1}, &set,
                                     (col_segment_hit *)out);
    call = "col_segment_spheres_robust";
    break;
  }
  }
  const bool kept = fa_untouched(out, sizeof out);
  if (got == want && kept) return;
  fprintf(stderr, "fuzz args: %s with no backend to run returned %d (%s), expected %d (%s)%s\n",
          call, got, col_status_string(got), want, col_status_string(want),
          kept ? "" : "; it wrote its output");
  fz_fail();
}

/* COLLIDE_BACKEND set (or unset), the choice made again: its status, the active backend, the
 * reason printed once on an error (naming the variable's value and the backends it could
 * have been), and a batch call failing the same way. */
static void choose_by_environment(uint8_t pick, uint8_t which) {
  col_backend_info listed;
  const char *name = pick_name(pick, &listed);
  const char *kept = getenv("COLLIDE_BACKEND");
  char *saved = kept ? strcpy(fz_alloc(strlen(kept) + 1), kept) : NULL;
  const char *before = col_backend_name();
  if (name == NULL)
    unsetenv("COLLIDE_BACKEND");
  else
    setenv("COLLIDE_BACKEND", name, 1);
  const char *want_name;
  const col_status want = expected_choice(name, &listed, &want_name);
  col__backend_reset();
  char text[4096];
  const col_status got = captured(col_backend_init, text, sizeof text);
  check_choice("col_backend_init with COLLIDE_BACKEND", name, got, want, want_name);
  bool told = want == COL_OK ? text[0] == '\0' : strstr(text, "COLLIDE_BACKEND") != NULL;
  char quoted[96];
  snprintf(quoted, sizeof quoted, "\"%s\"", name ? name : "");
  told = told && (want == COL_OK || strstr(text, quoted) != NULL);
  col_backend_info info;
  for (size_t i = 0; want != COL_OK && told && col_backend_at(i, &info); i++)
    if (want == COL_ERR_BACKEND || info.supported) told = strstr(text, info.name) != NULL;
  if (!told) {
    fprintf(stderr,
            "fuzz args: COLLIDE_BACKEND=\"%s\" (status %d) printed \"%s\"; backends.h: "
            "the reason, once, naming the value and the backends to pick from\n",
            name ? name : "(unset)", want, text);
    fz_fail();
  }
  if (want != COL_OK) {
    /* Printed once: the batch call fails the same way, silently. */
    char again[256];
    batch_call_fails(which, want);
    if (captured(col_backend_init, again, sizeof again) != want || again[0] != '\0') {
      fprintf(stderr, "fuzz args: the reason for COLLIDE_BACKEND=\"%s\" was printed again: %s\n",
              name ? name : "", again);
      fz_fail();
    }
  }
  if (saved)
    setenv("COLLIDE_BACKEND", saved, 1);
  else
    unsetenv("COLLIDE_BACKEND");
  free(saved);
  col__backend_reset();
  if (before != NULL) fz_select(before);
}

/* col_backend_at and col_broadphase_at past the end or with a NULL output: false, writing
 * nothing (backends.h, broadphase.h). */
static void listing_ends(void) {
  col_backend_info b;
  col_broadphase_info p;
  memset(&b, CANARY, sizeof b), memset(&p, CANARY, sizeof p);
  if (col_backend_at(0, NULL) || col_backend_at(col_backend_count(), &b) ||
      col_broadphase_at(0, NULL) || col_broadphase_at(col_broadphase_count(), &p) ||
      !fa_untouched(&b, sizeof b) || !fa_untouched(&p, sizeof p)) {
    fputs("fuzz args: a registry listing past its end (or into NULL) returned true or wrote\n",
          stderr);
    fz_fail();
  }
}

/* Registry (operation bytes 0xE0-0xE3): a choice byte (bits 0-2: status string, kernel name,
 * select, environment; 4-7: a registration with a name of the input's bytes, register.c), then
 * its argument bytes: a status (one byte, signed), kernel bits (four bytes), a name pick (0
 * NULL, 1 empty, 2 unknown, else the pick-th listed backend) and, for the environment, the
 * batch call made when the choice fails. */
void fa_registry(fz_reader *r) {
  const uint8_t what = fz_u8(r);
  switch (what & 7) {
  case 0: status_strings((int8_t)fz_u8(r)); break;
  case 1: {
    const uint8_t shape = fz_u8(r);
    kernel_name(shape < 0x80 ? 1u << (shape % 16) : fz_u32(r));
    break;
  }
  case 2:
    select_by_name(fz_u8(r));
    listing_ends();
    break;
  case 3: {
    const uint8_t pick = fz_u8(r);
    choose_by_environment(pick, fz_u8(r));
    break;
  }
  default: fa_register_named(r); break;
  }
}
