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

/* What bench_machine_emulation found (bench_emulation.c): the kernel names another program as
 * this process's executable (the emulator's), or /proc/cpuinfo describes a CPU of another
 * architecture family than the one this file was compiled for. */
#define BENCH_EMULATED_EXE     1u
#define BENCH_EMULATED_CPUINFO 2u

/* collide-bench's exit status when it refuses to run under emulation. */
#define BENCH_EXIT_EMULATED 3

/* 0 when nothing says this process runs under a user-mode emulator (qemu-user); else the
 * evidence found, and `message` says so to the user: "this is an aarch64 binary running under
 * emulation on an x86-64 host (/usr/bin/qemu-aarch64); timings would measure the emulator, not
 * the code; run it on an aarch64 machine". */
unsigned bench_machine_emulation(char *message, size_t size);

#endif
