/* The argument target's shared helpers (declared in args.h): how a part decodes counts, enums,
 * arrays and canary-filled outputs from the input, and how it judges a call's status against
 * the header's error list. */
#include "args.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

size_t fa_count(fz_reader *r) {
  static const size_t big[4] = {(size_t)UINT32_MAX, (size_t)UINT32_MAX + 1u, SIZE_MAX / 2,
                                SIZE_MAX};
  const uint8_t v = fz_u8(r);
  return v >= 0xF0 ? big[v & 3] : (size_t)(v % 12);
}

int fa_enum(fz_reader *r) {
  static const int odd[4] = {2, -1, INT_MAX, INT_MIN};
  const uint8_t v = fz_u8(r);
  return v >= 0xC0 ? odd[v & 3] : (int)(v & 1);
}

bool fa_valid01(int v) { return v == 0 || v == 1; }

float *fa_floats(fz_reader *r, size_t count, bool null) {
  if (null) return NULL;
  const size_t n = count < MAX_ALLOC ? count : MAX_ALLOC;
  float *f = fz_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) f[i] = fz_float(r);
  return f;
}

void *fa_canaries(size_t bytes, bool null) {
  if (null) return NULL;
  unsigned char *p = fz_alloc(bytes);
  memset(p, CANARY, bytes ? bytes : 1);
  return p;
}

bool fa_untouched(const void *p, size_t bytes) {
  const unsigned char *c = p;
  for (size_t i = 0; p != NULL && i < bytes; i++)
    if (c[i] != CANARY) return false;
  return true;
}

/* The status against the set of documented errors that apply (bit -status); untouched outputs
 * on error. `called` false: the call was skipped (its arguments are valid but larger than what
 * was allocated: the other targets cover valid calls). */
void fa_judge(const char *op, col_status got, unsigned applies, bool outputs_kept) {
  const bool ok =
      applies == 0 ? got == COL_OK : got < 0 && got > -32 && (applies & (1u << -got)) != 0;
  if (ok && (got == COL_OK || outputs_kept)) return;
  fprintf(stderr, "fuzz args: %s returned %d (%s); documented errors that apply:", op, got,
          col_status_string(got));
  if (applies == 0) fputs(" none (COL_OK expected)", stderr);
  for (int s = 1; s < 32; s++)
    if (applies & (1u << s)) fprintf(stderr, " %d (%s)", -s, col_status_string((col_status)-s));
  fputc('\n', stderr);
  if (ok) fprintf(stderr, "fuzz args: %s wrote an output on error\n", op);
  fz_fail();
}

uint8_t fa_starve(fz_reader *r) { return fz_u8(r); }

/* -1 disarms, and clears what an earlier failure left to report. */
void fa_arm(uint8_t starve) { fz_fail_allocation(starve & 0x80 ? starve & 0x3f : -1); }

void fa_judge_starved(const char *op, col_status got, unsigned applies, bool outputs_kept,
                      bool memory_state) {
  if (!fz_allocation_failed()) {
    fa_judge(op, got, applies, outputs_kept);
    return;
  }
  const bool refused = got < 0 && got > -32 && (applies & (1u << -got)) != 0 && outputs_kept;
  if ((got == COL_ERR_MEMORY && memory_state) || refused) return;
  fprintf(stderr,
          "fuzz args: %s with an allocation failing returned %d (%s)%s; expected COL_ERR_MEMORY "
          "with the outputs as the header states, or a documented error with them untouched\n",
          op, got, col_status_string(got),
          got == COL_ERR_MEMORY ? ", the outputs not as the header states" : "");
  fz_fail();
}

void fa_push_starved(col_pairs *out, uint32_t a, uint32_t b) {
  const col_pairs before = *out;
  fz_fail_allocation(0);
  const col_status st = col_pairs_push(out, a, b);
  const bool failed = fz_allocation_failed();
  if (st != COL_ERR_MEMORY || !failed || memcmp(out, &before, sizeof before) != 0) {
    fprintf(stderr,
            "fuzz args: col_pairs_push with its allocation failing returned %d, allocation %s, "
            "list %s (backends.h: COL_ERR_MEMORY, the list unchanged)\n",
            (int)st, failed ? "failed" : "not made",
            memcmp(out, &before, sizeof before) == 0 ? "unchanged" : "changed");
    fz_fail();
  }
  if (col_pairs_push(out, a, b) != COL_OK) abort();
}

bool fa_fits(size_t count) { return count <= MAX_ALLOC; }
