# collide — one entry point. `make` builds the library, `make test` runs the unit suite
# (plain and under ASan+UBSan), `make bench` runs the benchmarks. See README.md.
#
# Overridable: CC, CFLAGS, O (build folder), PYTHON, COLLIDE_BACKEND (test one backend only),
# USER_KERNELS / USER_CFLAGS (your own kernels in every test, fuzzer and benchmark; README).

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
O ?= build/release
PYTHON ?= /usr/bin/python3

# Not negotiable: bit-exact SIMD needs IEEE semantics without contraction (DESIGN.md 3).
# Fast-math flags in CFLAGS (fast-math, or the O-level that implies it) are refused below.
# -fPIC: the static library can be linked into a user's shared library; without
# -fno-semantic-interposition gcc would stop inlining the library's own exported functions.
PIC_FLAGS ?= -fPIC -fno-semantic-interposition
REQUIRED_FLAGS := -std=c11 -ffp-contract=off -fno-fast-math $(PIC_FLAGS) -Icore/include -Icore/src
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
SANITIZE_FLAGS := -O1 -g -fno-omit-frame-pointer \
  -fsanitize=address,undefined,float-divide-by-zero,float-cast-overflow -fno-sanitize-recover=all

FAST_MATH_FLAGS := $(filter-out -fno-fast-math,$(filter %fast-math %Ofast,$(CFLAGS)))
ifneq ($(FAST_MATH_FLAGS),)
$(error CFLAGS contains $(FAST_MATH_FLAGS): collide's bit-exact contract forbids fast math)
endif

# Fuzzing builds (clang only): the library and targets carry libFuzzer's coverage hooks.
FUZZ_CC ?= $(CLANG)
FUZZ_SANITIZERS := address,undefined,float-divide-by-zero
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,$(FUZZ_SANITIZERS) \
  -fno-sanitize-recover=all

# The library's integer compares are loop bounds and sizes: tracing them for libFuzzer's
# compare feedback costs the broadphase and simulation targets half their speed and finds
# nothing the targets' own traced compares do not (the kernels decide on float compares,
# which are not traced). Fuzz targets keep it.
LIB_FUZZ_FLAGS := $(if $(filter fuzz,$(SANITIZE)),-fno-sanitize-coverage=trace-cmp)

ifeq ($(SANITIZE),1)
ALL_CFLAGS = $(CFLAGS) $(SANITIZE_FLAGS) $(REQUIRED_FLAGS)
LDFLAGS_EXTRA = -fsanitize=address,undefined,float-divide-by-zero,float-cast-overflow
else ifeq ($(SANITIZE),fuzz)
ALL_CFLAGS = $(CFLAGS) $(FUZZ_FLAGS) $(REQUIRED_FLAGS) -Ifuzz
LDFLAGS_EXTRA = -fsanitize=fuzzer,$(FUZZ_SANITIZERS)
else
ALL_CFLAGS = $(CFLAGS) $(REQUIRED_FLAGS)
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
TESTBIN := $(O)/collide-tests

CORE_SRC := $(wildcard core/src/*.c core/src/broadphase/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/obj/%.o)

# SIMD backends: each ISA file is built natively with its own flags only (on its own
# architecture), and again as an emulated twin with SIMDe's portable code, everywhere. The files
# and their flags come from the collide-isa line at the top of each (scripts/isa-list.sh).
MACHINE := $(shell $(CC) -dumpmachine)
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
# A file's object is named after its absolute path (so a dependency file never names a source
# of another list).
user_obj = $(O)/obj/user/$(subst /,_,$(abspath $(word $(1),$(USER_FILES)))).o
USER_OBJ := $(O)/obj/user/register.o $(foreach i,$(USER_IDS),$(call user_obj,$(i)))
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
$(O)/user/register.c: FORCE
	@mkdir -p $(@D)
	@bash scripts/user-register.sh $(USER_FILES) > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
$(O)/user/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(USER_CFLAGS)' | cmp -s - $@ || echo '$(USER_CFLAGS)' > $@

$(O)/obj/user/register.o: $(O)/user/register.c harness/user_kernels.h $(O)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -c $< -o $@

define USER_KERNEL_RULE
$(call user_obj,$(1)): $(word $(1),$(USER_FILES)) $(O)/user/register.c $(O)/user/flags \
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
  $(foreach t,$(ALL_FUZZ_TARGETS),$(call fuzz_parts,$(t)))
FUZZ_SECONDS ?= 30
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
export FUZZ_SECONDS FUZZ_JOBS

.PHONY: all lib test check user-check check-user peer-check check-env replay bench-smoke deps bench fuzz fuzz-build fuzz-brief fuzz-selftest \
  fuzz-merge fuzz-mutants fuzz-cfl-check seeds report clean distclean format install uninstall install-check
.DEFAULT_GOAL := all

all: lib
lib: $(LIB)

$(LIB): $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/obj/core/src/%.o: core/src/%.c $(O)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(if $(filter scalar,$*),$(SCALAR_FLAGS)) -MMD -MP -c $< -o $@

$(O)/obj/core/src/x86/%.o $(O)/obj/core/src/arm/%.o: core/src/*/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(ISA_FLAGS_$*) -MMD -MP -c $< -o $@

$(O)/obj/core/src/x86/%-emu.o $(O)/obj/core/src/arm/%-emu.o: core/src/*/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(EMU_FLAGS) -MMD -MP -c $< -o $@

$(O)/obj/core/tests/%.o: core/tests/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -Wno-missing-prototypes -MMD -MP -c $< -o $@

$(O)/obj/fuzz/%.o: fuzz/%.c $(O)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) -Wno-missing-prototypes -MMD -MP -c $< -o $@

# (Second expansion: each target's own parts, found from the target's name.)
.SECONDEXPANSION:
$(O)/replay_%: $(O)/obj/fuzz/fuzz_%.o $$(call fuzz_parts,$$*) $(FUZZ_COMMON_OBJ) \
  $(O)/obj/fuzz/replay.o $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(FUZZ_LINK_FLAGS) $^ $(HARNESS_LIBS) -lm -o $@

$(O)/fuzz_%: $(O)/obj/fuzz/fuzz_%.o $$(call fuzz_parts,$$*) $(FUZZ_COMMON_OBJ) $(HARNESS_OBJ) \
  $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(FUZZ_LINK_FLAGS) $^ $(HARNESS_LIBS) -lm -o $@

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
	 } > $@.tmp; cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

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
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $^ $(PEER_LIBS) -lcriterion -lm -o $@

$(O)/obj/bench/gbench.o: bench/gbench.cc bench/gbench.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(if $(filter 1,$(SANITIZE)),$(SANITIZE_FLAGS)) -std=c++17 -c $< -o $@

$(BENCHBIN): $(BENCH_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $^ $(PEER_LIBS) $(HARNESS_LIBS) -lbenchmark -lpthread -lm -o $@

$(TESTBIN): $(TEST_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(TEST_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB) -lcriterion \
	  $(HARNESS_LIBS) -lm -o $@

# Rebuild when the compiler, the flags or the set of installed peer engines change (the build
# folder records them: a first build made before install-deps ran is redone once they exist).
BUILD_ID = $(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(SCALAR_FLAGS) $(PEER_DEFS)
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
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $^ -lbenchmark -lpthread -o $@

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
# (big-endian); cross-builds into build/cross-$(ARCH) (scripts/cross-test.sh).
.PHONY: cross-test
cross-test:
	@bash scripts/cross-test.sh $(ARCH)

test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory check O=build/test
	@$(MAKE) --no-print-directory check O=build/asan SANITIZE=1
	@$(MAKE) --no-print-directory fuzz-brief
	@$(MAKE) --no-print-directory user-check
	@$(MAKE) --no-print-directory install-check
	@echo "make test: all suites passed (unit + corpus replay, plain and ASan+UBSan; brief fuzzing;"\
	  "the user-kernel examples)"

# The shipped examples of user kernels (examples/user-kernels/) through the harness exactly as a
# user brings their own: unit suite on the user backends (ASan+UBSan), every corpus replayed
# with them, their benchmark rows, and brief fuzzing of the targets they take part in.
EXAMPLE_KERNELS := examples/user-kernels/plain_c.c examples/user-kernels/sorted_sweep.c
user-check: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory check-user O=build/asan SANITIZE=1 USER_KERNELS="$(EXAMPLE_KERNELS)"
	@$(MAKE) --no-print-directory fuzz-brief USER_KERNELS="$(EXAMPLE_KERNELS)" \
	  FUZZ_TARGETS="aabb mtd broadphase" FUZZ_BRIEF_SECONDS=10

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

fuzz-build: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory O=build/fuzz CC=$(FUZZ_CC) SANITIZE=fuzz \
	  $(ALL_FUZZ_TARGETS:%=build/fuzz/fuzz_%)

# FUZZ_SECONDS per target (default 30), FUZZ_JOBS processes (default: all cores), FUZZ_TARGETS
# (default: all); new corpus entries are kept in fuzz/corpus-local/, crashes go to
# fuzz/artifacts/ (the first one's report and reproduce command are printed).
fuzz: fuzz-build
	@bash scripts/fuzz.sh run $(FUZZ_TARGETS)

# Part of make test: about 20 seconds per target, one process, no disagreement allowed.
fuzz-brief: fuzz-build
	@FUZZ_SECONDS=$${FUZZ_BRIEF_SECONDS:-20} bash scripts/fuzz.sh brief $(FUZZ_TARGETS)

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

# Regenerate the hand-made seed inputs (fuzz/make_seeds.c) into fuzz/corpus/.
seeds: $(DEPS_STAMP) $(LIB) $(USER_OBJ)
	@mkdir -p build/seeds
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) fuzz/make_seeds.c fuzz/fuzz_common.c $(USER_OBJ) $(LIB) $(FUZZ_LINK_FLAGS) -lm \
	  -o build/seeds/make_seeds
	build/seeds/make_seeds fuzz/corpus

report: $(DEPS_STAMP)
	$(PYTHON) scripts/report.py

format:
	clang-format -i core/include/*.h core/include/collide/*.h core/src/*.c core/src/*.h core/src/*/*.c core/src/*/*.h \
	  core/tests/*.c core/tests/*.h fuzz/*.c fuzz/*.h bench/*.c bench/*.h bench/*.cc bench/check/*.c \
	  bench/peers/*.c bench/peers/*.h bench/peers/*.cc harness/*.h examples/user-kernels/*.c

# Use from another project: header, static library (-fPIC) and pkg-config file under PREFIX.
PREFIX ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0
install: lib
	install -d $(DESTDIR)$(PREFIX)/include/collide $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0644 core/include/collide.h $(DESTDIR)$(PREFIX)/include/collide.h
	install -m 0644 core/include/collide/*.h $(DESTDIR)$(PREFIX)/include/collide/
	install -m 0644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libcollide.a
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' scripts/collide.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/collide.pc
	chmod 0644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/collide.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/include/collide.h $(DESTDIR)$(PREFIX)/lib/libcollide.a \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/collide.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/collide

# The example of using collide from another project, built against an installed copy (in a
# scratch prefix) through pkg-config, as a user would, and run. Part of make test.
install-check:
	@rm -rf build/install-check
	@$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/build/install-check/prefix >/dev/null
	@cd core/examples/use-installed && PKG_CONFIG_PATH=$(CURDIR)/build/install-check/prefix/lib/pkgconfig \
	  $(MAKE) --no-print-directory -s OUT=$(CURDIR)/build/install-check
	@build/install-check/example > build/install-check/example.out
	@grep -q '^mtd (-32, 0) hit 1$$' build/install-check/example.out || \
	  { echo "install-check: FAILED:"; cat build/install-check/example.out; exit 1; }
	@$(CC) -shared -o build/install-check/libwhole.so -Wl,--whole-archive \
	  build/install-check/prefix/lib/libcollide.a -Wl,--no-whole-archive -lm || \
	  { echo "install-check: FAILED: libcollide.a cannot go into a shared library (-fPIC)"; exit 1; }
	@echo "install-check: example built with pkg-config against make install's copy, and the"\
	  "whole static library linked into a shared one: ok"

# Nothing may be mounted under build/ (scripts/check-bare-debian.sh mounts /proc, /sys and /dev
# in its root while it runs); rm never crosses into another file system anyway.
NOT_MOUNTED = @! grep -q ' $(CURDIR)/build/' /proc/mounts 2>/dev/null || \
  { echo "clean: file systems are mounted under build/ (a bare-Debian check running?)"; exit 1; }
clean:
	$(NOT_MOUNTED)
	rm -rf --one-file-system build/release build/test build/asan build/fuzz build/selftest build/seeds build/cfl \
	  build/install-check build/compare-0 build/compare-1 $(O)

# Also what fuzzing and benchmarking left: crashes, new corpus entries, quick and filtered runs.
distclean: clean
	rm -rf --one-file-system build fuzz/artifacts fuzz/corpus-local results/*/partial

-include $(CORE_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(wildcard $(O)/obj/fuzz/*.d $(O)/obj/bench/*.d \
  $(O)/obj/bench/peers/*.d $(O)/obj/user/*.d)
