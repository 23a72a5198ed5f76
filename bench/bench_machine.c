/* Which machine a run was made on: what changes the numbers (CPU vendor, family, model,
 * stepping, microcode, TSC rate, logical CPUs), read from /proc/cpuinfo and measured, for the
 * JSON context and for the results folder's name (DESIGN.md 5). COLLIDE_MACHINE names the
 * folder instead. */
#define _POSIX_C_SOURCE 200809L
#include "bench_machine.h"

#include "bench.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

typedef struct cpu_identity {
  char model_name[160];
  char vendor[64];
  char family[32];
  char model[32];
  char stepping[32];
  char microcode[32];
} cpu_identity;

/* The first value of the first key of `keys` present in /proc/cpuinfo (x86 names first, then
 * arm64's), or "" when none is. */
static void cpuinfo_value(const char *const *keys, char *out, size_t size) {
  out[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return;
  char line[512];
  for (const char *const *key = keys; *key != NULL && out[0] == '\0'; key++) {
    rewind(f);
    const size_t n = strlen(*key);
    while (fgets(line, sizeof line, f) != NULL) {
      const char *colon = strchr(line, ':');
      if (colon == NULL || strncmp(line, *key, n) != 0) continue;
      const char *rest = line + n;
      while (rest < colon && (*rest == ' ' || *rest == '\t')) rest++;
      if (rest != colon) continue; /* a longer key that starts the same way */
      const char *value = colon + 1;
      while (*value == ' ') value++;
      snprintf(out, size, "%s", value);
      out[strcspn(out, "\n")] = '\0';
      break;
    }
  }
  fclose(f);
}

static cpu_identity identity(void) {
  static const char *const model_name[] = {"model name", "Model", "cpu model", NULL};
  static const char *const vendor[] = {"vendor_id", "CPU implementer", NULL};
  static const char *const family[] = {"cpu family", "CPU architecture", NULL};
  static const char *const model[] = {"model", "CPU part", NULL};
  static const char *const stepping[] = {"stepping", "CPU revision", NULL};
  static const char *const microcode[] = {"microcode", NULL};
  cpu_identity id;
  cpuinfo_value(model_name, id.model_name, sizeof id.model_name);
  cpuinfo_value(vendor, id.vendor, sizeof id.vendor);
  cpuinfo_value(family, id.family, sizeof id.family);
  cpuinfo_value(model, id.model, sizeof id.model);
  cpuinfo_value(stepping, id.stepping, sizeof id.stepping);
  cpuinfo_value(microcode, id.microcode, sizeof id.microcode);
  if (id.model_name[0] == '\0') {
    struct utsname u;
    snprintf(id.model_name, sizeof id.model_name, "%s", uname(&u) == 0 ? u.machine : "unknown");
  }
  return id;
}

static long logical_cpus(void) { return sysconf(_SC_NPROCESSORS_ONLN); }

/* The TSC rate in whole MHz (measured against the monotonic clock: stable to well under one
 * MHz between runs). */
static long tsc_mhz(void) { return (long)(bench_tsc_ghz() * 1000.0 + 0.5); }

/* "AMD EPYC 7B13 64-Core Processor" -> "amd-epyc-7b13-64-core": lower case, (R) and (TM)
 * dropped, cut before "cpu", "processor" or "with ... graphics", other characters as '-'. */
static void slug(const char *text, char *out, size_t size) {
  char lower[160];
  size_t n = 0;
  for (const char *p = text; *p != '\0' && n + 1 < sizeof lower; p++) {
    if (strncmp(p, "(R)", 3) == 0 || strncmp(p, "(r)", 3) == 0) {
      p += 2;
      continue;
    }
    if (strncmp(p, "(TM)", 4) == 0 || strncmp(p, "(tm)", 4) == 0) {
      p += 3;
      continue;
    }
    lower[n++] = (char)tolower((unsigned char)*p);
  }
  lower[n] = '\0';
  static const char *const cuts[] = {"cpu", "processor", "with", NULL};
  for (const char *const *c = cuts; *c != NULL; c++) {
    char *at = strstr(lower, *c);
    if (at != NULL) *at = '\0';
  }
  size_t m = 0;
  bool dash = false;
  for (const char *p = lower; *p != '\0' && m + 2 < size; p++) {
    if (isalnum((unsigned char)*p)) {
      if (dash && m > 0) out[m++] = '-';
      out[m++] = *p;
      dash = false;
    } else {
      dash = true;
    }
  }
  out[m] = '\0';
  if (m == 0) snprintf(out, size, "unknown");
}

/* A number as cpuinfo gives it ("25", "0x41", "0xd0c"), compacted for a folder name. */
static void compact(const char *value, char *out, size_t size) {
  snprintf(out, size, "%s", value[0] != '\0' ? value : "x");
  for (char *p = out; *p != '\0'; p++)
    if (!isalnum((unsigned char)*p)) *p = '-';
}

void bench_machine_name(char *out, size_t size) {
  const char *forced = getenv("COLLIDE_MACHINE");
  if (forced != NULL && forced[0] != '\0') {
    snprintf(out, size, "%s", forced);
    return;
  }
  const cpu_identity id = identity();
  char name[96], family[32], model[32], stepping[32]; /* as cpu_identity's fields */
  slug(id.model_name, name, sizeof name);
  compact(id.family, family, sizeof family);
  compact(id.model, model, sizeof model);
  compact(id.stepping, stepping, sizeof stepping);
  snprintf(out, size, "%s-f%sm%ss%s-tsc%ld-%ldcpu", name, family, model, stepping, tsc_mhz(),
           logical_cpus());
}

void bench_machine_context(void) {
  const cpu_identity id = identity();
  char text[256], name[256];
  gb_add_context("collide_cpu_model", id.model_name);
  gb_add_context("collide_cpu_vendor", id.vendor);
  gb_add_context("collide_cpu_family", id.family);
  gb_add_context("collide_cpu_model_number", id.model);
  gb_add_context("collide_cpu_stepping", id.stepping);
  gb_add_context("collide_cpu_microcode", id.microcode[0] != '\0' ? id.microcode : "not shown");
  snprintf(text, sizeof text, "%ld", logical_cpus());
  gb_add_context("collide_cpu_count", text);
  snprintf(text, sizeof text,
           "%s family %s model %s stepping %s, microcode %s, TSC %ld MHz, %ld "
           "logical CPUs",
           id.vendor[0] != '\0' ? id.vendor : "unknown vendor", id.family, id.model, id.stepping,
           id.microcode[0] != '\0' ? id.microcode : "not shown", tsc_mhz(), logical_cpus());
  gb_add_context("collide_cpu_identity", text);
  bench_machine_name(name, sizeof name);
  gb_add_context("collide_machine", name);
}
