/* The machine a benchmark run was made on (bench_machine.c). */
#ifndef COLLIDE_BENCH_MACHINE_H
#define COLLIDE_BENCH_MACHINE_H

#include <stddef.h>

/* The results folder's name: COLLIDE_MACHINE when set, else
 * <model name>-f<family>m<model>s<stepping>-tsc<MHz>-<logical CPUs>cpu, e.g.
 * "amd-epyc-f25m1s1-tsc2445-2cpu", so that CPUs that differ in any of these never share one. */
void bench_machine_name(char *out, size_t size);

/* Adds the CPU's identity to the JSON context: collide_cpu_model, _vendor, _family,
 * _model_number, _stepping, _microcode, _count, collide_cpu_identity (all in one line) and
 * collide_machine (the name above). */
void bench_machine_context(void);

#endif
