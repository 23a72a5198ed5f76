# collide: Other architectures under qemu-user (included by the Makefile at this point: its variables come first).

# Bit for bit on another architecture: ARCH= a row of scripts/check/cross-targets.list, the one
# list of targets (i386, arm64, armhf, riscv64, ppc64le, mips64el, s390x under qemu-user; wasm32
# under Node): cross-builds into build/cross-$(ARCH) and runs the row's stages
# (scripts/check/cross-test.sh: the unit suite, the corpora, the golden digest, clang, the
# sanitizers, brief fuzzing; CROSS_STAGES= a subset, or ci). CROSS_CFLAGS: your own flags on
# top; SIMDE_NATIVE=1: that variant's digest (docs/determinism.md).
CROSS_LIST := scripts/check/cross-targets.list
CROSS_DOCS := docs/determinism.md docs/backends.md
.PHONY: cross-test cross-selftest cross-doc cross-doc-check
cross-test:
	@bash scripts/check/cross-test.sh $(ARCH)

# The tables of the targets in docs/determinism.md and docs/backends.md, generated from the list
# (cross-doc-check: in make test's docs-check).
cross-doc:
	@$(PYTHON) scripts/check/cross_targets.py doc $(CROSS_DOCS)
cross-doc-check:
	@$(PYTHON) scripts/check/cross_targets.py doc --check $(CROSS_DOCS)

# No timings under emulation: the benchmarks' emulation check, cross-built, refuses under
# qemu-user (ARCH=arm64 or s390x; both when empty), not natively; so does $(BENCHBIN) under
# qemu-user for this machine, and scripts/bench/bench.sh given a foreign binary
# (scripts/check/check-emulation.sh ARCH alone skips the native benchmark binary and its build).
.PHONY: check-emulation
check-emulation: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BENCHBIN)
	@bash scripts/check/check-emulation.sh $(or $(ARCH),all) $(BENCHBIN)

# Native-only code (neon.c's native block) has no emulated twin to fuzz on x86: its seeded bug
# must be found by cross-test on arm64, naming neon and not neon-emu; a one-ulp change in the
# scalar reference that only 32-bit targets compile must be found by cross-test ARCH=armhf's
# digest, naming the kernel, scalar and the input (scripts/check/cross-selftest.sh).
cross-selftest:
	@bash scripts/check/cross-selftest.sh

