# collide: Other architectures under qemu-user (included by the Makefile at this point: its variables come first).

# Bit for bit on another architecture, under qemu-user: ARCH=arm64 (native neon too) or s390x
# (big-endian); cross-builds into build/cross-$(ARCH) with gcc and clang, runs the unit suite,
# the corpora (also sanitized), the golden digest and brief fuzzing (scripts/check/cross-test.sh).
# ARCH=wasm32: the golden digest of clang's wasm32-wasi builds under Node (scripts/check/cross-test-wasm.sh).
.PHONY: cross-test cross-selftest
cross-test:
	@bash scripts/check/cross-test.sh $(ARCH)

# No timings under emulation: the benchmarks' emulation check, cross-built, refuses under
# qemu-user (ARCH=arm64 or s390x; both when empty), not natively; so does $(BENCHBIN) under
# qemu-user for this machine, and scripts/bench/bench.sh given a foreign binary
# (scripts/check/check-emulation.sh ARCH alone skips the native benchmark binary and its build).
.PHONY: check-emulation
check-emulation: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BENCHBIN)
	@bash scripts/check/check-emulation.sh $(or $(ARCH),all) $(BENCHBIN)

# Native-only code (neon.c's native block) has no emulated twin to fuzz on x86: its seeded bug
# must be found by cross-test on arm64, naming neon and not neon-emu (scripts/check/cross-selftest.sh).
cross-selftest:
	@bash scripts/check/cross-selftest.sh

