/* The unit suite under qemu-user (scripts/check/cross-test.sh links this into its cross builds only):
 * Criterion starts every test in a worker made by execve() of the test binary itself. Without
 * binfmt_misc (a container has none) the host kernel cannot run a foreign binary: execve fails
 * with ENOEXEC and Criterion aborts with "Could not spawn test instance: Protocol error". With
 * COLLIDE_QEMU set to an emulator's command line (an absolute path, then its options, e.g.
 * "/usr/bin/qemu-aarch64 -L /usr/aarch64-linux-gnu"), this execve, which the executable's
 * definition puts before the C library's for Criterion too, runs the binary under it instead,
 * with argv[0] kept by qemu's -0 (Criterion's worker is recognised by it). Without it, the
 * plain system call. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int execve(const char *path, char *const argv[], char *const envp[]);
int execve(const char *path, char *const argv[], char *const envp[]) {
  const char *emulator = getenv("COLLIDE_QEMU");
  if (emulator == NULL || emulator[0] != '/') return (int)syscall(SYS_execve, path, argv, envp);
  enum { max_words = 16 };
  size_t n = 0;
  while (argv[n] != NULL) n++;
  char *words = strdup(emulator);
  char **args = calloc(max_words + n + 3, sizeof *args);
  if (words == NULL || args == NULL) return (int)syscall(SYS_execve, path, argv, envp);
  size_t k = 0;
  for (char *w = strtok(words, " "); w != NULL && k < max_words; w = strtok(NULL, " "))
    args[k++] = w;
  args[k++] = "-0";
  args[k++] = n > 0 ? argv[0] : (char *)path;
  args[k++] = (char *)path;
  for (size_t i = 1; i < n; i++) args[k++] = argv[i];
  return (int)syscall(SYS_execve, args[0], args, envp);
}
