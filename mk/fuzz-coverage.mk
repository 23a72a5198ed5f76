# collide: what the fuzzers reach (included by the Makefile after fuzz.mk: its variables come
# first). docs/fuzzing.md#what-the-fuzzers-reach says how to read it.

# The fuzz targets with clang's source-based coverage, in a folder of their own (SANITIZE=coverage:
# no sanitizer, no structure checks; the Makefile's COVERAGE_FLAGS), each run over its committed
# corpus and then, with FUZZ_SECONDS (here 0 unless given), fuzzed that long more, FUZZ_LANES
# targets at once; the profiles merged into build/coverage/html/index.html and a per-file table
# (build/coverage/table.txt, table.md), USER_KERNELS' files first with the lines of theirs no
# input ran. After a run of every target: every public function reached by the corpora, and
# core/'s coverage not below fuzz/coverage-floor.txt by more than its margin (both fail the run).
#
# ARCH=arm64: the same cross-built by clang for aarch64 into build/cross-arm64/coverage, against
# the sysroot that make cross-test ARCH=arm64 unpacks (build/sysroot-arm64: the arm64 libraries
# and clang's runtimes, the profile runtime among them), and run under qemu-aarch64: the native
# NEON code, which the x86 runs see only as its emulated twin. Its flags are cross-test.sh's for
# its fuzzers; the checks are the native run's, not repeated here.
COVERAGE_SECONDS = $(if $(filter command line environment,$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),0)
ifeq ($(ARCH),arm64)
COVERAGE_O := build/cross-arm64/coverage
COVERAGE_SYSROOT := $(CURDIR)/build/sysroot-arm64
COVERAGE_LIBDIR := $(COVERAGE_SYSROOT)/usr/lib/aarch64-linux-gnu
COVERAGE_BUILD = CC='clang-14 --target=aarch64-linux-gnu -resource-dir=$(COVERAGE_SYSROOT)/clang-resource' \
  CFLAGS='$(CFLAGS) -isystem $(COVERAGE_SYSROOT)/usr/include -isystem $(COVERAGE_SYSROOT)/usr/include/aarch64-linux-gnu' \
  LDFLAGS='-L$(COVERAGE_LIBDIR) -Wl,-rpath-link=$(COVERAGE_LIBDIR) -Wl,--disable-new-dtags \
  -Wl,-rpath=$(COVERAGE_LIBDIR):$(COVERAGE_SYSROOT)/lib/aarch64-linux-gnu -L$(COVERAGE_SYSROOT)/clang-resource/link'
COVERAGE_RUN = FUZZ_COVERAGE_O=$(COVERAGE_O) FUZZ_COVERAGE_RUNNER='qemu-aarch64 -L /usr/aarch64-linux-gnu'
COVERAGE_READY = [ -e $(COVERAGE_SYSROOT)/clang-resource/lib/linux/libclang_rt.profile-aarch64.a ] || \
  { echo "fuzz-coverage ARCH=arm64: no arm64 sysroot with clang's profile runtime in build/sysroot-arm64: make cross-test ARCH=arm64 unpacks it" >&2; exit 2; }
else ifneq ($(strip $(ARCH)),)
COVERAGE_READY = { echo "fuzz-coverage: ARCH=$(ARCH): only arm64 (its NEON backend is the native-only code the x86 runs cannot see)" >&2; exit 2; }
else
COVERAGE_O := build/coverage
COVERAGE_BUILD = CC=$(FUZZ_CC)
COVERAGE_READY = :
endif
COVERAGE_ENV = FUZZ_TARGETS='$(FUZZ_TARGETS)' FUZZ_SECONDS='$(COVERAGE_SECONDS)' USER_KERNELS='$(USER_KERNELS)' \
  $(if $(FUZZ_LANES),FUZZ_LANES='$(FUZZ_LANES)') $(COVERAGE_RUN)
fuzz-coverage: $(DEPS_STAMP)
	@$(COVERAGE_READY)
	@$(COVERAGE_ENV) $(PYTHON) scripts/fuzz/fuzz-coverage.py check
	@$(MAKE) --no-print-directory O=$(COVERAGE_O) $(COVERAGE_BUILD) SANITIZE=coverage \
	  $(FUZZ_TARGETS:%=$(COVERAGE_O)/fuzz_%)
	@$(COVERAGE_ENV) $(PYTHON) scripts/fuzz/fuzz-coverage.py run

# The last fuzz-coverage run (corpora only, every target, no USER_KERNELS) recorded as the floor,
# fuzz/coverage-floor.txt, and docs/fuzzing.md's table and the benchmark report's coverage
# section (results/REPORT.md) rewritten from it.
fuzz-coverage-floor:
	@$(PYTHON) scripts/fuzz/fuzz-coverage.py floor
	@$(MAKE) --no-print-directory report

.PHONY: fuzz-coverage fuzz-coverage-floor
