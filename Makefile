# collide — one entry point. `make` builds the library, `make test` runs the unit suite
# (plain and under ASan+UBSan), `make bench` runs the benchmarks. See README.md.
#
# `make help` lists the targets and every variable a user can set, with their defaults (its
# text is near the end of this file: keep it true when a target or variable changes).

ifeq ($(origin CC),default)
CC := gcc
endif
# clang is Debian's clang package (a link to clang-14, which install-deps also installs); where
# only clang-14 exists, use it under that name.
CLANG := $(if $(shell command -v clang 2>/dev/null),clang,clang-14)
ifeq ($(CC),clang)
override CC := $(CLANG)
endif
CFLAGS ?= -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# Link-only flags (-L, -Wl,...): given to every link, never to a compile step (clang's -Werror
# refuses a linker flag it is given without linking).
LDFLAGS ?=
O ?= build/release
PYTHON ?= /usr/bin/python3

# Not negotiable: bit-exact SIMD needs IEEE semantics without contraction (DESIGN.md 3).
# Fast-math flags in CFLAGS (fast-math, or the O-level that implies it) are refused below.
# -fPIC: the static library can be linked into a user's shared library; without
# -fno-semantic-interposition gcc would stop inlining the library's own exported functions.
PIC_FLAGS ?= -fPIC -fno-semantic-interposition
REQUIRED_FLAGS := -std=c11 -ffp-contract=off -fno-fast-math $(PIC_FLAGS) -Icore/include -Icore/src \
  -I$(O)/gen
# Every float operation rounds to float: gcc's C11 mode on s390x evaluates float arithmetic in
# double (FLT_EVAL_METHOD 1, glibc's float_t there), so the scalar reference rounded once per
# expression there while the vector lanes round per operation. -fexcess-precision=fast turns
# that off (gcc only; clang has no excess precision on these targets and refuses the flag).
# core/src/backend.h asserts FLT_EVAL_METHOD == 0.
ifneq ($(shell echo __FLT_EVAL_METHOD__ | $(CC) -std=c11 -E -P -x c - 2>/dev/null),0)
REQUIRED_FLAGS += -fexcess-precision=fast
endif
# The scalar backend must stay scalar: gcc 12 vectorizes at -O2 (DESIGN.md 3). Only scalar.c
# gets it; the front ends and broadphases around the kernels may vectorize.
SCALAR_FLAGS := -fno-tree-vectorize
# The sanitizers of SANITIZE=1 (FUZZ_SANITIZERS below: the fuzzers'); scripts/cross-test.sh leaves
# out those that cannot run under qemu-user.
SANITIZERS ?= address,undefined,float-divide-by-zero,float-cast-overflow
SANITIZE_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=$(SANITIZERS) -fno-sanitize-recover=all

FAST_MATH_FLAGS := $(filter-out -fno-fast-math,$(filter %fast-math %Ofast,$(CFLAGS)))
ifneq ($(FAST_MATH_FLAGS),)
$(error CFLAGS contains $(FAST_MATH_FLAGS): collide's bit-exact contract forbids fast math)
endif

# Fuzzing builds (clang only): the library and targets carry libFuzzer's coverage hooks.
FUZZ_CC ?= $(CLANG)
FUZZ_SANITIZERS ?= address,undefined,float-divide-by-zero
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,$(FUZZ_SANITIZERS) \
  -fno-sanitize-recover=all

# The library's integer compares are loop bounds and sizes: tracing them for libFuzzer's
# compare feedback costs the broadphase and simulation targets half their speed and finds
# nothing the targets' own traced compares do not (the kernels decide on float compares,
# which are not traced). Fuzz targets keep it.
LIB_FUZZ_FLAGS := $(if $(filter fuzz,$(SANITIZE)),-fno-sanitize-coverage=trace-cmp)

# The kept structures' own checks after every change (core/src/validate.h): on in the unit
# tests' build (build/test), the sanitizer and fuzzing builds; off in the release library and
# the installed copy, whose object code they leave unchanged. VALIDATE=1 or 0 overrides.
VALIDATE ?= $(if $(SANITIZE)$(filter build/test,$(O)),1,0)
VALIDATE_FLAGS = $(if $(filter 1,$(VALIDATE)),-DCOL_VALIDATE)

ifeq ($(SANITIZE),1)
ALL_CFLAGS = $(CFLAGS) $(SANITIZE_FLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS)
LDFLAGS_EXTRA = -fsanitize=$(SANITIZERS)
else ifeq ($(SANITIZE),fuzz)
ALL_CFLAGS = $(CFLAGS) $(FUZZ_FLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS) -Ifuzz
LDFLAGS_EXTRA = -fsanitize=fuzzer,$(FUZZ_SANITIZERS)
else
ALL_CFLAGS = $(CFLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS)
LDFLAGS_EXTRA =
endif

CXX_DEFAULT := g++
ifeq ($(origin CXX),default)
CXX := $(if $(findstring clang,$(CC)),$(subst clang,clang++,$(CC)),g++)
endif
CXXFLAGS ?= -O2 -g -Wall -Wextra -Werror
BENCH ?= default

DEPS_STAMP := build/.deps-installed
LIB := $(O)/libcollide.a
# The release's version; the shared library's soname carries its first number.
VERSION := 0.1.0
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
SONAME := libcollide.so.$(SOVERSION)
SHLIB := $(O)/libcollide.so.$(VERSION)
TESTBIN := $(O)/collide-tests

CORE_SRC := $(wildcard core/src/*.c core/src/broadphase/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/obj/%.o)

# SIMD backends: each ISA file is built natively with its own flags only (on its own
# architecture), and again as an emulated twin with SIMDe's portable code, everywhere, with
# -DCOL_ISA=<its name>. The files, their flags and the lists the registry, CPU tests and unit
# tests include (ISA_LIST_H) come from the collide-isa line at the top of each
# (scripts/isa-list.sh): adding a backend is adding its file.
MACHINE := $(shell $(CC) -dumpmachine)
ISA_LIST_H := $(O)/gen/isa_list.h
NATIVE_ISA_SRC := $(shell bash scripts/isa-list.sh native $(MACHINE))
ISA_SRC := $(shell bash scripts/isa-list.sh emulated)
$(foreach f,$(sort $(NATIVE_ISA_SRC) $(ISA_SRC)),\
  $(eval ISA_FLAGS_$(basename $(notdir $(f))) := $(shell bash scripts/isa-list.sh flags $(f))))
# -Wno-psabi: without -mavx, clang warns that 256/512-bit vector arguments change the ABI. The
# vectors only pass between static functions of one file; the backend table's kernels take
# pointers and scalars, so no ABI crosses a file boundary.
EMU_FLAGS := -DSIMDE_NO_NATIVE -DCOL_EMULATED -Wno-psabi
CORE_OBJ += $(NATIVE_ISA_SRC:%.c=$(O)/obj/%.o) $(ISA_SRC:%.c=$(O)/obj/%-emu.o)
TEST_SRC := $(wildcard core/tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(O)/obj/%.o)

# Your own kernels (README, "Fuzz and time your own kernel"): USER_KERNELS="a.c b.c", C files
# anywhere, each defining col_user_register(); compiled with the flags of an ISA file plus
# USER_CFLAGS (e.g. -mavx2), with col_user_register renamed per file, and linked into the unit
# tests, fuzzers, replays and benchmarks, which call them all at start (harness/user_kernels.h).
USER_KERNELS ?=
USER_CFLAGS ?=
USER_FILES := $(strip $(USER_KERNELS))
$(foreach f,$(USER_FILES),$(if $(filter %.c,$(f)),,$(error USER_KERNELS: $(f) is not a .c file)))
$(foreach f,$(USER_FILES),$(if $(wildcard $(f)),,$(error USER_KERNELS: $(f) does not exist)))
USER_IDS := $(if $(USER_FILES),$(shell seq 1 $(words $(USER_FILES))))
# Where the user objects go (USER_O: another folder, so that a benchmark binary with other user
# kernels can be linked from this build's objects without touching its own; bench-check).
USER_O ?= $(O)
# A file's object is named after its absolute path (so a dependency file never names a source
# of another list).
user_obj = $(USER_O)/obj/user/$(subst /,_,$(abspath $(word $(1),$(USER_FILES)))).o
USER_OBJ := $(USER_O)/obj/user/register.o $(foreach i,$(USER_IDS),$(call user_obj,$(i)))
HARNESS_INC := -Iharness
# The exact segment-against-sphere oracle (GMP) of the unit tests, fuzzers and sweep study;
# in fuzzing builds it is left out of libFuzzer's coverage (it is the judge, not the subject).
HARNESS_OBJ := $(O)/obj/harness/sweep_exact.o
HARNESS_LIBS := -lgmp
$(HARNESS_OBJ): $(O)/obj/harness/%.o: harness/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) $(if $(filter fuzz,$(SANITIZE)),-fno-sanitize=fuzzer-no-link) -MMD -MP -c $< -o $@

# The generated caller, rewritten only when the list changes (then every kernel object is
# rebuilt: its place in the list names its registration function); the user flags likewise.
$(USER_O)/user/register.c: FORCE
	@mkdir -p $(@D)
	@bash scripts/user-register.sh $(USER_FILES) > $@.tmp.$$$$; cmp -s $@.tmp.$$$$ $@ || mv $@.tmp.$$$$ $@; rm -f $@.tmp.$$$$
$(USER_O)/user/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(USER_CFLAGS)' | cmp -s - $@ || echo '$(USER_CFLAGS)' > $@

$(USER_O)/obj/user/register.o: $(USER_O)/user/register.c harness/user_kernels.h $(O)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -c $< -o $@

define USER_KERNEL_RULE
$(call user_obj,$(1)): $(word $(1),$(USER_FILES)) $(USER_O)/user/register.c $(USER_O)/user/flags \
  $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) -Wno-error $$(USER_CFLAGS) -Dcol_user_register=col_user_register_$(1) \
	  -MMD -MP -c $$< -o $$@
endef
$(foreach i,$(USER_IDS),$(eval $(call USER_KERNEL_RULE,$(i))))

# Differential fuzz targets: libFuzzer binaries in build/fuzz, and plain replay drivers
# (any compiler) in every other build folder.
# The targets are the files fuzz/fuzz_<target>.c (fuzz_common.c is shared code); a target's
# further parts, if any, are fuzz/<target>/*.c. FUZZ_TARGETS picks some of them for make fuzz /
# fuzz-brief / fuzz-merge, e.g. FUZZ_TARGETS="aabb mtd".
ALL_FUZZ_TARGETS := $(shell bash scripts/fuzz-targets.sh)
FUZZ_LINK_FLAGS := $(shell bash scripts/fuzz-targets.sh link-flags)
fuzz_parts = $(patsubst fuzz/%.c,$(O)/obj/fuzz/%.o,$(wildcard fuzz/$(1)/*.c))
FUZZ_TARGETS ?= $(ALL_FUZZ_TARGETS)
FUZZ_COMMON_OBJ := $(O)/obj/fuzz/fuzz_common.o
REPLAYS := $(ALL_FUZZ_TARGETS:%=$(O)/replay_%)
FUZZERS := $(ALL_FUZZ_TARGETS:%=$(O)/fuzz_%)
# Keep the objects of these pattern chains (make would delete them as intermediates).
.SECONDARY: $(ALL_FUZZ_TARGETS:%=$(O)/obj/fuzz/fuzz_%.o) $(FUZZ_COMMON_OBJ) $(O)/obj/fuzz/replay.o \
  $(foreach t,$(ALL_FUZZ_TARGETS),$(call fuzz_parts,$(t))) \
  $(patsubst fuzz/%.c,$(O)/obj/fuzz/%.o,fuzz/make_seeds.c $(wildcard fuzz/seeds/*.c))
FUZZ_SECONDS ?= 30
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
export FUZZ_SECONDS FUZZ_JOBS

.PHONY: all lib test check user-check check-user peer-check check-env replay bench-smoke bench-check deps bench fuzz fuzz-build fuzz-brief fuzz-selftest \
  fuzz-repro fuzz-failure-check \
  fuzz-merge fuzz-mutants fuzz-cfl-check seeds report soak soak-selftest clean distclean format install uninstall install-check \
  help
.DEFAULT_GOAL := all

all: lib
lib: $(LIB) $(SHLIB)

$(LIB): $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library: the same objects, its soname carrying the major version, exporting only
# the public col_ API (scripts/libcollide.map). -z defs: every symbol it needs is named (-lm);
# sanitized builds leave their runtime to the program, so they skip that check.
$(SHLIB): $(CORE_OBJ) scripts/libcollide.map
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=scripts/libcollide.map \
	  $(if $(SANITIZE),,-Wl,-z,defs) $(CORE_OBJ) -lm -o $@

# The ISA lists for this target, rewritten only when they change (an ISA file added, removed or
# its collide-isa line edited): the objects that include them are then rebuilt.
# A temporary per make process: two makes on one build folder must not clobber each other.
$(ISA_LIST_H): FORCE
	@mkdir -p $(@D)
	@t=$@.tmp.$$$$; bash scripts/isa-list.sh header $(MACHINE) > $$t || { rm -f $$t; exit 1; }; \
	  cmp -s $$t $@ || mv $$t $@; rm -f $$t

$(O)/obj/core/src/%.o: core/src/%.c $(O)/.flags | $(ISA_LIST_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(if $(filter scalar,$*),$(SCALAR_FLAGS)) -MMD -MP -c $< -o $@

$(O)/obj/core/src/x86/%.o $(O)/obj/core/src/arm/%.o: core/src/*/%.c $(O)/.flags | $(DEPS_STAMP) $(ISA_LIST_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(ISA_FLAGS_$*) -DCOL_ISA=$* -MMD -MP -c $< -o $@

$(O)/obj/core/src/x86/%-emu.o $(O)/obj/core/src/arm/%-emu.o: core/src/*/%.c $(O)/.flags | $(DEPS_STAMP) $(ISA_LIST_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(EMU_FLAGS) -DCOL_ISA=$* -MMD -MP -c $< -o $@

$(O)/obj/core/tests/%.o: core/tests/%.c $(O)/.flags | $(DEPS_STAMP) $(ISA_LIST_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -Wno-missing-prototypes -MMD -MP -c $< -o $@

$(O)/obj/fuzz/%.o: fuzz/%.c $(O)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -Wno-missing-prototypes -MMD -MP -c $< -o $@

# (Second expansion: each target's own parts, found from the target's name.)
.SECONDEXPANSION:
$(O)/replay_%: $(O)/obj/fuzz/fuzz_%.o $$(call fuzz_parts,$$*) $(FUZZ_COMMON_OBJ) \
  $(O)/obj/fuzz/replay.o $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $(FUZZ_LINK_FLAGS) $^ $(HARNESS_LIBS) -lm -o $@

$(O)/fuzz_%: $(O)/obj/fuzz/fuzz_%.o $$(call fuzz_parts,$$*) $(FUZZ_COMMON_OBJ) $(HARNESS_OBJ) \
  $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $(FUZZ_LINK_FLAGS) $^ $(HARNESS_LIBS) -lm -o $@

# Peer engines (bench/peers/): each engine whose Debian package is installed is compiled in
# (COL_PEER_<ENGINE>); an absent one is named by the benchmark binary and the peer tests.
PEER_SRC := bench/peers/peers.c
PEER_DEFS :=
PEER_CXXFLAGS :=
PEER_LIBS :=
PEER_ABSENT :=
ifeq ($(shell pkg-config --exists bullet 2>/dev/null && echo yes),yes)
PEER_SRC += bench/peers/peer_bullet.cc
PEER_DEFS += -DCOL_PEER_BULLET
PEER_CXXFLAGS += $(shell pkg-config --cflags bullet)
PEER_LIBS += -lBulletCollision -lLinearMath
else
PEER_ABSENT += bullet(libbullet-dev)
endif
ifneq ($(wildcard /usr/include/box2d/b2_broad_phase.h),)
PEER_SRC += bench/peers/peer_box2d.cc
PEER_DEFS += -DCOL_PEER_BOX2D
PEER_LIBS += -lbox2d
else
PEER_ABSENT += box2d(libbox2d-dev)
endif
ifneq ($(wildcard /usr/include/chipmunk/cpSpatialIndex.h),)
PEER_SRC += bench/peers/peer_chipmunk.c
PEER_DEFS += -DCOL_PEER_CHIPMUNK
PEER_LIBS += -lchipmunk
else
PEER_ABSENT += chipmunk(libchipmunk-dev)
endif
PEER_OBJ := $(patsubst %,$(O)/obj/%.o,$(basename $(PEER_SRC)))
PEER_TESTBIN := $(O)/collide-peer-tests

# Benchmarks: C files over the Google Benchmark shim (the one C++ file) and the peers.
BENCH_OBJ := $(patsubst %.c,$(O)/obj/%.o,$(wildcard bench/*.c)) $(O)/obj/bench/gbench.o $(PEER_OBJ)
BENCHBIN := $(O)/collide-bench

$(O)/bench_context.h: FORCE
	@mkdir -p $(@D)
	@{ echo '#define COLLIDE_BENCH_CC "$(shell $(CC) --version | head -n1)"'; \
	   echo '#define COLLIDE_BENCH_CFLAGS "$(CFLAGS)"'; \
	   echo '#define COLLIDE_BENCH_GIT_REV "$(shell git describe --always --dirty 2>/dev/null || echo unknown)"'; \
	 } > $@.tmp.$$$$; cmp -s $@.tmp.$$$$ $@ || mv $@.tmp.$$$$ $@; rm -f $@.tmp.$$$$

$(O)/obj/bench/%.o: bench/%.c $(O)/.flags $(O)/bench_context.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -I$(O) -Ibench -MMD -MP -c $< -o $@

$(O)/obj/bench/peers/%.o: bench/peers/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(PEER_DEFS) -Ibench -MMD -MP -c $< -o $@

$(O)/obj/bench/peers/%.o: bench/peers/%.cc bench/peers/peers.h $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(if $(filter 1,$(SANITIZE)),$(SANITIZE_FLAGS)) -std=c++17 -Icore/include \
	  $(PEER_CXXFLAGS) -c $< -o $@

$(O)/obj/bench/peers/test_peers.o: bench/peers/test_peers.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -Ibench -MMD -MP -c $< -o $@

# The peer pair-set tests (Criterion): the peers against our brute force on small scenes.
$(PEER_TESTBIN): $(O)/obj/bench/peers/test_peers.o $(O)/obj/bench/bench_scenes.o $(PEER_OBJ) $(LIB)
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ $(PEER_LIBS) -lcriterion -lm -o $@

$(O)/obj/bench/gbench.o: bench/gbench.cc bench/gbench.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(if $(filter 1,$(SANITIZE)),$(SANITIZE_FLAGS)) -std=c++17 -c $< -o $@

$(BENCHBIN): $(BENCH_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ $(PEER_LIBS) $(HARNESS_LIBS) -lbenchmark -lpthread -lm -o $@

$(TESTBIN): $(TEST_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $(TEST_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB) -lcriterion \
	  $(HARNESS_LIBS) -lm -o $@

# Rebuild when the compiler, the flags or the set of installed peer engines change (the build
# folder records them: a first build made before install-deps ran is redone once they exist).
BUILD_ID = $(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(SCALAR_FLAGS) $(PEER_DEFS)$(if $(LDFLAGS), $(LDFLAGS))
$(O)/.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(BUILD_ID)' | cmp -s - $@ || echo '$(BUILD_ID)' > $@
FORCE:

$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh
	@mkdir -p $(@D)
	@touch $@
deps: $(DEPS_STAMP)

# The unit suite, once per backend: every supported one, or only $(COLLIDE_BACKEND). Each run
# has TEST_LIMIT seconds (it takes seconds; see scripts/run-tests.sh for why there is a limit).
TEST_LIMIT ?= 300
check: $(TESTBIN)
	@set -e; \
	if [ -n "$$COLLIDE_BACKEND" ]; then backends="$$COLLIDE_BACKEND"; \
	else backends=$$($(TESTBIN) --list-backends); fi; \
	for b in $$backends; do \
	  echo "== $(TESTBIN) with COLLIDE_BACKEND=$$b"; \
	  COLLIDE_BACKEND=$$b bash scripts/run-tests.sh $(TEST_LIMIT) $(TESTBIN) $(TEST_ARGS); \
	done
	@$(MAKE) --no-print-directory peer-check O=$(O)
	@$(MAKE) --no-print-directory check-env O=$(O)
	@$(MAKE) --no-print-directory replay O=$(O)
	@$(MAKE) --no-print-directory bench-smoke O=$(O)

# The shim's own check: every gbench.h call, verified in the JSON it writes.
$(O)/gbench-check: $(O)/obj/bench/check/gbench_check.o $(O)/obj/bench/gbench.o
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ -lbenchmark -lpthread -o $@

# Every benchmark once at the smallest size: it builds and runs (no timing is judged).
bench-smoke: $(BENCHBIN) $(O)/gbench-check
	@COLLIDE_BENCH_TOTAL=$$($(O)/gbench-check --benchmark_list_tests=true | wc -l) \
	  $(O)/gbench-check --benchmark_min_time=0.001 --benchmark_out=$(O)/gbench-check.json \
	  --benchmark_out_format=json > $(O)/gbench-check.log 2>&1 \
	  || { tail -n 20 $(O)/gbench-check.log; exit 1; }
	@$(PYTHON) scripts/check-gbench.py $(O)/gbench-check.json $(O)/gbench-check.log
	@COLLIDE_BENCH_SUITE=smoke $(BENCHBIN) --benchmark_min_time=0.001 > $(O)/bench-smoke.log 2>&1 \
	  || { tail -n 20 $(O)/bench-smoke.log; echo "bench-smoke: FAILED"; exit 1; }
	@if grep -q 'ERROR OCCURRED' $(O)/bench-smoke.log; then grep 'ERROR OCCURRED' $(O)/bench-smoke.log; exit 1; fi
	@echo "bench-smoke: $$(grep -c '/16 ' $(O)/bench-smoke.log) benchmarks ran once at the smallest size"

# Every corpus file through every target, on every backend (a disagreement aborts).
replay: $(REPLAYS)
	@set -e; for t in $(ALL_FUZZ_TARGETS); do $(O)/replay_$$t fuzz/corpus/$$t; done

# The peers' pair sets against our brute force (once: they do not use our backends).
peer-check: $(PEER_TESTBIN)
	@echo "== $(PEER_TESTBIN) (engines: $(or $(strip $(PEER_DEFS:-DCOL_PEER_%=%)),none))"
	@if [ -n "$(strip $(PEER_ABSENT))" ]; then echo "peer-check: not installed, not tested: $(PEER_ABSENT)"; fi
	@bash scripts/run-tests.sh $(TEST_LIMIT) $(PEER_TESTBIN) $(TEST_ARGS)

# A forced backend that does not exist must fail loudly, not fall back.
check-env: $(TESTBIN)
	@out=$$(COLLIDE_BACKEND=no-such-backend $(TESTBIN) 2>&1); rc=$$?; \
	if [ $$rc -eq 2 ] && echo "$$out" | grep -q 'COLLIDE_BACKEND="no-such-backend" is not a backend'; then \
	  echo "check-env: unknown COLLIDE_BACKEND rejected with exit 2: ok"; \
	else echo "check-env: FAILED (exit $$rc): $$out"; exit 1; fi

# Bit for bit on another architecture, under qemu-user: ARCH=arm64 (native neon too) or s390x
# (big-endian); cross-builds into build/cross-$(ARCH) with gcc and clang, runs the unit suite,
# the corpora (also sanitized) and brief fuzzing (scripts/cross-test.sh).
.PHONY: cross-test cross-selftest
cross-test:
	@bash scripts/cross-test.sh $(ARCH)

# No timings under emulation: the benchmarks' emulation check, cross-built, refuses under
# qemu-user (ARCH=arm64 or s390x; both when empty), not natively; so does $(BENCHBIN) under
# qemu-user for this machine, and scripts/bench.sh given a foreign binary
# (scripts/check-emulation.sh ARCH alone skips the native benchmark binary and its build).
.PHONY: check-emulation
check-emulation: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory $(BENCHBIN)
	@bash scripts/check-emulation.sh $(or $(ARCH),all) $(BENCHBIN)

# Native-only code (neon.c's native block) has no emulated twin to fuzz on x86: its seeded bug
# must be found by cross-test on arm64, naming neon and not neon-emu (scripts/cross-selftest.sh).
cross-selftest:
	@bash scripts/cross-selftest.sh

# With USER_KERNELS, every step runs the user's kernels: the unit suite on every backend (theirs
# included, plain and ASan+UBSan), the corpora, the benchmark smoke pass and brief fuzzing of
# every target; user-check (the shipped examples) is then left out. The last line names the user
# backends and broadphases that were checked, and from which files.
test: $(DEPS_STAMP)
	@/usr/bin/python3 scripts/core-graph.py -q || { echo 'make test: core has a circle or an upward call (scripts/core-graph.py)' >&2; exit 1; }
	@$(MAKE) --no-print-directory check O=build/test
	@$(MAKE) --no-print-directory check O=build/asan SANITIZE=1
	@$(MAKE) --no-print-directory fuzz-brief
	$(if $(USER_FILES),,@$(MAKE) --no-print-directory user-check)
	@$(MAKE) --no-print-directory fuzz-failure-check
	@$(MAKE) --no-print-directory install-check
	@$(MAKE) --no-print-directory bench-check
	@$(call user_list,$(if $(USER_FILES),build/test,build/asan)); \
	echo "make test: all suites passed (unit + corpus replay, plain and ASan+UBSan; brief fuzzing;"\
	  "the fuzz failure screen; the installed copy; the benchmark harness's errors); user kernels checked: $$checked"\
	  "from $(or $(USER_FILES),the shipped examples $(EXAMPLE_KERNELS))"

# Sets the shell variable `checked` to what the test binary of build folder $(1) registered
# from USER_KERNELS, comma-separated ("none" if nothing).
user_list = checked=$$($(1)/collide-tests --list-user) || exit 1; \
  checked=$$(echo "$$checked" | paste -sd, - | sed 's/,/, /g'); checked=$${checked:-none}

# User kernels through the harness exactly as a user brings their own: USER_KERNELS, or the
# shipped examples (examples/user-kernels/) when it is empty. The unit suite on the user
# backends (ASan+UBSan), every corpus replayed with them, their benchmark rows, and brief
# fuzzing (the examples: the targets they take part in; yours: every target).
EXAMPLE_KERNELS := examples/user-kernels/plain_c.c examples/user-kernels/sorted_sweep.c
USER_CHECK_FILES := $(or $(USER_FILES),$(EXAMPLE_KERNELS))
USER_CHECK_TARGETS := $(if $(USER_FILES),$(FUZZ_TARGETS),aabb mtd broadphase)
user-check: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory check-user O=build/asan SANITIZE=1 USER_KERNELS="$(USER_CHECK_FILES)"
	@$(MAKE) --no-print-directory fuzz-brief USER_KERNELS="$(USER_CHECK_FILES)" \
	  FUZZ_TARGETS="$(USER_CHECK_TARGETS)" FUZZ_BRIEF_SECONDS=10
	@$(call user_list,build/asan); \
	echo "user-check: $$checked from $(USER_CHECK_FILES):"\
	  "unit suite (ASan+UBSan), corpora, benchmark rows, brief fuzzing ($(USER_CHECK_TARGETS)): ok"

# What USER_KERNELS brought in, tested: the unit suite once per user backend (the user
# broadphases run under every one of them), the corpora, and one benchmark pass of their rows.
check-user: $(TESTBIN) $(REPLAYS) $(BENCHBIN)
	@users=$$($(TESTBIN) --list-backends user); \
	[ -n "$(USER_FILES)" ] || { echo "check-user: USER_KERNELS is empty" >&2; exit 2; }; \
	for b in $${users:-scalar}; do \
	  echo "== $(TESTBIN) with COLLIDE_BACKEND=$$b ($(USER_FILES))"; \
	  COLLIDE_BACKEND=$$b bash scripts/run-tests.sh $(TEST_LIMIT) $(TESTBIN) $(TEST_ARGS); \
	done
	@$(MAKE) --no-print-directory replay O=$(O)
	@COLLIDE_BENCH_SUITE=smoke $(BENCHBIN) --benchmark_min_time=0.001 --benchmark_filter=user: \
	  > $(O)/bench-user.log 2>&1 || { tail -n 20 $(O)/bench-user.log; exit 1; }
	@rows=$$(grep -c '^\[.*user:' $(O)/bench-user.log || true); \
	if [ "$$rows" -eq 0 ] || grep -q 'ERROR OCCURRED' $(O)/bench-user.log; then \
	  echo "check-user: the user benchmark rows did not run:"; tail -n 20 $(O)/bench-user.log; exit 1; fi; \
	echo "check-user: $$rows benchmark rows of user kernels ran once"

# BENCH=quick (<= 2 min on 2 cores), default (<= 10 min) or full (everything); BENCH_ARGS for
# extra --benchmark_* options (e.g. --benchmark_filter=aabb2). A complete default or full run
# regenerates results/REPORT.md; other runs write their own report under results/<machine>/partial/.
bench: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory O=build/release build/release/collide-bench
	@bash scripts/bench.sh build/release/collide-bench $(BENCH) $(BENCH_ARGS)

# The incremental cache over a long run (tools/soak/soak.c, README "Soak test"): SOAK_FRAMES
# frames of the moving scene through the tree and the sweep-and-prune caches (listed update),
# brute force every SOAK_CHECK_EVERY frames; fails when the peak RSS grows more than
# SOAK_RSS_SLACK_KB past its value after the first 1% of frames, or a cache's median per-frame
# time of the last 1% exceeds SOAK_DRIFT x that of the first. Not part of make test.
SOAK_FRAMES ?= 1000000
SOAK_BOXES ?= 1024
SOAK_CHECK_EVERY ?= 1000
SOAK_RSS_SLACK_KB ?= 2048
SOAK_DRIFT ?= 2
SOAKBIN := $(O)/collide-soak
$(O)/obj/tools/soak/%.o: tools/soak/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Ibench -MMD -MP -c $< -o $@
$(SOAKBIN): $(O)/obj/tools/soak/soak.o $(O)/obj/bench/bench_scenes.o $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $^ -lm -o $@
SOAK_RUN = $(SOAKBIN) $(SOAK_FRAMES) $(SOAK_BOXES) $(SOAK_CHECK_EVERY) $(SOAK_RSS_SLACK_KB) $(SOAK_DRIFT)
soak: $(SOAKBIN)
	@$(SOAK_RUN)

# Each of the soak test's checks must be able to fail: a seeded leak (1 KB a frame), a seeded
# slowdown (to 4x) and a seeded lost pair, each on a short run that must exit 1 naming it.
soak-selftest: $(SOAKBIN)
	@set -e; for s in leak:'peak RSS grew' slow:'per-frame time drifted' pairs:'differ from brute'; do \
	  out=$$($(SOAKBIN) 20000 1024 1000 $(SOAK_RSS_SLACK_KB) $(SOAK_DRIFT) --selftest-$${s%%:*} 2>&1) && rc=0 || rc=$$?; \
	  if [ $$rc -eq 1 ] && echo "$$out" | grep -q "FAILED: .*$${s#*:}"; then \
	    echo "soak-selftest: seeded $${s%%:*}: found ($$(echo "$$out" | grep -m1 FAILED))"; \
	  else echo "$$out" | tail -n 8; echo "soak-selftest: seeded $${s%%:*} NOT found (exit $$rc)"; exit 1; fi; \
	done

# The benchmark harness's failure paths and concurrency, checked with build/test's binaries: a
# user kernel that fails to register, a bad flag, a filter matching nothing, the output formats,
# two runs at once, a two-machine report, scripts/compare's warnings (scripts/check-bench-errors.sh).
bench-check: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory O=build/test build/test/collide-bench
	@bash scripts/check-bench-errors.sh build/test

# The fuzzers of FUZZ_TARGETS (default: all), after the variables are checked.
fuzz-build: $(DEPS_STAMP)
	@bash scripts/fuzz.sh check $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory O=build/fuzz CC=$(FUZZ_CC) SANITIZE=fuzz \
	  $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

# FUZZ_SECONDS per target (wall clock, default 30), FUZZ_JOBS processes (default: all cores),
# FUZZ_TARGETS (default: all); new corpus entries are kept in fuzz/corpus-local/. The first
# disagreement stops the run: its input is minimized (FUZZ_MINIMIZE_SECONDS, default 15), kept
# in fuzz/artifacts/<target>/ and reported with the command that reproduces it (fuzz-repro).
FUZZ_ENV = FUZZ_O=build/fuzz USER_KERNELS='$(USER_KERNELS)' USER_CFLAGS='$(USER_CFLAGS)' \
  $(if $(filter command line environment,$(origin FUZZ_CC)),FUZZ_CC='$(FUZZ_CC)')
fuzz:
	@bash scripts/fuzz.sh check $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory fuzz-build
	@$(FUZZ_ENV) bash scripts/fuzz.sh run $(FUZZ_TARGETS)

# Part of make test: about 20 seconds per target, one process, no disagreement allowed.
fuzz-brief:
	@FUZZ_SECONDS=$${FUZZ_BRIEF_SECONDS:-20} bash scripts/fuzz.sh check $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory fuzz-build
	@$(FUZZ_ENV) FUZZ_SECONDS=$${FUZZ_BRIEF_SECONDS:-20} bash scripts/fuzz.sh brief $(FUZZ_TARGETS)

# One input of one target, replayed by its fuzzer rebuilt with this command's variables
# (USER_KERNELS ...): the report again, exit 1 while the disagreement stands.
# make fuzz-repro FUZZ_TARGETS=aabb INPUT=fuzz/artifacts/aabb/crash-...
# (Without FUZZ_TARGETS on the command line: the folder the input is in, fuzz/artifacts/<target>/.)
REPRO_TARGET = $(if $(filter command line,$(origin FUZZ_TARGETS)),$(FUZZ_TARGETS),$(filter \
  $(ALL_FUZZ_TARGETS),$(notdir $(patsubst %/,%,$(dir $(INPUT))))))
fuzz-repro:
	@[ -n "$(INPUT)" ] || { echo "fuzz-repro: say which input: INPUT=path FUZZ_TARGETS=target" >&2; exit 2; }
	@[ -f '$(INPUT)' ] || { echo "fuzz-repro: $(INPUT): no such file" >&2; exit 2; }
	@[ $(words $(REPRO_TARGET)) -eq 1 ] || { echo "fuzz-repro: name the input's target: FUZZ_TARGETS=<one of $(ALL_FUZZ_TARGETS)>" >&2; exit 2; }
	@bash scripts/fuzz.sh check $(REPRO_TARGET)
	@$(MAKE) --no-print-directory fuzz-build FUZZ_TARGETS=$(REPRO_TARGET)
	@$(FUZZ_ENV) bash scripts/fuzz.sh repro $(REPRO_TARGET) '$(INPUT)'

# The failure path as a user meets it: make fuzz with a wrong user backend and a wrong user
# broadphase, checked for the report, the kept input and a reproduce command that fails.
fuzz-failure-check:
	@bash scripts/fuzz-failure-check.sh

# Seeded bugs: each must be found within 60 seconds.
fuzz-selftest: fuzz-build
	@bash scripts/fuzz-selftest.sh

# Mutation testing: MUTANTS single-token mutants of the kernels, broadphases, movement and
# simulations, each fuzzed MUTANT_SECONDS with the corpus; kill rate, times, survivors as diffs
# (build/mutants/report.md). Equivalent mutants: fuzz/mutants-equivalent.txt.
fuzz-mutants: fuzz-build
	@$(PYTHON) scripts/fuzz-mutants.py

# Fold fuzz/corpus-local/ into the committed corpora: the inputs that reach new edges.
fuzz-merge: fuzz-build
	@bash scripts/fuzz.sh merge $(FUZZ_TARGETS)

# ClusterFuzzLite's build.sh, run locally with the variables OSS-Fuzz sets.
fuzz-cfl-check: fuzz-build
	@bash scripts/cfl-check.sh

# Regenerate the hand-made seed inputs into fuzz/corpus/: every fuzz target's seed writer
# fuzz/seeds/<target>.c, linked with the driver fuzz/make_seeds.c and the encoder
# fuzz/seeds/encode.c into $(O)/make_seeds_<target>. A target without a writer, or a writer
# without a target, is an error.
SEED_MISSING := $(filter-out $(basename $(notdir $(wildcard fuzz/seeds/*.c))),$(ALL_FUZZ_TARGETS))
SEED_EXTRA := $(filter-out encode $(ALL_FUZZ_TARGETS),$(basename $(notdir $(wildcard fuzz/seeds/*.c))))
$(O)/make_seeds_%: $(O)/obj/fuzz/make_seeds.o $(O)/obj/fuzz/seeds/encode.o $(O)/obj/fuzz/seeds/%.o \
  $(FUZZ_COMMON_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDFLAGS_EXTRA) $(FUZZ_LINK_FLAGS) $^ -lm -o $@
seeds: $(DEPS_STAMP)
	@[ -z "$(SEED_MISSING)" ] || { echo "seeds: no seed writer fuzz/seeds/<target>.c for the fuzz target(s): $(SEED_MISSING)" >&2; exit 1; }
	@[ -z "$(SEED_EXTRA)" ] || { echo "seeds: fuzz/seeds/ has writers of no fuzz target (fuzz/fuzz_<target>.c): $(SEED_EXTRA)" >&2; exit 1; }
	@$(MAKE) --no-print-directory $(ALL_FUZZ_TARGETS:%=$(O)/make_seeds_%)
	@set -e; for t in $(ALL_FUZZ_TARGETS); do $(O)/make_seeds_$$t fuzz/corpus/$$t; done

report: $(DEPS_STAMP)
	$(PYTHON) scripts/report.py

format:
	clang-format -i core/include/*.h core/include/collide/*.h core/src/*.c core/src/*.h core/src/*/*.c core/src/*/*.h \
	  core/tests/*.c core/tests/*.h fuzz/*.c fuzz/*.h fuzz/*/*.c fuzz/*/*.h bench/*.c bench/*.h bench/*.cc bench/check/*.c \
	  bench/peers/*.c bench/peers/*.h bench/peers/*.cc harness/*.h examples/user-kernels/*.c \
	  tools/soak/*.c

# Use from another project: the headers, libcollide.a (-fPIC), libcollide.so.$(VERSION) with its
# soname and development links, a pkg-config file and a CMake package, under PREFIX (made
# absolute: the pkg-config file names it). DESTDIR stages the tree elsewhere (packaging).
PREFIX ?= /usr/local
DESTDIR ?=
ifneq ($(filter install uninstall install-check,$(MAKECMDGOALS)),)
ifeq ($(strip $(PREFIX)),)
$(error PREFIX is empty: give the folder to install into, e.g. PREFIX=$$HOME/.local)
endif
ifneq ($(findstring ~,$(PREFIX)),)
$(error PREFIX=$(PREFIX): write the home folder as $$HOME, make does not expand ~)
endif
endif
PREFIX_ABS := $(abspath $(PREFIX))
DEST := $(DESTDIR)$(PREFIX_ABS)
POINTER_BYTES = $(shell $(CC) -dM -E - </dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
PUBLIC_HEADERS := $(notdir $(wildcard core/include/collide/*.h))
# Every file install writes (uninstall removes exactly these, then the two folders of its own
# if they are left empty).
INSTALLED := $(DEST)/include/collide.h $(PUBLIC_HEADERS:%=$(DEST)/include/collide/%) \
  $(DEST)/lib/libcollide.a $(DEST)/lib/libcollide.so.$(VERSION) $(DEST)/lib/$(SONAME) \
  $(DEST)/lib/libcollide.so $(DEST)/lib/pkgconfig/collide.pc \
  $(DEST)/lib/cmake/collide/collideConfig.cmake $(DEST)/lib/cmake/collide/collideConfigVersion.cmake
INSTALL_SUBST := -e 's|@PREFIX@|$(PREFIX_ABS)|g' -e 's|@VERSION@|$(VERSION)|g' \
  -e 's|@SOVERSION@|$(SOVERSION)|g' -e 's|@POINTER_BYTES@|$(POINTER_BYTES)|g'
install: lib
	install -d $(DEST)/include/collide $(DEST)/lib/pkgconfig $(DEST)/lib/cmake/collide
	install -m 0644 core/include/collide.h $(DEST)/include/collide.h
	install -m 0644 $(PUBLIC_HEADERS:%=core/include/collide/%) $(DEST)/include/collide/
	install -m 0644 $(LIB) $(DEST)/lib/libcollide.a
	install -m 0755 $(SHLIB) $(DEST)/lib/libcollide.so.$(VERSION)
	ln -sfn libcollide.so.$(VERSION) $(DEST)/lib/$(SONAME)
	ln -sfn $(SONAME) $(DEST)/lib/libcollide.so
	sed $(INSTALL_SUBST) scripts/collide.pc.in > $(DEST)/lib/pkgconfig/collide.pc
	sed $(INSTALL_SUBST) scripts/collideConfig.cmake.in > $(DEST)/lib/cmake/collide/collideConfig.cmake
	sed $(INSTALL_SUBST) scripts/collideConfigVersion.cmake.in \
	  > $(DEST)/lib/cmake/collide/collideConfigVersion.cmake
	chmod 0644 $(DEST)/lib/pkgconfig/collide.pc $(DEST)/lib/cmake/collide/*.cmake
	@echo "install: collide $(VERSION) in $(DEST); programs find libcollide.so.$(SOVERSION) at run time" \
	  "through ldconfig (system folders), LD_LIBRARY_PATH or an rpath"

uninstall:
	rm -f $(INSTALLED)
	@for d in $(DEST)/include/collide $(DEST)/lib/cmake/collide; do \
	  if [ -d "$$d" ]; then rmdir "$$d" || { echo "uninstall: $$d holds files collide did not install: left"; exit 1; }; fi; \
	done

# Install into a scratch prefix (given relative, as a user might), then build and run
# core/examples/use-installed against it as another project would: pkg-config (shared and
# --static) and CMake's find_package; then uninstall and check that nothing is left. Part of
# make test.
# (The script gets make's path through MAKE_PATH: a recipe line naming $(MAKE) itself would run
# even under make -n.)
MAKE_PATH = $(MAKE)
install-check:
	@bash scripts/install-check.sh "$(MAKE_PATH)" "$(CC)" build/install-check

# make help: the targets and every variable a user can set, with their defaults. The one place
# this text lives (README.md points here).
define HELP_TEXT
Usage: make [TARGET...] [VARIABLE=value...]      (README.md: the first hour; DESIGN.md: the design)

Targets
  all            (the default) build O/libcollide.a and O/libcollide.so.$(VERSION)
  test           everything, about 12 minutes: the unit suite on every backend, plain
                 (build/test) and under ASan+UBSan (build/asan), with the corpus replay, the
                 peer engines' pair sets and one pass of every benchmark; brief fuzzing;
                 user-check; install-check
  check          the unit suite in O on every backend (COLLIDE_BACKEND: one), then the peer
                 engines' pair sets, the refused COLLIDE_BACKEND, the corpus replay and one
                 pass of every benchmark (parts: peer-check, check-env, replay, bench-smoke)
  user-check     user kernels through the harness under ASan+UBSan, with brief fuzzing:
                 USER_KERNELS, or the shipped examples/user-kernels/ when it is empty
  install-check  install into a scratch prefix, build and run an example with pkg-config
                 (shared and --static) and CMake, uninstall; part of make test
  bench          time the benchmarks (suite BENCH) in build/release; write results/<machine>/
                 and, for a complete default or full run, results/REPORT.md
  report         regenerate results/REPORT.md and results/plots/ from the JSON in results/
  fuzz           fuzz FUZZ_TARGETS, FUZZ_SECONDS each on FUZZ_JOBS processes (build/fuzz); the
                 first disagreement stops it, minimized and reported with a fuzz-repro command
  fuzz-repro     replay one input: FUZZ_TARGETS=target INPUT=file (with the run's USER_KERNELS)
  fuzz-failure-check  make fuzz with two wrong example kernels: the report, one crash file, a
                 reproduce command that fails; bad variables refused (part of make test)
  bench-check    the benchmark harness's failure messages, concurrent runs, a two-machine
                 report, compare's warnings (part of make test)
  check-emulation  the benchmarks refuse to run under qemu-user (ARCH=arm64, s390x; both
                 when empty) and run natively; bench.sh refuses a foreign binary
  soak           the incremental cache over SOAK_FRAMES frames of the moving scene (tree and
                 sweep and prune, brute force every SOAK_CHECK_EVERY frames): fails when memory
                 or per-frame time grows; a million frames take minutes (not in make test)
  soak-selftest  show the soak test fails on a seeded leak, slowdown and lost pair
  fuzz-brief     fuzz FUZZ_TARGETS for FUZZ_BRIEF_SECONDS each, one process (part of make test)
  fuzz-selftest  show the fuzzers find the seeded bugs, each within SELFTEST_SECONDS
  cross-test     ARCH=arm64 or s390x: the unit suite on every backend and every corpus through
                 every backend, bit for bit, cross-built into build/cross-ARCH, run under qemu
  cross-selftest show cross-test ARCH=arm64 finds a seeded bug in native-only NEON code, which
                 the emulated twin neon-emu (the x86 runs) does not have
  fuzz-mutants   mutation testing: MUTANTS mutants, MUTANT_SECONDS each; build/mutants/report.md
  fuzz-merge     fold fuzz/corpus-local/ into the committed corpora
  fuzz-cfl-check run ClusterFuzzLite's build.sh locally
  fuzz-build     build the fuzz targets only
  seeds          regenerate the hand-made seed inputs in fuzz/corpus/
  install        install headers, libraries, collide.pc, the CMake package into DESTDIR+PREFIX
  uninstall      remove exactly the files install writes (same PREFIX and DESTDIR)
  deps           install the missing Debian packages (scripts/install-deps.sh; as root)
  format         clang-format the C and C++ sources
  clean          remove the build folders; distclean: also fuzzing's and partial runs' output
  help           this text

Variables (default in brackets)
  CC             C compiler [gcc]; CC=clang uses clang, or clang-14 where only that exists
  CXX            C++ compiler (benchmark shim, peer engines) [g++; clang++ when CC is clang]
  CFLAGS         [-O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
                 -Wmissing-prototypes]; -std=c11 -ffp-contract=off are always added, fast math
                 is refused
  CXXFLAGS       [-O2 -g -Wall -Wextra -Werror]
  LDFLAGS        flags for every link only (-L, -Wl,...) [empty]
  PIC_FLAGS      [-fPIC -fno-semantic-interposition] the shared library needs position-
                 independent code
  O              build folder of all, check, install, check-user [build/release]; make test
                 uses build/test and build/asan, make bench build/release, fuzzing build/fuzz
  SANITIZE       1: build with ASan+UBSan (make check O=build/asan SANITIZE=1) [empty]
  VALIDATE       1: the library checks its kept structures after every change and aborts
                 naming the broken rule [1 for O=build/test, SANITIZE=1 and fuzzing; else 0]
  SANITIZERS     the -fsanitize= list of SANITIZE=1 [address,undefined,float-divide-by-zero,
                 float-cast-overflow]; FUZZ_SANITIZERS: the fuzzers' [address,undefined,
                 float-divide-by-zero]
  PYTHON         Python for the reports and checks [/usr/bin/python3]
  COLLIDE_BACKEND  check and test run the unit suite on this backend only [every supported
                 one]; any program: the backend the library uses [the newest the CPU runs]
  COLLIDE_MACHINE  the results folder name of make bench [from the CPU: vendor, family, model,
                   stepping, TSC rate, CPUs; collide-bench --collide_machine_name prints it]
  USER_KERNELS   your C files of kernels ("a.c b.c"), linked into the tests, fuzzers and
                 benchmarks of this command [empty]
  USER_CFLAGS    extra flags for the USER_KERNELS files, e.g. -mavx2 [empty]
  BENCH          the suite of make bench: quick (2 min), default (10 min), full [default]
  BENCH_ARGS     extra Google Benchmark options, e.g. --benchmark_filter=sprite [empty]
  FUZZ_SECONDS   wall-clock seconds per target for make fuzz [30]
  FUZZ_MINIMIZE_SECONDS  at most this long minimizing a failing input; 0: keep it as found [15]
  INPUT          the input file of fuzz-repro [empty]
  FUZZ_JOBS      processes per target for make fuzz [the cores: $(FUZZ_JOBS_DEFAULT)]
  FUZZ_TARGETS   the targets of fuzz, fuzz-brief, fuzz-merge, e.g. "aabb mtd" [all:
                 $(ALL_FUZZ_TARGETS)]
  FUZZ_BRIEF_SECONDS  seconds per target for fuzz-brief and make test [20]
  FUZZ_CC        the compiler of the fuzz builds (clang: libFuzzer) [$(CLANG)]
  SELFTEST_ONLY  fuzz-selftest, cross-selftest run only these seeded bugs (name,name) [all]
  SELFTEST_SECONDS  fuzz-selftest's limit per bug [60]
  MUTANTS        fuzz-mutants: how many mutants [100]
  MUTANTS_SEED   fuzz-mutants: which sample [1]
  MUTANT_SECONDS fuzz-mutants: seconds of fuzzing per mutant [60]
  MUTANT_JOBS    fuzz-mutants: mutants run at once [the cores]
  MUTANTS_ONLY   fuzz-mutants: only these mutant ids (id,id) [all]
  SOAK_FRAMES    soak: frames [1000000]
  SOAK_BOXES     soak: boxes in the moving scene [1024]
  SOAK_CHECK_EVERY  soak: frames between the checks against brute force [1000]
  SOAK_RSS_SLACK_KB  soak: how far the peak RSS may grow past its value after the first 1%
                 of frames, KB [2048]
  SOAK_DRIFT     soak: the last 1% of frames' median time per frame may be at most this times
                 the first 1%'s [2]
  TEST_LIMIT     seconds per unit-suite run before it counts as hung [300]
  TEST_ARGS      options for the unit-suite runs, e.g. TEST_ARGS="--filter 'sprite/*'" [empty]
  PREFIX         where install puts collide (made absolute) [/usr/local]
  DESTDIR        a staging folder in front of PREFIX, for packaging [empty]
endef

# (Evaluated only when make help runs.)
FUZZ_JOBS_DEFAULT = $(shell nproc)
help:
	$(info $(HELP_TEXT))
	@:

# Nothing may be mounted under build/ (scripts/check-bare-debian.sh mounts /proc, /sys and /dev
# in its root while it runs); rm never crosses into another file system anyway.
NOT_MOUNTED = @! grep -q ' $(CURDIR)/build/' /proc/mounts 2>/dev/null || \
  { echo "clean: file systems are mounted under build/ (a bare-Debian check running?)"; exit 1; }
clean:
	$(NOT_MOUNTED)
	rm -rf --one-file-system build/release build/test build/asan build/fuzz build/selftest build/seeds build/cfl \
	  build/fuzz-failure-check \
	  build/install-check build/compare-0 build/compare-1 $(O)

# Also what fuzzing and benchmarking left: crashes, new corpus entries, quick and filtered runs.
distclean: clean
	rm -rf --one-file-system build fuzz/artifacts fuzz/corpus-local results/*/partial

# (Only the dependency files of this build's own user files: one left by another
# USER_KERNELS list may name a file that is not there.)
-include $(CORE_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(USER_OBJ:.o=.d) $(wildcard $(O)/obj/fuzz/*.d $(O)/obj/fuzz/*/*.d \
  $(O)/obj/bench/*.d $(O)/obj/bench/peers/*.d $(O)/obj/tools/soak/*.d)
