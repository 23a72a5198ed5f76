/* collide-digest: every public kernel over the versioned input set, on every backend this CPU
 * runs; one line per kernel and backend (kernel, backend, inputs, hash). `collide-digest
 * --help` and README's "Same answers everywhere" say how to use it. */
#include "digest.h"

#include "backend_filter.h"
#include "digest_build.h"
#include "user_kernels.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_KERNELS 128
#define MAX_PICKS   64

static const char usage[] =
    "usage: collide-digest [--kernel K]... [--backend B]... [--inputs] [--golden] [--check FILE]\n"
    "                      [--show K:I] [--list] [--progress]\n"
    "Runs every public kernel of collide over a fixed input set (input set %d) on every backend\n"
    "this CPU runs and prints one line per kernel and backend: kernel, backend ('-': a call\n"
    "that uses no backend), inputs, hash of the answers (XXH3-64, hex). Backends and kernels\n"
    "that must agree are checked against each other; a disagreement is reported with the first\n"
    "input that differs and both answers, and the exit status is 1.\n"
    "  --kernel K    only kernel K (or the kernels whose name starts with K. or K_)\n"
    "  --backend B   only backend B (a name from the list of backends); kernels that use no\n"
    "                backend still run once\n"
    "  --inputs      also one line per input: input <kernel> <backend> <index> <hash>\n"
    "  --golden      one line per kernel (backend '*'): the form of the committed golden file\n"
    "  --check FILE  compare with a golden file; exit 1 naming the kernels that differ\n"
    "  --show K:I    print input I of kernel K and its answer on each backend\n"
    "  --list        the kernels, their input counts and the col_kernel slots they use\n"
    "  --progress    a line per kernel on stderr\n";

typedef struct row {
  const dg_kernel *k;
  const char *backend; /* "-" for backend-independent kernels */
  uint64_t *inputs;    /* per-input hashes */
  uint64_t hash;
} row;

static const char *picked_kernels[MAX_PICKS], *picked_backends[MAX_PICKS];
static size_t n_kernels, n_backends;

static bool kernel_picked(const char *name) {
  if (n_kernels == 0) return true;
  for (size_t i = 0; i < n_kernels; i++) {
    const size_t n = strlen(picked_kernels[i]);
    if (strcmp(name, picked_kernels[i]) == 0 ||
        (strncmp(name, picked_kernels[i], n) == 0 && (name[n] == '.' || name[n] == '_')))
      return true;
  }
  return false;
}

static bool backend_picked(const char *name) {
  if (n_backends == 0) return true;
  for (size_t i = 0; i < n_backends; i++)
    if (strcmp(name, picked_backends[i]) == 0) return true;
  return false;
}

/* The backends a kernel runs on: "-" once for backend-independent kernels. */
static size_t backends_of(const dg_kernel *k, const char **names, size_t max) {
  if (k->slots == 0) {
    names[0] = "-";
    return 1;
  }
  col_backend_info info[64];
  const size_t n = harness_backends(info, 64, k->slots, HARNESS_ALL_KINDS);
  size_t m = 0;
  for (size_t i = 0; i < n && m < max; i++)
    if (backend_picked(info[i].name)) names[m++] = info[i].name;
  return m;
}

static void select_backend(const char *name) {
  if (strcmp(name, "-") == 0) return;
  const col_status s = col_backend_select(name);
  if (s != COL_OK) {
    fprintf(stderr, "collide-digest: backend %s: %s\n", name, col_status_string(s));
    exit(2);
  }
}

/* The input and answer text of one input on one backend. */
static char *show_text(const dg_kernel *k, const char *backend, uint32_t index) {
  select_backend(backend);
  return dg_show_text(k, index, NULL, 0);
}

static void report_input(const dg_kernel *ka, const char *ba, const dg_kernel *kb, const char *bb,
                         uint32_t index) {
  char *ta = show_text(ka, ba, index), *tb = show_text(kb, bb, index);
  dg_print_difference(stderr, ka == kb ? ba : ka->name, ta, ka == kb ? bb : kb->name, tb);
  free(ta), free(tb);
}

static size_t first_difference(const row *a, const row *b, size_t *count) {
  size_t first = SIZE_MAX;
  *count = 0;
  for (uint32_t i = 0; i < a->k->inputs; i++)
    if (a->inputs[i] != b->inputs[i]) {
      if (first == SIZE_MAX) first = i;
      (*count)++;
    }
  return first;
}

static void report(const row *ref, const row *r, const char *what) {
  size_t count;
  const size_t first = first_difference(ref, r, &count);
  fprintf(stderr,
          "collide-digest: DIFFERS: %s on %s differs from %s on %s (%s): on %zu of %" PRIu32
          " inputs, the first is input %zu\n",
          r->k->name, r->backend, ref->k->name, ref->backend, what, count, r->k->inputs, first);
  report_input(ref->k, ref->backend, r->k, r->backend, (uint32_t)first);
  fprintf(stderr,
          "  again: collide-digest --show %s:%zu --backend %s; and --show %s:%zu --backend %s\n",
          ref->k->name, first, ref->backend, r->k->name, first, r->backend);
}

/* ---- the golden file ---- */

typedef struct golden {
  char kernel[64];
  char backend[48];
  uint32_t inputs;
  uint64_t hash;
} golden;

static size_t read_golden(const char *path, golden *g, size_t max) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "collide-digest: --check %s: cannot open it\n", path);
    exit(2);
  }
  char line[512];
  size_t n = 0;
  int set = -1;
  while (fgets(line, sizeof line, f)) {
    if (sscanf(line, "# collide digest: input set %d", &set) == 1) continue;
    if (line[0] == '#' || line[0] == '\n' || strncmp(line, "input ", 6) == 0) continue;
    golden x;
    if (sscanf(line, "%63s %47s %" SCNu32 " %" SCNx64, x.kernel, x.backend, &x.inputs, &x.hash) !=
        4) {
      fprintf(stderr, "collide-digest: --check %s: not a digest line: %s", path, line);
      exit(2);
    }
    if (n < max) g[n++] = x;
  }
  fclose(f);
  if (set != DG_INPUT_SET) {
    fprintf(stderr,
            "collide-digest: --check %s: made from input set %d, this binary runs input set %d: "
            "the inputs changed, make a new golden file (make digest-golden)\n",
            path, set, DG_INPUT_SET);
    exit(2);
  }
  return n;
}

static const golden *golden_for(const golden *g, size_t n, const char *kernel,
                                const char *backend) {
  const golden *any = NULL;
  for (size_t i = 0; i < n; i++)
    if (strcmp(g[i].kernel, kernel) == 0) {
      if (strcmp(g[i].backend, backend) == 0) return &g[i];
      if (strcmp(g[i].backend, "*") == 0) any = &g[i];
    }
  return any;
}

static void machine(char *out, size_t size) {
  snprintf(out, size, "unknown");
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[256], vendor[64] = "", family[16] = "", model[16] = "", name[128] = "";
  while (fgets(line, sizeof line, f)) {
    char *v = strchr(line, ':');
    if (!v) continue;
    v += v[1] == ' ' ? 2 : 1;
    v[strcspn(v, "\n")] = 0;
    if (!vendor[0] && strncmp(line, "vendor_id", 9) == 0) snprintf(vendor, sizeof vendor, "%s", v);
    if (!family[0] && strncmp(line, "cpu family", 10) == 0)
      snprintf(family, sizeof family, "%s", v);
    if (!model[0] && strncmp(line, "model\t", 6) == 0) snprintf(model, sizeof model, "%s", v);
    if (!name[0] && strncmp(line, "model name", 10) == 0) snprintf(name, sizeof name, "%s", v);
  }
  fclose(f);
  snprintf(out, size, "%s (%s family %s model %s)", name[0] ? name : "unknown", vendor, family,
           model);
}

static const char *arch(void) {
#if defined(__x86_64__)
  return "x86-64";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__s390x__)
  return "s390x";
#elif defined(__wasm32__)
  return "wasm32";
#else
  return "other";
#endif
}

int main(int argc, char **argv) {
  bool inputs = false, golden_form = false, list = false, progress = false;
  const char *check = NULL, *show = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const bool has_value = i + 1 < argc;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      printf(usage, DG_INPUT_SET);
      return 0;
    } else if (strcmp(a, "--inputs") == 0)
      inputs = true;
    else if (strcmp(a, "--golden") == 0)
      golden_form = true;
    else if (strcmp(a, "--list") == 0)
      list = true;
    else if (strcmp(a, "--progress") == 0)
      progress = true;
    else if (has_value && strcmp(a, "--kernel") == 0 && n_kernels < MAX_PICKS)
      picked_kernels[n_kernels++] = argv[++i];
    else if (has_value && strcmp(a, "--backend") == 0 && n_backends < MAX_PICKS)
      picked_backends[n_backends++] = argv[++i];
    else if (has_value && strcmp(a, "--check") == 0)
      check = argv[++i];
    else if (has_value && strcmp(a, "--show") == 0)
      show = argv[++i];
    else {
      fprintf(stderr, "collide-digest: %s: %s\n", a,
              a[0] == '-' && a[1] == '-' ? "unknown option, or its value is missing"
                                         : "not an option");
      fprintf(stderr, usage, DG_INPUT_SET);
      return 2;
    }
  }
  if (harness_register_user_kernels() != 0) return 2;
  for (size_t i = 0; i < n_backends; i++) {
    col_backend_info info;
    bool found = false;
    for (size_t j = 0; col_backend_at(j, &info); j++)
      found |= strcmp(info.name, picked_backends[i]) == 0 && info.supported;
    if (!found) {
      fprintf(stderr, "collide-digest: --backend %s: not a backend this CPU runs\n",
              picked_backends[i]);
      return 2;
    }
  }
  static dg_kernel all[MAX_KERNELS];
  const size_t n_all = dg_all_kernels(all, MAX_KERNELS);
  dg_kernel *ks[MAX_KERNELS];
  size_t nk = 0;
  for (size_t i = 0; i < n_all; i++)
    if (kernel_picked(all[i].name)) ks[nk++] = &all[i];
  if (nk == 0) {
    fprintf(stderr, "collide-digest: no kernel matches --kernel (see --list)\n");
    return 2;
  }

  if (list) {
    for (size_t i = 0; i < nk; i++) {
      printf("%-32s %6" PRIu32 "  ", ks[i]->name, ks[i]->inputs);
      if (!ks[i]->slots) printf("(uses no backend)");
      for (unsigned b = 1; b & COL_KERNEL_ALL; b <<= 1)
        if (ks[i]->slots & b && ks[i]->slots != COL_KERNEL_ALL)
          printf("%s ", col_kernel_name((col_kernel)b));
      if (ks[i]->slots == COL_KERNEL_ALL) printf("(any slot: runs on every backend)");
      printf("%s%s\n", ks[i]->group ? "  group " : "", ks[i]->group ? ks[i]->group : "");
    }
    return 0;
  }

  if (show) {
    char name[64];
    unsigned long index;
    const char *colon = strrchr(show, ':');
    if (!colon || colon == show || (size_t)(colon - show) >= sizeof name ||
        sscanf(colon + 1, "%lu", &index) != 1) {
      fprintf(stderr, "collide-digest: --show %s: expected KERNEL:INDEX\n", show);
      return 2;
    }
    memcpy(name, show, (size_t)(colon - show));
    name[colon - show] = 0;
    for (size_t i = 0; i < n_all; i++) {
      if (strcmp(all[i].name, name) != 0) continue;
      if (index >= all[i].inputs) {
        fprintf(stderr, "collide-digest: --show %s: %s has inputs 0 to %" PRIu32 "\n", show, name,
                all[i].inputs - 1);
        return 2;
      }
      const char *names[64];
      const size_t nb = backends_of(&all[i], names, 64);
      for (size_t b = 0; b < nb; b++) {
        select_backend(names[b]);
        dg_run_input(&all[i], (uint32_t)index, stdout);
      }
      return 0;
    }
    fprintf(stderr, "collide-digest: --show %s: no kernel %s (see --list)\n", show, name);
    return 2;
  }

  static row rows[MAX_KERNELS * 32];
  size_t nr = 0;
  const time_t start = time(NULL);
  for (size_t i = 0; i < nk; i++) {
    const char *names[64];
    const size_t nb = backends_of(ks[i], names, 64);
    if (progress)
      fprintf(stderr, "digest: [%zu/%zu] %s on %zu backend%s (%lds)\n", i + 1, nk, ks[i]->name, nb,
              nb == 1 ? "" : "s", (long)(time(NULL) - start));
    for (size_t b = 0; b < nb && nr < sizeof rows / sizeof rows[0]; b++) {
      row *r = &rows[nr++];
      r->k = ks[i];
      r->backend = names[b];
      r->inputs = dg_alloc(ks[i]->inputs * sizeof *r->inputs);
      select_backend(names[b]);
      for (uint32_t j = 0; j < ks[i]->inputs; j++) r->inputs[j] = dg_run_input(ks[i], j, NULL);
      r->hash = dg_fold(r->inputs, ks[i]->inputs);
    }
  }

  /* Each kernel's rows against its reference row (the scalar backend's, else the first), and
   * each group's kernels against the group's first. */
  int differ = 0;
  const row *ref_of[MAX_KERNELS] = {0};
  for (size_t i = 0; i < nr; i++) {
    size_t ki = 0;
    while (ks[ki] != rows[i].k) ki++;
    if (!ref_of[ki] || strcmp(rows[i].backend, "scalar") == 0) ref_of[ki] = &rows[i];
  }
  for (size_t i = 0; i < nr; i++) {
    size_t ki = 0;
    while (ks[ki] != rows[i].k) ki++;
    if (ref_of[ki]->hash != rows[i].hash)
      report(ref_of[ki], &rows[i], "one kernel, two backends"), differ = 1;
  }
  for (size_t i = 0; i < nk; i++) {
    if (!ks[i]->group) continue;
    for (size_t j = 0; j < i; j++) {
      if (!ks[j]->group || strcmp(ks[i]->group, ks[j]->group) != 0) continue;
      if (ref_of[i] && ref_of[j] && ref_of[i]->hash != ref_of[j]->hash)
        report(ref_of[j], ref_of[i], "kernels of one group must agree"), differ = 1;
      break;
    }
  }

  char cpu[256];
  machine(cpu, sizeof cpu);
  printf("# collide digest: input set %d\n", DG_INPUT_SET);
  printf("# build: %s\n", DG_CHOICE[0] ? "not the reference (" DG_CHOICE ")" : "reference");
  printf("# compiler: %s\n# flags: %s\n", DG_CC, DG_FLAGS);
  printf("# machine: %s, %s\n", arch(), cpu);
  if (golden_form) {
    for (size_t i = 0; i < nk; i++)
      if (ref_of[i])
        printf("%s * %" PRIu32 " %016" PRIx64 "\n", ks[i]->name, ks[i]->inputs, ref_of[i]->hash);
  } else {
    for (size_t i = 0; i < nr; i++)
      printf("%s %s %" PRIu32 " %016" PRIx64 "\n", rows[i].k->name, rows[i].backend,
             rows[i].k->inputs, rows[i].hash);
  }
  if (inputs)
    for (size_t i = 0; i < nr; i++)
      for (uint32_t j = 0; j < rows[i].k->inputs; j++)
        printf("input %s %s %" PRIu32 " %016" PRIx64 "\n", rows[i].k->name, rows[i].backend, j,
               rows[i].inputs[j]);

  if (check) {
    static golden g[MAX_KERNELS * 2];
    const size_t ng = read_golden(check, g, sizeof g / sizeof g[0]);
    size_t checked = 0, wrong = 0;
    for (size_t i = 0; i < nr; i++) {
      const golden *x = golden_for(g, ng, rows[i].k->name, rows[i].backend);
      if (!x && rows[i].k->group) { /* a user broadphase: its group's answer */
        for (size_t j = 0; j < nk && !x; j++)
          if (ks[j]->group && strcmp(ks[j]->group, rows[i].k->group) == 0)
            x = golden_for(g, ng, ks[j]->name, rows[i].backend);
      }
      if (!x) {
        fprintf(stderr, "collide-digest: %s is not in %s: a new kernel? (make digest-golden)\n",
                rows[i].k->name, check);
        wrong++;
        continue;
      }
      checked++;
      if (x->inputs != rows[i].k->inputs || x->hash != rows[i].hash) {
        wrong++;
        fprintf(stderr,
                "collide-digest: DIFFERS from %s: %s on %s: %" PRIu32 " inputs, hash %016" PRIx64
                "; the golden file: %" PRIu32 " inputs, %016" PRIx64 "\n",
                check, rows[i].k->name, rows[i].backend, rows[i].k->inputs, rows[i].hash, x->inputs,
                x->hash);
      }
    }
    if (wrong) {
      fprintf(
          stderr,
          "collide-digest: %zu of %zu answers differ from %s. Where a backend also differs from "
          "this build's scalar, the input is shown above. Where the reference itself differs, "
          "this build or CPU answers otherwise than the one that made the golden file: run "
          "collide-digest --inputs on both: the first input line that differs names the input "
          "(docs/determinism.md).\n",
          wrong, checked + (nr - checked), check);
      differ = 1;
    } else {
      fprintf(stderr,
              "collide-digest: all %zu answers (kernel x backend) equal %s (input set %d)\n",
              checked, check, DG_INPUT_SET);
    }
  }
  if (progress) fprintf(stderr, "digest: %zu rows in %lds\n", nr, (long)(time(NULL) - start));
  for (size_t i = 0; i < nr; i++) free(rows[i].inputs);
  return differ;
}
