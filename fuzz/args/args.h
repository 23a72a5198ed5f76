/* The argument fuzz target (fuzz_args.c, which only picks the operation) in parts by concern:
 * the kernels (kernels.c), the broadphases (broadphase.c), the simulations (sims.c), the
 * registration of one's own backend or broadphase (register.c), the backend registry's other
 * calls (registry.c), the thread pool and the parallel calls (pool.c), scene files (scene.c). Each
 * part decodes its operation's arguments from the input and judges the call against the header's
 * error list with the helpers below (args.c). */
#ifndef COLLIDE_FUZZ_ARGS_H
#define COLLIDE_FUZZ_ARGS_H

#include "../fuzz_common.h"

/* Outputs start as this byte; on error they must still hold it. */
#define CANARY 0xA5u
/* Arrays hold at most this many elements; calls with larger valid counts are skipped. */
enum { MAX_ALLOC = 16 };
/* The bit of a documented error in an `applies` set. */
#define ERR(status) (1u << -(status))

/* A count: small ones (allocated as such) or ones past what any array here holds. */
size_t fa_count(fz_reader *r);
/* An enum: mostly 0 or 1 (the valid values everywhere here), sometimes out of range. */
int fa_enum(fz_reader *r);
bool fa_valid01(int v);
/* A float array of `count` claimed elements: NULL (flag), or exactly min(count, MAX_ALLOC)
 * floats from the input. */
float *fa_floats(fz_reader *r, size_t count, bool null);
/* An output buffer of `bytes` canary bytes (NULL when asked). */
void *fa_canaries(size_t bytes, bool null);
bool fa_untouched(const void *p, size_t bytes);
/* The status against the set of documented errors that apply; outputs untouched on error
 * (`outputs_kept`). Aborts with a report otherwise. */
void fa_judge(const char *op, col_status got, unsigned applies, bool outputs_kept);
/* Allocation failure in the calls that allocate once their arguments pass (broadphases, cache,
 * bipartite, simulations, the pair list): a byte read after the operation's arguments; bit 7
 * asks for the failure of the call's allocation number bits 0-5 (fa_arm); bit 6 that of the
 * pair list's first push (fa_push_starved; broadphase operations) or of the step's allocation
 * (simulations, whose bit 7 starves the create). Exhausted input arms nothing. */
uint8_t fa_starve(fz_reader *r);
/* Arms the failure a starve byte asks for, right before the call. */
void fa_arm(uint8_t starve);
/* fa_judge for a call made with a failure armed: when an allocation did fail, COL_ERR_MEMORY
 * with the header's state for it (`memory_state`), or a documented error that applies with the
 * outputs kept (a call refused before it allocated) is expected; otherwise as fa_judge. */
void fa_judge_starved(const char *op, col_status got, unsigned applies, bool outputs_kept,
                      bool memory_state);
/* col_pairs_push into an empty list with its allocation failing: COL_ERR_MEMORY and the list
 * unchanged (backends.h); then the push again, which must succeed. */
void fa_push_starved(col_pairs *out, uint32_t a, uint32_t b);
/* Whether a valid call with this count fits the arrays allocated (else it is skipped: the
 * other targets cover valid calls). */
bool fa_fits(size_t count);

/* A sprite from the input (kernels.c): sizes and stride from edge values, pixels allocated
 * when small (*small), else NULL; *applies gets col_sprite_check's errors for it. */
col_sprite fa_decode_sprite(fz_reader *r, unsigned *applies, bool *small);

/* The operations (the operation byte picks one). */
void fa_aabb_query(fz_reader *r, int dims, bool aos);
void fa_mtd_batch(fz_reader *r);
void fa_circle_batch(fz_reader *r, bool elastic);
void fa_segment_spheres(fz_reader *r);
void fa_sprite_overlap(fz_reader *r);
void fa_mask_overlap(fz_reader *r);
void fa_pixel_move(fz_reader *r, bool reference);
void fa_broadphase(fz_reader *r);
void fa_bipartite(fz_reader *r);
void fa_register(fz_reader *r);
/* A registration with a name of the input's bytes (register.c; the registry operation's). */
void fa_register_named(fz_reader *r);
void fa_sims(fz_reader *r);
/* Added later (operation bytes 0xE0-0xEF): */
void fa_registry(fz_reader *r);       /* the backend registry (registry.c) */
void fa_pool(fz_reader *r);           /* collide's thread pool (pool.c) */
void fa_parallel(fz_reader *r);       /* the parallel broadphase's entry points (pool.c) */
void fa_scene(fz_reader *r);          /* scene files (scene.c) */
void fa_cache_settings(fz_reader *r); /* the cache's settings, the pair list (broadphase.c) */
void fa_stream(fz_reader *r);         /* the streamed pair search's arguments (broadphase.c) */
void fa_masks(fz_reader *r);          /* the masks' constructors (masks.c) */

#endif
