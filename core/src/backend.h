/* Internal: the backend table that every SIMD backend fills, and the shared kernel inputs.
 * Public entry points validate their arguments, then call the active backend's kernel with
 * inputs that are known to be valid. */
#ifndef COLLIDE_BACKEND_H
#define COLLIDE_BACKEND_H

#include "collide.h"

#include <float.h>

/* Bit for bit means every float operation rounds to float, in the scalar reference as in the
 * vector lanes: no wider evaluation (gcc's C11 mode on s390x has it unless
 * -fexcess-precision=fast, which the Makefile adds there). */
_Static_assert(FLT_EVAL_METHOD == 0, "float arithmetic must be evaluated in float");

/* Byte order, for the few places where the ISA files store a vector's lanes at one width and
 * the data is read at another: x86's registers (and SIMDe's emulation of them) put lane 0 of
 * any width first in memory, but a uint64 or a bool inside a dword lies in the machine's order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define COL_BIG_ENDIAN 1
#else
#define COL_BIG_ENDIAN 0
#endif

/* A dword whose first byte in memory is 1 and the other three 0: a bool true and the three
 * padding bytes after it, stored as one 32-bit lane (the ISA files' store_mtd). */
#define COL_TRUE_DWORD (COL_BIG_ENDIAN ? 0x01000000 : 1)

/* The terms of a segment that do not depend on the sphere (segment.c): whether from and to are
 * finite, len = |to - from| and dir = (to - from) / len (left zero when len == 0). */
typedef struct col__segment_prep {
  col_vec3 from, dir;
  float len;
  bool finite;
} col__segment_prep;

col__segment_prep col__segment_prepare(col_vec3 from, col_vec3 to);

/* One cell of sweep and prune (broadphase/sap/sweep.c): `view` holds boxes [0, count) sorted on
 * min x and the NaN padding after them; id[p] is the box index of position p, tag[p] says
 * whether this cell is the box's first row (bit 0) and first layer (bit 1) of the grid. A
 * pair met here is kept when (tag[r] | tag[j]) == 3: then this cell holds the larger first
 * row and the larger first layer of the two boxes, the one cell that reports the pair. id and
 * tag are readable over the padding too. sparse: hits are expected to be rare (a hint: the
 * sweep may then look for a hit in a block before writing its pairs). */
typedef struct col__sap_cell {
  col_sap_view view;
  const uint32_t *id, *tag;
  size_t count;
  bool sparse;
} col__sap_cell;

/* Room a whole-cell sweep needs in the pair list before each block of a run. */
#define COL__SAP_ROOM 16

/* The whole-cell sweep: the runs of positions *r, *r + 1, ... (the run of *r resumed at
 * position *j when *j != 0), each hit (min id, max id) written to out when kept by the tags;
 * returns the pairs written and adds the run lengths to *tested. Stops when every run is done
 * (*r = count - 1 or more) or, with *r / *j at the resume point, when fewer than
 * COL__SAP_ROOM of `room` places remain. Pairs come in no particular order; writes may touch
 * up to COL__SAP_ROOM places past the pairs written. */
typedef size_t (*col__sap_sweep_fn)(const col__sap_cell *cell, col_touch touch, size_t *r,
                                    size_t *j, col_pair *out, size_t room, size_t *tested);

/* A box as sweep and prune's cells read it (broadphase/sap/count.c), in 16-byte units: min x,
 * min y, max x, max y; in 3D a second unit after it with the bits of min z and max z and two
 * zero words. Box i's record is rec[i] in 2D and rec[2 i], rec[2 i + 1] in 3D
 * (COL__SAP_UNITS units), so a copy in a cell is one or two aligned loads wherever the box
 * sits, and a 2D record fills a quarter of a cache line, not half (the cells' unpack gathers
 * records in sorted order, which is random in memory). */
typedef struct col__sap_rec {
  float v[4];
} col__sap_rec;
#define COL__SAP_UNITS(dims) ((dims) == 3 ? 2u : 1u)

/* A cell's places slot[0, n) (n a multiple of 16; each the box index | its tag << 32) as the
 * cell's arrays: min[a][p], max[a][p] (a < dims) of the box's record (units as above), id[p]
 * and tag[p]; bits copied unchanged. */
typedef void (*col__sap_unpack_fn)(const col__sap_rec *rec, const uint64_t *slot, size_t n,
                                   unsigned dims, float *const min[3], float *const max[3],
                                   uint32_t *id, uint32_t *tag);

/* A backend: its public description and its kernels. Built-in tables fill every slot (checked
 * when the registry is first used); a user backend's empty slots hold the reference's kernels
 * and are left out of `kernels`. */
typedef struct col__backend {
  const char *name;
  unsigned width;
  col_backend_kind kind;
  bool (*supported)(void);
  unsigned kernels; /* col_kernel bits the backend implements itself */
  col_kernels k;
  /* The SIMD backends' whole-cell sweep; NULL (the reference, user backends): sweep and prune
   * calls k.sap_run once per run instead. */
  col__sap_sweep_fn sap_sweep;
  /* The records' transpose with the backend's vectors; NULL: a portable loop (sap/sweep.c). */
  col__sap_unpack_fn sap_unpack;
} col__backend;

/* The col_kernel bits of a table's non-empty slots. */
unsigned col__kernels_present(const col_kernels *k);

/* Whether a table fills every slot (user tables always pass: their holes run the reference);
 * with `report`, names the first empty slot on stderr. */
bool col__backend_complete(const col__backend *b, bool report);

/* User names (backends and broadphases): 1 to COL__USER_NAME_MAX of [A-Za-z0-9_.-], listed
 * as "user:<name>". col__user_full_name checks `name` and writes the listed form to `full`
 * (false, writing nothing, for a name that breaks the rule). */
#define COL__USER_NAME_MAX 32
#define COL__USER_FULL_MAX (COL__USER_NAME_MAX + sizeof "user:")
bool col__user_full_name(const char *name, char full[COL__USER_FULL_MAX]);

/* Token pasting and quoting after expansion (COL_CAT(col__backend_, COL_ISA)). */
#define COL_CAT_(a, b) a##b
#define COL_CAT(a, b)  COL_CAT_(a, b)
#define COL_STR_(a)    #a
#define COL_STR(a)     COL_STR_(a)

/* The backends built from ISA files (core/src/<arch>/<name>.c), from the collide-isa line at
 * the top of each: COL_ISA_NATIVE, COL_ISA_COMPILER and COL_ISA_EMULATED, generated into the
 * build folder by scripts/build/isa-list.sh for the target (its comment says what they hold). The
 * build compiles each ISA file with -DCOL_ISA=<name>. */
#include "isa_list.h"

/* CPU feature tests (cpu.c, built without ISA flags): col__cpu_has_<name> for each ISA file,
 * false where it is not built. */
bool col__cpu_any(void);
bool col__cpu_never(void);
/* An AMD family 19h CPU without AVX-512: Zen 3 (Zen 4 has AVX-512); false off x86. */
bool col__cpu_zen3(void);
#define COL__ISA_CPU_DECL(name, lanes, cpu_test, built) bool col__cpu_has_##name(void);
COL_ISA_NATIVE(COL__ISA_CPU_DECL)
COL_ISA_COMPILER(COL__ISA_CPU_DECL)

/* The backends' tables: the reference built as scalar (scalar.c), and one per ISA file built
 * here: col__backend_<name> natively (a SIMD ISA file instantiates simd/simd_kernels.h, a
 * compiler one ref_backend.h) and col__backend_<name>_emu for the emulated twins. */
extern const col__backend col__backend_scalar;
#define COL__ISA_TABLE_DECL(name, lanes, cpu_test, built)                                          \
  extern const col__backend col__backend_##name;
COL_ISA_NATIVE(COL__ISA_TABLE_DECL)
COL_ISA_COMPILER(COL__ISA_TABLE_DECL)
#define COL__ISA_EMU_DECL(name, lanes) extern const col__backend col__backend_##name##_emu;
COL_ISA_EMULATED(COL__ISA_EMU_DECL)

/* Each ISA's lanes (col__isa_lanes_<name>), for the ISA files to check their COL_W. */
#define COL__ISA_LANES(name, lanes, ...) col__isa_lanes_##name = lanes,
enum { COL_ISA_NATIVE(COL__ISA_LANES) COL_ISA_COMPILER(COL__ISA_LANES) };

/* The active backend, resolving it on first use. On failure returns the status and sets
 * *backend to NULL. */
col_status col__backend_active(const col__backend **backend);

/* For the unit tests only: forget the resolution so that COLLIDE_BACKEND is read again. */
void col__backend_reset(void);

#endif
