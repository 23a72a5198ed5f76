/* collide/backends.h — Backends, the kernel table, and registering your own kernels and
 * broadphases: part of the public API, included by collide.h (which defines the types it uses);
 * include collide.h, not this file. */
#ifndef COLLIDE_BACKENDS_H
#define COLLIDE_BACKENDS_H

/* ---------------------------------------------------------------------------------------- */
/* Backends                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* A backend is a named table of batch kernels (col_kernels below).
 * The active backend is resolved once, on the first batch call or col_backend_init():
 * - if the environment variable COLLIDE_BACKEND is set and not empty, the backend of that name
 *   (an unknown name is COL_ERR_BACKEND, one this CPU cannot run is COL_ERR_UNSUPPORTED; the
 *   reason is printed once to stderr and every batch call then fails with that status: there
 *   is no silent fallback);
 * - otherwise the newest native backend this CPU supports (never an emulated, auto-vectorized
 *   or user one).
 *
 * Backends (col_backend_at lists them; docs/backends.md says what each one runs on): the native ones,
 * hand-written SIMD for one ISA each, newest first (such as avx512 with 16 lanes, avx2 with 8,
 * sse2 and neon with 4; every build lists those of other architectures, unsupported), scalar
 * (the reference), the reference source built by the compiler's auto-vectorizer (autovec: -O3
 * -march=x86-64-v3; never chosen automatically), and the emulated twins of the native ones
 * (named "<native>-emu", such as avx2-emu): the same SIMD source built with SIMDe's portable
 * fallbacks (SIMDE_NO_NATIVE), which run on any CPU and show what emulation costs; then the
 * user backends registered by the program ("user:<name>", see col_backend_register). Every
 * built-in one returns the scalar reference's results bit for bit; user ones promise to. */

/* What a backend is, so that harnesses never match names. */
typedef enum col_backend_kind {
  COL_BACKEND_NATIVE = 0,    /* hand-written SIMD for one ISA, built with its flags */
  COL_BACKEND_REFERENCE = 1, /* the scalar reference ("scalar") */
  COL_BACKEND_COMPILER = 2,  /* the reference source auto-vectorized by the compiler ("autovec") */
  COL_BACKEND_EMULATED = 3,  /* a native backend's source on SIMDe's portable code ("*-emu") */
  COL_BACKEND_USER = 4,      /* registered with col_backend_register ("user:*") */
} col_backend_kind;

/* The batch kernels, one bit each: which slots of a col_kernels table a backend fills. */
typedef enum col_kernel {
  COL_KERNEL_AABB2_QUERY = 1u << 0,     /* col_aabb2_query */
  COL_KERNEL_AABB2_QUERY_AOS = 1u << 1, /* col_aabb2_query_aos */
  COL_KERNEL_AABB3_QUERY = 1u << 2,     /* col_aabb3_query */
  COL_KERNEL_AABB2_MTD = 1u << 3,       /* col_aabb2_mtd_batch */
  COL_KERNEL_SPRITE = 1u << 4,          /* col_sprite_overlap */
  COL_KERNEL_MASK = 1u << 5,            /* col_mask_overlap */
  COL_KERNEL_CIRCLE = 1u << 6,          /* col_circle_overlap_batch */
  COL_KERNEL_ELASTIC = 1u << 7,         /* col_elastic_batch */
  COL_KERNEL_SEGMENT = 1u << 8,         /* col_segment_spheres */
  COL_KERNEL_SAP_RUN = 1u << 9,         /* sweep and prune's run scan (broadphase sap, cache) */
  COL_KERNEL_SEGMENT_ROBUST = 1u << 10, /* col_segment_spheres_robust */
  COL_KERNEL_SWEEP_AABB2 = 1u << 11,    /* col_sweep_aabb2_first, col_segment_aabb2_first */
  COL_KERNEL_SWEEP_AABB3 = 1u << 12,    /* col_sweep_aabb3_first, col_segment_aabb3_first */
  COL_KERNEL_ALL = (1u << 13) - 1u,
} col_kernel;

/* The slot's name ("aabb2_query", "aabb2_query_aos", "aabb3_query", "aabb2_mtd", "sprite",
 * "mask", "circle", "elastic", "segment", "sap_run", "segment_robust", "sweep_aabb2",
 * "sweep_aabb3") for one bit, NULL for anything else. */
const char *col_kernel_name(col_kernel kernel);

typedef struct col_backend_info {
  const char *name; /* "scalar", ..., "user:<name>" */
  unsigned width;   /* float lanes per vector: 1 for scalar */
  bool emulated;    /* kind == COL_BACKEND_EMULATED */
  bool supported;   /* this CPU can run it */
  col_backend_kind kind;
  unsigned kernels; /* col_kernel bits of the kernels it implements (COL_KERNEL_ALL for the
                       built-in ones; a user backend's other batch calls run the reference) */
} col_backend_info;

/* The number of backends listed, and the i-th of them: native ones newest first, then
 * scalar, autovec, the emulated twins, then user backends in the order registered. Natives
 * of another architecture are listed unsupported. col_backend_at returns false, writing
 * nothing, when i is out of range or out is NULL. */
size_t col_backend_count(void);
bool col_backend_at(size_t i, col_backend_info *out);

/* Resolves the active backend now (see above) and returns its status: COL_OK, or the error
 * that batch calls will return. Harnesses call it first to fail early and clearly. */
col_status col_backend_init(void);

/* Forces the active backend by name. COL_ERR_NULL, COL_ERR_BACKEND (unknown name: the active
 * backend does not change) or COL_ERR_UNSUPPORTED (not runnable here: unchanged). */
col_status col_backend_select(const char *name);

/* The name of the active backend, resolving it if needed; NULL when resolution failed. */
const char *col_backend_name(void);

/* ---------------------------------------------------------------------------------------- */
/* The kernel table: what a backend implements                                             */
/* ---------------------------------------------------------------------------------------- */

/* The kernels receive arguments the public entry points have already validated (non-NULL
 * arrays, valid enums, sizes that fit) and are only called with at least one element. Each
 * must return exactly what the scalar reference returns, bit for bit (the public function's
 * contract in collide.h), and must not read or write outside the arrays it is given. */

/* Two sprites' overlap window, clipped and validated: `a` and `b` point at the first pixel of
 * the window in each sprite (RGBA words, alpha in bits 24-31), rows `a_stride` / `b_stride`
 * pixels apart, width x height >= 1 pixels. */
typedef struct col_sprite_window {
  const uint32_t *a, *b;
  size_t a_stride, b_stride;
  size_t width, height;
} col_sprite_window;

/* A pixel kernel's answer relative to the window's top-left: the first solid pixel in both in
 * row-major order (col, row), and for COL_PIXEL_COUNT the number of such pixels (hit when
 * count > 0; col, row are then the first one). */
typedef struct col_window_hit {
  bool hit;
  size_t col, row;
  uint64_t count;
} col_window_hit;

/* Two masks' overlap window, clipped and validated. Word k of a window row covers 64 pixels of
 * a's word grid; the matching 64 pixels of b are (b[k] >> shift) | (b[k + 1] << (64 - shift))
 * (no second term when shift is 0; b[k + 1] is always readable). `first` and `last` keep the
 * window's columns of word 0 and word `words - 1` (both apply when words == 1). A hit's `col`
 * is the bit index from bit 0 of word 0. */
typedef struct col_mask_window {
  const uint64_t *a, *b;
  size_t a_stride, b_stride;
  size_t words, height;
  unsigned shift;
  uint64_t first, last;
} col_mask_window;

/* Sweep and prune's view of the boxes: sorted on min x, NaN-free, and followed by COL_SAP_PAD
 * boxes of NaN so that a run can be scanned a vector at a time without a bound (a NaN min x
 * ends every run). `x_lower`: test max x[j] >= min x[r] too (false only when sorting already
 * implies it: closed rule, no box inverted on x). */
#define COL_SAP_PAD 16
typedef struct col_sap_view {
  const float *min[3], *max[3];
  unsigned dims;
  bool x_lower;
} col_sap_view;

/* One slot per batch kernel; NULL leaves a slot empty (user backends only). */
typedef struct col_kernels {
  /* Ascending indices of the boxes of `set` overlapping `query`; returns their number. */
  size_t (*aabb2_query)(col_aabb2 query, const col_aabb2_soa *set, col_touch touch,
                        uint32_t *indices);
  size_t (*aabb2_query_aos)(col_aabb2 query, const col_aabb2 *boxes, size_t n, col_touch touch,
                            uint32_t *indices);
  size_t (*aabb3_query)(col_aabb3 query, const col_aabb3_soa *set, col_touch touch,
                        uint32_t *indices);
  void (*aabb2_mtd_batch)(size_t n, const col_aabb2 *a, const col_aabb2 *b, col_mtd *out);
  col_window_hit (*sprite_overlap)(const col_sprite_window *w, uint8_t threshold,
                                   col_pixel_mode mode);
  col_window_hit (*mask_overlap)(const col_mask_window *w, col_pixel_mode mode);
  void (*circle_overlap_batch)(size_t n, const col_circle_soa *a, const col_circle_soa *b,
                               col_circle_test test, uint8_t *hit);
  void (*elastic_batch)(size_t n, const col_ball_soa *a, const col_ball_soa *b,
                        col_elastic_rule rule);
  col_segment_hit (*segment_spheres)(col_vec3 from, col_vec3 to, const col_sphere_soa *set);
  /* The run of sorted box r: the positions j > r whose min x is within box r's x extent
   * (min x[j] <= max x[r], < for the open rule), ascending, that overlap box r under `touch`;
   * returns their number and sets *tested to the run's length. */
  size_t (*sap_run)(const col_sap_view *v, size_t r, col_touch touch, uint32_t *out,
                    size_t *tested);
  col_segment_hit (*segment_spheres_robust)(col_vec3 from, col_vec3 to, const col_sphere_soa *set);
  /* The box `mover` moved by `move` against every box of `set`: the earliest hit, ties to the
   * lowest index (col_sweep_aabb2_first / col_sweep_aabb3_first; the segment calls come here
   * with the point box {from, from} and move = to - from). */
  col_aabb2_hit (*sweep_aabb2)(col_aabb2 mover, col_vec2 move, const col_aabb2_soa *set,
                               col_touch touch);
  col_aabb3_hit (*sweep_aabb3)(col_aabb3 mover, col_vec3 move, const col_aabb3_soa *set,
                               col_touch touch);
} col_kernels;

/* ---------------------------------------------------------------------------------------- */
/* Your own kernels and broadphases                                                          */
/* ---------------------------------------------------------------------------------------- */

/* Registration puts a program's own implementation beside the built-in ones: every harness of
 * the project (unit tests, fuzzers, benchmarks, report) walks col_backend_at and
 * col_broadphase_at, so a registered one is tested, fuzzed against the reference and timed
 * like ours. Register before other threads use collide (like col_backend_select). The
 * registered structs are copied; the name strings must outlive the program's use of collide.
 *
 * The harness's way in (docs/user-kernels.md): a C file defining
 * col_user_register(), which calls the functions below, given to make as
 * USER_KERNELS=path/to/file.c (several files: separated by spaces). collide itself never
 * defines or calls col_user_register. */
col_status col_user_register(void);

/* The version of the structs below; a caller built against another header is refused. */
#define COL_USER_VERSION 3 /* 2: col_kernels gained segment_spheres_robust; 3: sweep_aabb2/3 */

/* At most this many user backends and this many user broadphases. */
#define COL_USER_MAX 8

/* A user backend: a name (1-32 characters of [A-Za-z0-9_.-]; listed as "user:<name>"), its
 * vector width (informational, >= 1), a CPU check (NULL: runs everywhere) and any non-empty
 * subset of the kernel slots. A batch call whose slot is empty runs the scalar reference, and
 * harnesses skip that kernel for this backend. Never chosen automatically: COLLIDE_BACKEND or
 * col_backend_select picks it. */
typedef struct col_user_backend {
  unsigned version; /* COL_USER_VERSION */
  const char *name;
  unsigned width;
  bool (*supported)(void);
  col_kernels kernels;
} col_user_backend;

/* Adds a user backend. COL_ERR_NULL (backend or name NULL), COL_ERR_VERSION (version is not
 * COL_USER_VERSION), COL_ERR_ARGUMENT (name empty, too long or with other characters, width
 * 0, or every slot empty), COL_ERR_EXISTS (a user backend of that name is registered
 * already), COL_ERR_SIZE (COL_USER_MAX user backends registered already). Nothing changes on
 * error. */
col_status col_backend_register(const col_user_backend *backend);

/* A user broadphase: a function with col_broadphase_pairs' contract (exactly brute force's
 * pair set for every input: NaN, inverted, infinite and huge boxes included, both touch rules;
 * any order; a < b). It receives validated boxes (dims 2 or 3, count <= UINT32_MAX, arrays
 * non-NULL when count > 0, a valid touch rule) and an emptied `out`, which it fills with
 * col_pairs_push; `stats` is never NULL and starts zeroed (its `pairs` is set from `out`
 * afterwards, `cells` set to 0; `tests` and `scratch_bytes` are the function's to report, and
 * the rules broadphase.h states for the built-in algorithms' tests do not bind it). `context` is
 * the registered pointer, passed back. An error status it returns reaches the caller, with `out`
 * emptied. */
typedef col_status (*col_broadphase_fn)(const col_boxes *boxes, col_touch touch, col_pairs *out,
                                        col_broadphase_stats *stats, void *context);

typedef struct col_user_broadphase {
  unsigned version; /* COL_USER_VERSION */
  const char *name; /* as a backend's name; listed as "user:<name>" */
  col_broadphase_fn pairs;
  void *context;
  bool two_d, three_d; /* the box sets it takes; at least one */
} col_user_broadphase;

/* Adds a user broadphase and writes the value that selects it in col_broadphase_pairs and the
 * simulations to *algorithm (the registry index: col_broadphase_count() before the call).
 * Errors as col_backend_register (COL_ERR_NULL also for a NULL pairs or algorithm;
 * COL_ERR_ARGUMENT also when neither two_d nor three_d is set). */
col_status col_broadphase_register(const col_user_broadphase *broadphase,
                                   col_broadphase *algorithm);

/* Appends the pair (min(a, b), max(a, b)) to `pairs`: COL_OK, COL_ERR_NULL, COL_ERR_MEMORY
 * (the list is unchanged). For user broadphases, which must not push a pair twice. */
col_status col_pairs_push(col_pairs *pairs, uint32_t a, uint32_t b);

#endif
