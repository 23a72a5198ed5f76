/* make fuzz-choice: one libFuzzer program holding the reference build of collide and a compared
 * variant (tools/choice/variant_entry.c), which runs each input through one kernel of the
 * digest (the input's first byte picks it, the second its backend; the rest are the kernel's
 * values, drawn as the digest draws them) on both and stops at the first input whose answers
 * differ, printing both (scripts/fuzz/fuzz-choice.sh minimizes it and prints a command that runs it
 * again). */
#include "digest.h"

#include "backend_filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t choice_variant_kernels(void);
uint64_t choice_variant_run(size_t kernel, const char *backend, const uint8_t *bytes, size_t n,
                            char **show);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_KERNELS 128
static dg_kernel kernels[MAX_KERNELS];
static size_t count;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  count = dg_all_kernels(kernels, MAX_KERNELS);
  if (count != choice_variant_kernels()) {
    fprintf(stderr,
            "fuzz-choice: the reference lists %zu kernels, the variant %zu: not one source\n",
            count, choice_variant_kernels());
    exit(2);
  }
  return 0;
}

static size_t backends_of(const dg_kernel *k, const char **names, size_t max) {
  if (k->slots == 0) {
    names[0] = "-";
    return 1;
  }
  static col_backend_info info[64];
  const size_t n = harness_backends(info, max < 64 ? max : 64, k->slots,
                                    HARNESS_ALL_KINDS & ~HARNESS_KIND(COL_BACKEND_USER));
  for (size_t i = 0; i < n; i++) names[i] = info[i].name;
  return n;
}

static uint64_t reference_run(const dg_kernel *k, const char *backend, const uint8_t *bytes,
                              size_t n, char **show) {
  if (strcmp(backend, "-") != 0 && col_backend_select(backend) != COL_OK) abort();
  if (show) *show = dg_show_text(k, 0, bytes, n);
  return dg_run_bytes(k, bytes, n, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  const size_t ki = data[0] % count;
  const dg_kernel *k = &kernels[ki];
  const char *names[64];
  const size_t nb = backends_of(k, names, 64);
  if (nb == 0) return 0;
  const char *backend = names[data[1] % nb];
  const uint64_t ref = reference_run(k, backend, data + 2, size - 2, NULL);
  const uint64_t var = choice_variant_run(ki, backend, data + 2, size - 2, NULL);
  if (ref == var) return 0;

  const char *label = getenv("FUZZ_CHOICE_LABEL");
  fprintf(
      stderr,
      "\nfuzz-choice: DISAGREEMENT: %s on %s: the variant answers otherwise than the reference\n",
      k->name, backend);
  fprintf(stderr, "  variant: %s\n", label ? label : "(FUZZ_CHOICE_LABEL not set)");
  if (strcmp(backend, "-") != 0 && strcmp(backend, "scalar") != 0) {
    const uint64_t own = choice_variant_run(ki, "scalar", data + 2, size - 2, NULL);
    fprintf(stderr, "  the variant's own scalar backend on this input: %s\n",
            own == var ? "the same as its other backend's (both differ from the reference)"
            : own == ref
                ? "the reference's answer: the variant's backends disagree with its own scalar"
                : "a third answer: the variant's backends disagree with its own scalar");
  }
  char *a = NULL, *b = NULL;
  reference_run(k, backend, data + 2, size - 2, &a);
  choice_variant_run(ki, backend, data + 2, size - 2, &b);
  dg_print_difference(stderr, "reference", a, "variant", b);
  free(a), free(b);
  fflush(stderr);
  abort();
}
