/* The plain replay driver (no libFuzzer, any compiler): runs every file named on the command
 * line, or found in a directory named there, through the target's LLVMFuzzerTestOneInput, so
 * the targets and their corpora are exercised by `make test` and never bit-rot. A
 * disagreement aborts inside the target, after its report. */
#define _DEFAULT_SOURCE
#include "fuzz_common.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static size_t files_run;

static void run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "replay %s: cannot open %s\n", fz_target, path);
    exit(2);
  }
  size_t cap = 4096, len = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  /* An exact-size copy, so ASan sees a read one byte past the input. */
  uint8_t *exact = malloc(len ? len : 1);
  memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  files_run++;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static void run_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay %s: no such file or directory: %s\n", fz_target, path);
    exit(2);
  }
  if (!S_ISDIR(st.st_mode)) {
    run_file(path);
    return;
  }
  struct dirent **entries;
  const int n = scandir(path, &entries, NULL, by_name);
  if (n < 0) { /* e.g. EOVERFLOW: a 32-bit build under qemu reading a host's 64-bit inodes */
    fprintf(stderr, "replay %s: cannot list %s: %s\n", fz_target, path, strerror(errno));
    exit(2);
  }
  for (int i = 0; i < n; i++) {
    if (entries[i]->d_name[0] != '.') {
      char full[4096];
      snprintf(full, sizeof full, "%s/%s", path, entries[i]->d_name);
      run_path(full);
    }
    free(entries[i]);
  }
  free(entries);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr,
            "usage: %s FILE|DIR... | --list-backends\n  replays fuzz inputs through the %s "
            "target\n",
            argv[0], fz_target);
    return 2;
  }
  LLVMFuzzerInitialize(&argc, &argv);
  if (strcmp(argv[1], "--list-backends") == 0) { /* the ones each input goes through */
    const char *names[FZ_MAX_BACKENDS];
    const size_t n = fz_backends(names, FZ_MAX_BACKENDS, ~0u);
    for (size_t i = 0; i < n; i++) printf("%s\n", names[i]);
    return 0;
  }
  for (int i = 1; i < argc; i++) run_path(argv[i]);
  printf("replay %s: %zu inputs, every backend agreed\n", fz_target, files_run);
  return 0;
}
