/* bench_machine_emulation alone, for scripts/check/check-emulation.sh: built natively and with each
 * cross compiler, run directly and under qemu-user. Prints the evidence found ("exe", "cpuinfo"
 * or "none") on stdout, and like collide-bench the refusal on stderr with its exit status. */
#include "bench_machine.h"

#include <stdbool.h>
#include <stdio.h>

int main(void) {
  char message[1024];
  const unsigned evidence = bench_machine_emulation(message, sizeof message);
  const bool exe = (evidence & BENCH_EMULATED_EXE) != 0;
  const bool cpuinfo = (evidence & BENCH_EMULATED_CPUINFO) != 0;
  printf("%s%s%s%s\n", evidence == 0 ? "none" : "", exe ? "exe" : "", exe && cpuinfo ? " " : "",
         cpuinfo ? "cpuinfo" : "");
  if (evidence == 0) return 0;
  fprintf(stderr, "emulation_check: %s\n", message);
  return BENCH_EXIT_EMULATED;
}
