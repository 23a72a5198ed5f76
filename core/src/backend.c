/* The backend registry: which kernel table the batch entry points use, and how it is chosen
 * (COLLIDE_BACKEND, else the newest backend this CPU supports). Modelled on simdjson's
 * SIMDJSON_FORCE_IMPLEMENTATION: a forced name that is unknown or unsupported is an error,
 * never a silent fallback. */
#include "backend.h"

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An ISA file not built for this target is listed all the same, so that every build names the
 * same backends, but never supported: a stand-in with no kernels. COL__IF(built, a, b) is a
 * when built is 1, b when 0. */
#define COL__IF_1(a, b)      a
#define COL__IF_0(a, b)      b
#define COL__IF(built, a, b) COL_CAT(COL__IF_, built)(a, b)
#define NO_STAND_IN(name, lanes, isa_kind)
#define STAND_IN(isa, lanes, isa_kind)                                                             \
  static const col__backend stand_in_##isa = {                                                     \
      .name = #isa, .width = lanes, .kind = isa_kind, .supported = col__cpu_never};
#define NATIVE_STAND_IN(name, lanes, cpu_test, built)                                              \
  COL__IF(built, NO_STAND_IN, STAND_IN)(name, lanes, COL_BACKEND_NATIVE)
#define COMPILER_STAND_IN(name, lanes, cpu_test, built)                                            \
  COL__IF(built, NO_STAND_IN, STAND_IN)(name, lanes, COL_BACKEND_COMPILER)
COL_ISA_NATIVE(NATIVE_STAND_IN)
COL_ISA_COMPILER(COMPILER_STAND_IN)

#define ROW(name, lanes, cpu_test, built) COL__IF(built, &col__backend_##name, &stand_in_##name),
#define EMULATED_ROW(name, lanes)         &col__backend_##name##_emu,

/* Automatic selection takes the first supported native entry (autovec, listed after scalar, is
 * never chosen by itself); emulated ones run only when asked for. One group a line (the macros
 * expand to rows with their commas). */
/* clang-format off */
static const col__backend *const builtin[] = {
    COL_ISA_NATIVE(ROW)            /* the native backends by rank: the newest first */
    &col__backend_scalar,          /* the reference */
    COL_ISA_COMPILER(ROW)          /* the reference built by the compiler's vectorizer (autovec) */
    COL_ISA_EMULATED(EMULATED_ROW) /* the emulated twins, in the natives' order */
};
/* clang-format on */

enum { BUILTIN = sizeof builtin / sizeof builtin[0], REGISTRY_MAX = BUILTIN + COL_USER_MAX };

/* User backends follow the built-in ones; their tables and names are copied here. */
static col__backend user_table[COL_USER_MAX];
static char user_name[COL_USER_MAX][COL__USER_FULL_MAX];
static atomic_int user_count;

static int registry_size(void) { return BUILTIN + atomic_load(&user_count); }

static const col__backend *entry(int i) {
  return i < BUILTIN ? builtin[i] : &user_table[i - BUILTIN];
}

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
  case COL_ERR_EXISTS: return "name already registered";
  case COL_ERR_VERSION: return "struct from another version of collide.h";
  case COL_ERR_TASKS: return "task system could not run the work";
  case COL_ERR_FORMAT: return "file breaks the scene format";
  case COL_ERR_IO: return "file could not be read or written";
  }
  return "unknown status";
}

/* The slots of col_kernels, in col_kernel bit order: the one list the name lookup, the
 * completeness check and user registration walk (slot i is bit 1 << i). */
typedef void (*any_fn)(void);
static const struct {
  const char *name;
  size_t offset;
} slots[] = {
    {"aabb2_query", offsetof(col_kernels, aabb2_query)},
    {"aabb2_query_aos", offsetof(col_kernels, aabb2_query_aos)},
    {"aabb3_query", offsetof(col_kernels, aabb3_query)},
    {"aabb2_mtd", offsetof(col_kernels, aabb2_mtd_batch)},
    {"sprite", offsetof(col_kernels, sprite_overlap)},
    {"mask", offsetof(col_kernels, mask_overlap)},
    {"circle", offsetof(col_kernels, circle_overlap_batch)},
    {"elastic", offsetof(col_kernels, elastic_batch)},
    {"segment", offsetof(col_kernels, segment_spheres)},
    {"sap_run", offsetof(col_kernels, sap_run)},
    {"segment_robust", offsetof(col_kernels, segment_spheres_robust)},
    {"sweep_aabb2", offsetof(col_kernels, sweep_aabb2)},
    {"sweep_aabb3", offsetof(col_kernels, sweep_aabb3)},
};
enum { SLOTS = sizeof slots / sizeof slots[0] };
_Static_assert(COL_KERNEL_ALL == (1u << SLOTS) - 1u, "one row per col_kernel bit");
_Static_assert(sizeof(col_kernels) == SLOTS * sizeof(any_fn), "one row per col_kernels slot");

/* Slot i of a table, as a generic function pointer (copied: the slots' types differ). */
static any_fn slot_fn(const col_kernels *k, unsigned i) {
  any_fn fn;
  memcpy(&fn, (const char *)k + slots[i].offset, sizeof fn);
  return fn;
}

const char *col_kernel_name(col_kernel kernel) {
  for (unsigned i = 0; i < SLOTS; i++)
    if ((unsigned)kernel == 1u << i) return slots[i].name;
  return NULL;
}

unsigned col__kernels_present(const col_kernels *k) {
  unsigned bits = 0;
  for (unsigned i = 0; i < SLOTS; i++)
    if (slot_fn(k, i) != NULL) bits |= 1u << i;
  return bits;
}

/* A runnable built-in table with an empty slot is a build mistake (a new ISA file that forgot
 * a kernel): the registry refuses it by name instead of crashing in the first batch call. */
bool col__backend_complete(const col__backend *b, bool report) {
  const unsigned missing = COL_KERNEL_ALL & ~col__kernels_present(&b->k);
  if (missing == 0 || b->kind == COL_BACKEND_USER) return true;
  if (report)
    fprintf(stderr, "collide: backend \"%s\" has no %s kernel: its table is incomplete\n", b->name,
            col_kernel_name((col_kernel)(missing & -missing)));
  return false;
}

static int find_backend(const char *name) {
  for (int i = 0; i < registry_size(); i++)
    if (strcmp(entry(i)->name, name) == 0) return i;
  return -1;
}

static void list_names(FILE *to, bool supported_only) {
  const char *sep = "";
  for (int i = 0; i < registry_size(); i++) {
    if (supported_only && !entry(i)->supported()) continue;
    fprintf(to, "%s%s", sep, entry(i)->name);
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
    if (!entry(i)->supported()) {
      if (report) {
        fprintf(stderr,
                "collide: COLLIDE_BACKEND=\"%s\": this CPU cannot run it (supported: ", forced);
        list_names(stderr, true);
        fputs(")\n", stderr);
      }
      return COL_ERR_UNSUPPORTED;
    }
    return col__backend_complete(entry(i), report) ? i : COL_ERR_BACKEND;
  }
  for (int i = 0; i < BUILTIN; i++)
    if (builtin[i]->kind == COL_BACKEND_NATIVE && builtin[i]->supported())
      return col__backend_complete(builtin[i], report) ? i : COL_ERR_BACKEND;
  return col__backend_complete(&col__backend_scalar, report) ? find_backend("scalar")
                                                             : COL_ERR_BACKEND;
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
  *backend = entry(slot);
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
  if (!entry(i)->supported()) return COL_ERR_UNSUPPORTED;
  if (!col__backend_complete(entry(i), true)) return COL_ERR_BACKEND;
  atomic_store(&active_slot, i);
  return COL_OK;
}

const char *col_backend_name(void) {
  int slot = resolve_slot();
  return slot < 0 ? NULL : entry(slot)->name;
}

size_t col_backend_count(void) { return (size_t)registry_size(); }

bool col_backend_at(size_t i, col_backend_info *out) {
  if (out == NULL || i >= (size_t)registry_size()) return false;
  const col__backend *b = entry((int)i);
  *out = (col_backend_info){.name = b->name,
                            .width = b->width,
                            .emulated = b->kind == COL_BACKEND_EMULATED,
                            .supported = b->supported(),
                            .kind = b->kind,
                            .kernels = b->kernels & col__kernels_present(&b->k)};
  return true;
}

bool col__user_full_name(const char *name, char full[COL__USER_FULL_MAX]) {
  size_t n = 0;
  for (; name[n] != '\0'; n++) {
    const char c = name[n];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok || n >= COL__USER_NAME_MAX) return false;
  }
  if (n == 0) return false;
  snprintf(full, COL__USER_FULL_MAX, "user:%s", name);
  return true;
}

static bool always(void) { return true; }

col_status col_backend_register(const col_user_backend *backend) {
  if (backend == NULL || backend->name == NULL) return COL_ERR_NULL;
  if (backend->version != COL_USER_VERSION) return COL_ERR_VERSION;
  const unsigned own = col__kernels_present(&backend->kernels);
  char full[COL__USER_FULL_MAX];
  if (!col__user_full_name(backend->name, full) || backend->width == 0 || own == 0)
    return COL_ERR_ARGUMENT;
  const int n = atomic_load(&user_count);
  if (find_backend(full) >= 0) return COL_ERR_EXISTS;
  if (n == COL_USER_MAX) return COL_ERR_SIZE;
  /* Empty slots run the reference, so the table is complete for every batch call. */
  col_kernels k = col__backend_scalar.k;
  for (unsigned i = 0; i < SLOTS; i++)
    if (own & 1u << i)
      memcpy((char *)&k + slots[i].offset, (const char *)&backend->kernels + slots[i].offset,
             sizeof(any_fn));
  memcpy(user_name[n], full, sizeof full);
  user_table[n] = (col__backend){.name = user_name[n],
                                 .width = backend->width,
                                 .kind = COL_BACKEND_USER,
                                 .supported = backend->supported ? backend->supported : always,
                                 .kernels = own,
                                 .k = k};
  atomic_store(&user_count, n + 1);
  /* A COLLIDE_BACKEND naming this backend may have been read before it existed. */
  int failed = COL_ERR_BACKEND;
  atomic_compare_exchange_strong(&active_slot, &failed, UNRESOLVED);
  return COL_OK;
}

void col__backend_reset(void) { atomic_store(&active_slot, UNRESOLVED); }
