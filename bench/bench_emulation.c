/* Whether this process runs under a user-mode emulator such as qemu-user, where a timing
 * measures the emulator's translation of the code, not the code: collide-bench refuses then.
 * Only the C library: scripts/check/check-emulation.sh cross-builds this file alone with a small
 * main (bench/check/emulation_check.c) and runs it under qemu-user.
 *
 * Two independent pieces of evidence, each chosen so that it never fires on a real machine of
 * the binary's architecture (a refused benchmark run there would be a worse bug than a missed
 * emulator):
 * - The executable. /proc/self/exe names the running program; qemu-user answers reads of it
 *   with the guest binary's path, but the kernel's own view of the process, through
 *   /proc/thread-self/exe, names the emulator (qemu 7.2 rewrites only the /proc/self/ and
 *   /proc/<pid>/ forms). Natively both are links to the one executable of the process (mm's
 *   exe_file), byte for byte equal, also under binfmt_misc, through a symbolic link or when the
 *   file was deleted; a missing /proc or a kernel without thread-self gives no evidence.
 * - /proc/cpuinfo. Its text is written by the running kernel's architecture code, and a kernel
 *   runs natively only programs of its own family (x86, Arm, s390; a 64-bit kernel's 32-bit
 *   programs included), in a virtual machine too (the guest kernel writes it). qemu 7.2 passes
 *   the host's text through for aarch64 and s390x guests, so an aarch64 binary reads "vendor_id"
 *   and "flags" of an x86 CPU there. Only a text that clearly names another family counts: x86
 *   always prints vendor_id and flags, arm64 and arm "CPU implementer", s390 "vendor_id :
 *   IBM/S390"; anything else (another family, an emulated text naming the guest's) says
 *   nothing. */
#define _POSIX_C_SOURCE 200809L
#include "bench_machine.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

typedef enum family { FAMILY_UNKNOWN, FAMILY_X86, FAMILY_ARM, FAMILY_S390 } family;

#if defined(__x86_64__) || defined(__i386__)
#define BUILT_FAMILY FAMILY_X86
#elif defined(__aarch64__) || defined(__arm__)
#define BUILT_FAMILY FAMILY_ARM
#elif defined(__s390__)
#define BUILT_FAMILY FAMILY_S390
#else
#define BUILT_FAMILY FAMILY_UNKNOWN
#endif

/* The architecture this file was compiled for, in the names elf_arch uses. */
static const char *built_arch(void) {
#if defined(__x86_64__)
  return "x86-64";
#elif defined(__i386__)
  return "x86";
#elif defined(__aarch64__)
  return "aarch64";
#elif defined(__arm__)
  return "arm";
#elif defined(__s390x__)
  return "s390x";
#else
  /* Elsewhere uname: qemu-user reports the guest's machine there, i.e. the binary's. */
  static struct utsname u;
  return uname(&u) == 0 ? u.machine : "unknown";
#endif
}

/* The architecture of the ELF file at `path` (its header's class, byte order and e_machine),
 * or NULL when it cannot be read or is not one named here. */
static const char *elf_arch(const char *path) {
  unsigned char h[20];
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  const ssize_t n = read(fd, h, sizeof h);
  close(fd);
  if (n != (ssize_t)sizeof h || memcmp(h, "\177ELF", 4) != 0) return NULL;
  const bool is64 = h[4] == 2, big = h[5] == 2;
  const unsigned machine = big ? (unsigned)h[18] << 8 | h[19] : (unsigned)h[19] << 8 | h[18];
  switch (machine) {
  case 62: return "x86-64";
  case 3: return "x86";
  case 183: return "aarch64";
  case 40: return "arm";
  case 22: return is64 ? "s390x" : "s390";
  case 21: return big ? "ppc64" : "ppc64le";
  case 243: return is64 ? "riscv64" : "riscv32";
  case 258: return "loongarch64";
  default: return NULL;
  }
}

/* The family whose kernel wrote /proc/cpuinfo, FAMILY_UNKNOWN unless the text says so clearly
 * (the keys are those printed unconditionally by each family's kernel code). */
static family cpuinfo_family(void) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (f == NULL) return FAMILY_UNKNOWN;
  bool vendor = false, flags = false, implementer = false, s390 = false;
  char line[512];
  while (fgets(line, sizeof line, f) != NULL) {
    const char *colon = strchr(line, ':');
    if (colon == NULL) continue;
    size_t k = (size_t)(colon - line);
    while (k > 0 && (line[k - 1] == ' ' || line[k - 1] == '\t')) k--;
    const char *value = colon + 1;
    while (*value == ' ' || *value == '\t') value++;
    if (k == 9 && strncmp(line, "vendor_id", 9) == 0) {
      vendor = true;
      s390 = s390 || strncmp(value, "IBM/S390", 8) == 0;
    }
    flags = flags || (k == 5 && strncmp(line, "flags", 5) == 0);
    implementer = implementer || (k == 15 && strncmp(line, "CPU implementer", 15) == 0);
  }
  fclose(f);
  if (s390) return FAMILY_S390;
  if (implementer) return FAMILY_ARM;
  return vendor && flags ? FAMILY_X86 : FAMILY_UNKNOWN;
}

/* "an aarch64", "an x86-64", "an s390x", "a riscv64": the article as the name is read. */
static const char *article(const char *name) {
  return strchr("aeiouxAEIOUX", name[0]) != NULL || strncmp(name, "s390", 4) == 0 ? "an" : "a";
}

unsigned bench_machine_emulation(char *message, size_t size) {
  unsigned evidence = 0;
  char self[PATH_MAX], real[PATH_MAX];
  const ssize_t a = readlink("/proc/self/exe", self, sizeof self - 1);
  const ssize_t b = readlink("/proc/thread-self/exe", real, sizeof real - 1);
  if (a > 0 && b > 0) {
    self[a] = real[b] = '\0';
    if (strcmp(self, real) != 0) evidence |= BENCH_EMULATED_EXE;
  }
  const family host_family = cpuinfo_family();
  if (host_family != FAMILY_UNKNOWN && BUILT_FAMILY != FAMILY_UNKNOWN &&
      host_family != BUILT_FAMILY)
    evidence |= BENCH_EMULATED_CPUINFO;
  if (evidence == 0) return 0;

  static const char *const family_names[] = {"other", "x86", "Arm", "s390x"};
  const char *binary = built_arch();
  const char *host = (evidence & BENCH_EMULATED_EXE) ? elf_arch(real) : NULL;
  if (host == NULL) host = family_names[host_family];
  char how[PATH_MAX + 64];
  if (evidence & BENCH_EMULATED_EXE)
    snprintf(how, sizeof how, "%s", real);
  else
    snprintf(how, sizeof how, "/proc/cpuinfo describes %s %s CPU", article(host), host);
  char advice[96];
  if (strcmp(host, binary) == 0)
    snprintf(advice, sizeof advice, "run it directly, without the emulator");
  else
    snprintf(advice, sizeof advice, "run it on %s %s machine", article(binary), binary);
  snprintf(message, size,
           "this is %s %s binary running under emulation on %s %s host (%s); timings would "
           "measure the emulator, not the code; %s",
           article(binary), binary, article(host), host, how, advice);
  return evidence;
}
