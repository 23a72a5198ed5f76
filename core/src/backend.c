/* The backend registry: which kernel table the batch entry points use, and how it is chosen
 * (COLLIDE_BACKEND, else the newest backend this CPU supports). Modelled on simdjson's
 * SIMDJSON_FORCE_IMPLEMENTATION: a forced name that is unknown or unsupported is an error,
 * never a silent fallback. */
#include "backend.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A native backend of another architecture is listed, so that every build names the same
 * backends, but never supported: it has no kernels. */
#define FOREIGN(isa_name, lanes)                                                                   \
  { .name = isa_name, .width = lanes, .emulated = false, .supported = col__cpu_never }

#if defined(__x86_64__) || defined(__i386__)
#define NATIVE_AVX512 &col__backend_avx512
#define NATIVE_AVX2   &col__backend_avx2
#define NATIVE_SSE2   &col__backend_sse2
#define AUTOVEC       &col__backend_autovec
#else
static const col__backend foreign_avx512 = FOREIGN("avx512", 16);
static const col__backend foreign_avx2 = FOREIGN("avx2", 8);
static const col__backend foreign_sse2 = FOREIGN("sse2", 4);
#define NATIVE_AVX512 &foreign_avx512
#define NATIVE_AVX2   &foreign_avx2
#define NATIVE_SSE2   &foreign_sse2
static const col__backend foreign_autovec = FOREIGN("autovec", 1);
#define AUTOVEC       &foreign_autovec
#endif

#if defined(__aarch64__)
#define NATIVE_NEON &col__backend_neon
#else
static const col__backend foreign_neon = FOREIGN("neon", 4);
#define NATIVE_NEON &foreign_neon
#endif

/* Native SIMD backends newest first, then scalar, then the auto-vectorized reference and the
 * emulated twins. Automatic selection takes the first supported native entry (autovec, listed
 * after scalar, is never chosen by itself); emulated ones run only when asked for. */
static const col__backend *const registry[] = {
    NATIVE_AVX512,
    NATIVE_AVX2,
    NATIVE_SSE2,
    NATIVE_NEON,
    &col__backend_scalar,
    AUTOVEC,
    &col__backend_avx512_emu,
    &col__backend_avx2_emu,
    &col__backend_sse2_emu,
    &col__backend_neon_emu,
};

enum { REGISTRY_SIZE = sizeof registry / sizeof registry[0] };

/* One atomic word holds the resolution: a registry index (>= 0), a col_status (< 0), or
 * UNRESOLVED before the first use. */
#define UNRESOLVED INT_MIN
static atomic_int active_slot = UNRESOLVED;

const char *col_status_string(col_status status) {
  switch (status) {
  case COL_OK: return "ok";
  case COL_ERR_NULL: return "NULL pointer";
  case COL_ERR_SIZE: return "size out of range";
  case COL_ERR_STRIDE: return "stride smaller than width";
  case COL_ERR_OVERFLOW: return "size overflows the address space";
  case COL_ERR_ARGUMENT: return "argument out of range";
  case COL_ERR_BACKEND: return "unknown backend";
  case COL_ERR_UNSUPPORTED: return "backend not supported by this CPU";
  case COL_ERR_MEMORY: return "out of memory";
  }
  return "unknown status";
}

static int find_backend(const char *name) {
  for (int i = 0; i < REGISTRY_SIZE; i++)
    if (strcmp(registry[i]->name, name) == 0) return i;
  return -1;
}

static void list_names(FILE *to, bool supported_only) {
  const char *sep = "";
  for (int i = 0; i < REGISTRY_SIZE; i++) {
    if (supported_only && !registry[i]->supported()) continue;
    fprintf(to, "%s%s", sep, registry[i]->name);
    sep = ", ";
  }
}

/* Computes the slot from the environment; `report` says whether to explain a failure. */
static int choose_slot(bool report) {
  const char *forced = getenv("COLLIDE_BACKEND");
  if (forced != NULL && forced[0] != '\0') {
    int i = find_backend(forced);
    if (i < 0) {
      if (report) {
        fprintf(stderr,
                "collide: COLLIDE_BACKEND=\"%s\" is not a backend of this build (known: ", forced);
        list_names(stderr, false);
        fputs(")\n", stderr);
      }
      return COL_ERR_BACKEND;
    }
    if (!registry[i]->supported()) {
      if (report) {
        fprintf(stderr,
                "collide: COLLIDE_BACKEND=\"%s\": this CPU cannot run it (supported: ", forced);
        list_names(stderr, true);
        fputs(")\n", stderr);
      }
      return COL_ERR_UNSUPPORTED;
    }
    return i;
  }
  for (int i = 0; i < REGISTRY_SIZE; i++)
    if (!registry[i]->emulated && registry[i]->supported()) return i;
  return COL_ERR_UNSUPPORTED; /* unreachable: scalar is always supported */
}

static int resolve_slot(void) {
  int slot = atomic_load(&active_slot);
  if (slot != UNRESOLVED) return slot;
  int fresh = choose_slot(false);
  int expected = UNRESOLVED;
  if (atomic_compare_exchange_strong(&active_slot, &expected, fresh)) {
    if (fresh < 0) (void)choose_slot(true); /* only the thread that won explains it */
    return fresh;
  }
  return expected;
}

col_status col__backend_active(const col__backend **backend) {
  int slot = resolve_slot();
  if (slot < 0) {
    *backend = NULL;
    return (col_status)slot;
  }
  *backend = registry[slot];
  return COL_OK;
}

col_status col_backend_init(void) {
  int slot = resolve_slot();
  return slot < 0 ? (col_status)slot : COL_OK;
}

col_status col_backend_select(const char *name) {
  if (name == NULL) return COL_ERR_NULL;
  int i = find_backend(name);
  if (i < 0) return COL_ERR_BACKEND;
  if (!registry[i]->supported()) return COL_ERR_UNSUPPORTED;
  atomic_store(&active_slot, i);
  return COL_OK;
}

const char *col_backend_name(void) {
  int slot = resolve_slot();
  return slot < 0 ? NULL : registry[slot]->name;
}

size_t col_backend_count(void) { return REGISTRY_SIZE; }

bool col_backend_at(size_t i, col_backend_info *out) {
  if (out == NULL || i >= REGISTRY_SIZE) return false;
  const col__backend *b = registry[i];
  *out = (col_backend_info){
      .name = b->name, .width = b->width, .emulated = b->emulated, .supported = b->supported()};
  return true;
}

void col__backend_reset(void) { atomic_store(&active_slot, UNRESOLVED); }
