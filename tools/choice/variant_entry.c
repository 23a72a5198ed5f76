/* The variant's side of make fuzz-choice: the digest's kernels linked with the variant's build
 * of collide into one relocatable object (mk/digest.mk, choice-variant.o), whose only global names
 * are the two below; everything else in it, collide's col_ names included, is made local, so the
 * reference's library and the variant's live in one program. */
#include "digest.h"

#include <stdlib.h>
#include <string.h>

size_t choice_variant_kernels(void);
uint64_t choice_variant_run(size_t kernel, const char *backend, const uint8_t *bytes, size_t n,
                            char **show);

#define MAX_KERNELS 128
static dg_kernel kernels[MAX_KERNELS];
static size_t count;

size_t choice_variant_kernels(void) {
  if (count == 0) count = dg_all_kernels(kernels, MAX_KERNELS);
  return count;
}

/* The hash of the answer to `bytes` of kernel number `kernel` on the variant's `backend` ("-":
 * a call that uses none); with `show`, the --show text too (the caller frees it). An unknown
 * kernel or a backend the variant cannot select aborts: the two sides must run the same. */
uint64_t choice_variant_run(size_t kernel, const char *backend, const uint8_t *bytes, size_t n,
                            char **show) {
  if (kernel >= choice_variant_kernels()) abort();
  if (strcmp(backend, "-") != 0 && col_backend_select(backend) != COL_OK) abort();
  if (show) *show = dg_show_text(&kernels[kernel], 0, bytes, n);
  return dg_run_bytes(&kernels[kernel], bytes, n, NULL);
}
