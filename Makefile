# collide — one entry point. `make` builds the library, `make test` runs the unit suite
# (plain and under ASan+UBSan), `make bench` runs the benchmarks. See README.md and docs/.
#
# `make help` lists the targets and every variable a user can set, with their defaults (its
# text is near the end of this file: keep it true when a target or variable changes).

include mk/vars.mk

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
REQUIRED_FLAGS := -std=c11 -pthread -ffp-contract=off -fno-fast-math $(PIC_FLAGS) -Icore/include -Icore/src \
  -I$(O)/gen
# Every float operation rounds to float: gcc's C11 mode on s390x evaluates float arithmetic in
# double (FLT_EVAL_METHOD 1, glibc's float_t there), so the scalar reference rounded once per
# expression there while the vector lanes round per operation. -fexcess-precision=fast turns
# that off (gcc only; clang has no excess precision on these targets and refuses the flag).
# core/src/backend.h asserts FLT_EVAL_METHOD == 0. The compiler is asked with the build's own
# flags (i686's -msse2 -mfpmath=sse make the method 0). x87 maths (i386's default,
# -mfpmath=387) keeps 80-bit intermediates whatever the flags: refused here, naming the fix
# (docs/determinism.md). make clean and make help still run.
# WebAssembly (CC="clang-14 --target=wasm32-wasi", AR=llvm-ar-14): Debian's wasi-libc has no
# threads (-pthread would need a threaded libc and shared memory: the pool then runs on the
# calling thread alone), no position-independent code and no shared library.
MACHINE := $(shell $(CC) -dumpmachine)
ifneq ($(filter wasm32-%,$(MACHINE)),)
WASM := 1
REQUIRED_FLAGS := $(filter-out -pthread $(PIC_FLAGS),$(REQUIRED_FLAGS))
endif
flt_eval = $(shell echo __FLT_EVAL_METHOD__ | $(CC) $(CFLAGS) $(CHOICE_CFLAGS) -std=c11 $(1) -E -P -x c - 2>/dev/null)
FLT_EVAL := $(call flt_eval)
ifneq ($(filter-out 0,$(FLT_EVAL)),)
ifeq ($(call flt_eval,-fexcess-precision=fast),0)
REQUIRED_FLAGS += -fexcess-precision=fast
else ifneq ($(filter-out clean distclean help,$(or $(MAKECMDGOALS),all)),)
$(error $(CC) evaluates float arithmetic wider than float with these flags (FLT_EVAL_METHOD $(FLT_EVAL), CFLAGS=$(strip $(CFLAGS) $(CHOICE_CFLAGS))): $(if $(filter i386-% i486-% i586-% i686-% x86_64-%,$(MACHINE)),x87 maths keeps 80-bit intermediates and rounds them to float only when stored,and no flag makes every float operation round to float) -- collide's bit-exact contract needs each operation rounded to float (docs/determinism.md, "x87"). $(if $(filter i386-% i486-% i586-% i686-% x86_64-%,$(MACHINE)),Build with SSE2 maths: add -msse2 -mfpmath=sse to CFLAGS (make CC=$(CC) CFLAGS='-O2 -msse2 -mfpmath=sse'; SSE2: every x86 since the Pentium 4; make cross-test ARCH=i386 does),Choose flags that make __FLT_EVAL_METHOD__ 0))
endif
endif
# The scalar backend must stay scalar: gcc 12 vectorizes at -O2 (DESIGN.md 3). Only scalar.c
# gets it; the front ends and broadphases around the kernels may vectorize.
SCALAR_FLAGS := -fno-tree-vectorize
# The sanitizers of SANITIZE=1 (FUZZ_SANITIZERS below: the fuzzers'); scripts/check/cross-test.sh leaves
# out those that cannot run under qemu-user.
SANITIZERS ?= address,undefined,float-divide-by-zero,float-cast-overflow
SANITIZE_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=$(SANITIZERS) -fno-sanitize-recover=all
# SANITIZE=thread: ThreadSanitizer (make tsan, build/tsan), which no other sanitizer joins.
TSAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=thread

# Flags that change floating-point results: refused in CFLAGS, where the required flags after
# them would undo some (-ffp-contract=off) and not others. A compared variant takes them in
# CHOICE_CFLAGS, which comes after the required flags (scripts/bench/choice.py moves them there for
# scripts/bench/compare.py, make fuzz-choice and make bench-choices); never in the project's own
# reference folders, whose builds the tests and committed figures use.
# Allowed in CFLAGS: -fno-trapping-math, -frounding-math, -fsignaling-nans and -fno-math-errno
# change no value collide computes (only whether FP exceptions and errno may be observed, which
# collide never reads), and -march=/-mfma/-O3 cannot contract with -ffp-contract=off after them.
FP_BREAKERS := %fast-math -Ofast -ffp-contract=fast -ffp-contract=on -funsafe-math-optimizations \
  -fassociative-math -freciprocal-math -ffinite-math-only -fno-signed-zeros -fapprox-func \
  -fcx-limited-range
FAST_MATH_FLAGS := $(filter-out -fno-fast-math,$(filter $(FP_BREAKERS),$(CFLAGS)))
ifneq ($(FAST_MATH_FLAGS),)
$(error CFLAGS contains $(FAST_MATH_FLAGS): these flags change results, so collide's bit-exact contract (DESIGN.md 3) keeps them out of the build's own flags, and the -ffp-contract=off -fno-fast-math the build adds after CFLAGS would silently undo some of them. A compared variant takes them in CHOICE_CFLAGS, after the required flags, in a folder of its own: scripts/bench/compare.py --build 'CFLAGS+=...' does that for you (so do make fuzz-choice CHOICE=... and make bench-choices))
endif
# CHOICE_CFLAGS: a compared variant's flags, after the required ones (so that -ffp-contract=fast,
# -ffast-math, -Ofast, -march=native take effect); in BUILD_ID (O/.flags), so changing them
# rebuilds. CHOICE_LABEL names the build for whoever records it.
CHOICE_CFLAGS ?=
# SIMDE_NATIVE=1: a variant whose emulated twins (<isa>-emu) are built without SIMDE_NO_NATIVE,
# so that SIMDe maps them to the target's own vectors (SSE2 on x86, NEON on ARM, VSX on POWER,
# WebAssembly SIMD with -msimd128): the portable C a port without a hand-written backend would
# get, priced in time (scripts/bench/compare.py --build 'SIMDE_NATIVE=1') and in answers (make
# fuzz-choice CHOICE='SIMDE_NATIVE=1', make cross-test ARCH=... SIMDE_NATIVE=1). Not the
# reference: SIMDe's native forms are not all exact (docs/determinism.md).
SIMDE_NATIVE ?=
VARIANT := $(strip $(CHOICE_CFLAGS) $(if $(filter-out 0,$(SIMDE_NATIVE)),SIMDE_NATIVE=1))
REFERENCE_FOLDERS := build/release build/test build/asan build/tsan build/fuzz build/coverage
# (make cross-test, help and clean build nothing in O: cross-test gives the variant its own folder.)
ifneq ($(VARIANT),)
ifneq ($(filter-out cross-test help clean distclean,$(or $(MAKECMDGOALS),all)),)
ifneq ($(filter $(abspath $(REFERENCE_FOLDERS)),$(abspath $(O))),)
$(error $(if $(strip $(CHOICE_CFLAGS)),CHOICE_CFLAGS,SIMDE_NATIVE) is for a compared variant's own build folder, not $(O): the reference builds (and the figures committed from them) stay strict; use another O, e.g. O=build/mine)
endif
endif
endif
CHOICE_LABEL := $(if $(VARIANT),not the reference: $(VARIANT),reference)

# Fuzzing builds (clang only): the library and targets carry libFuzzer's coverage hooks.
FUZZ_CC ?= $(CLANG)
FUZZ_SANITIZERS ?= address,undefined,float-divide-by-zero
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,$(FUZZ_SANITIZERS) \
  -fno-sanitize-recover=all
# Coverage builds (make fuzz-coverage, build/coverage; mk/fuzz-coverage.mk): the same targets
# with clang's source-based coverage (their runs write profiles, llvm-cov maps them to lines
# and branches) and libFuzzer's hooks, so that they can fuzz on; no sanitizer (none changes a
# path the library takes, and each slows every input).
COVERAGE_FLAGS := -O1 -g -fno-omit-frame-pointer -fprofile-instr-generate -fcoverage-mapping \
  -fsanitize=fuzzer-no-link

# The library's integer compares are loop bounds and sizes: tracing them for libFuzzer's
# compare feedback costs the broadphase and simulation targets half their speed and finds
# nothing the targets' own traced compares do not (the kernels decide on float compares,
# which are not traced). Fuzz targets keep it.
LIB_FUZZ_FLAGS := $(if $(filter fuzz coverage,$(SANITIZE)),-fno-sanitize-coverage=trace-cmp)

# The kept structures' own checks after every change (core/src/validate.h): on in the unit
# tests' build (build/test), the sanitizer and fuzzing builds; off in the release library and
# the installed copy, whose object code they leave unchanged, and in the coverage build, which
# measures that code (the checks are judges, as the exact oracles are: docs/fuzzing.md).
# VALIDATE=1 or 0 overrides.
VALIDATE ?= $(if $(filter-out coverage,$(SANITIZE))$(filter build/test,$(O)),1,0)
VALIDATE_FLAGS = $(if $(filter 1,$(VALIDATE)),-DCOL_VALIDATE)

ifeq ($(SANITIZE),1)
ALL_CFLAGS = $(CFLAGS) $(SANITIZE_FLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS) $(CHOICE_CFLAGS)
LDFLAGS_EXTRA = -fsanitize=$(SANITIZERS)
# A peer library's own leaks (bench/peers/lsan.supp says which and why) do not fail the run.
export LSAN_OPTIONS := $(if $(LSAN_OPTIONS),$(LSAN_OPTIONS):)suppressions=$(CURDIR)/bench/peers/lsan.supp
else ifeq ($(SANITIZE),thread)
ALL_CFLAGS = $(CFLAGS) $(TSAN_FLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS) $(CHOICE_CFLAGS)
LDFLAGS_EXTRA = -fsanitize=thread
else ifeq ($(SANITIZE),fuzz)
ALL_CFLAGS = $(CFLAGS) $(FUZZ_FLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS) -Ifuzz $(CHOICE_CFLAGS)
LDFLAGS_EXTRA = -fsanitize=fuzzer,$(FUZZ_SANITIZERS)
else ifeq ($(SANITIZE),coverage)
ALL_CFLAGS = $(CFLAGS) $(COVERAGE_FLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS) -Ifuzz $(CHOICE_CFLAGS)
LDFLAGS_EXTRA = -fsanitize=fuzzer -fprofile-instr-generate
else
ALL_CFLAGS = $(CFLAGS) $(REQUIRED_FLAGS) $(VALIDATE_FLAGS) $(CHOICE_CFLAGS)
LDFLAGS_EXTRA =
endif

CXX_DEFAULT := g++
ifeq ($(origin CXX),default)
CXX := $(if $(findstring clang,$(CC)),$(subst clang,clang++,$(CC)),g++)
endif
CXXFLAGS ?= -O2 -g -Wall -Wextra -Werror
BENCH ?= default

# The native packages (scripts/build/install-deps.sh), installed before the first build; not for
# a cross compiler ($(CC) -dumpmachine names another architecture than uname -m): make
# cross-test installs what a target needs (install-deps.sh cross-ARCH).
DEPS_STAMP := $(if $(filter $(shell uname -m)-%,$(MACHINE)),build/.deps-installed)
LIB := $(O)/libcollide.a
# The release's version; the shared library's soname carries its first number.
VERSION := 0.1.0
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
SONAME := libcollide.so.$(SOVERSION)
SHLIB := $(O)/libcollide.so.$(VERSION)
TESTBIN := $(O)/collide-tests

CORE_SRC := $(wildcard core/src/*.c core/src/broadphase/*.c core/src/broadphase/*/*.c \
  core/src/parallel/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/obj/%.o)

# SIMD backends: each ISA file is built natively with its own flags only (on its own
# architecture), and again as an emulated twin with SIMDe's portable code, everywhere, with
# -DCOL_ISA=<its name>. The files, their flags and the lists the registry, CPU tests and unit
# tests include (ISA_LIST_H) come from the collide-isa line at the top of each
# (scripts/build/isa-list.sh): adding a backend is adding its file.
ISA_LIST_H := $(O)/gen/isa_list.h
NATIVE_ISA_SRC := $(shell bash scripts/build/isa-list.sh native $(MACHINE))
ISA_SRC := $(shell bash scripts/build/isa-list.sh emulated)
$(foreach f,$(sort $(NATIVE_ISA_SRC) $(ISA_SRC)),\
  $(eval ISA_FLAGS_$(basename $(notdir $(f))) := $(shell bash scripts/build/isa-list.sh flags $(f))))
# -Wno-psabi: without -mavx, clang warns that 256/512-bit vector arguments change the ABI. The
# vectors only pass between static functions of one file; the backend table's kernels take
# pointers and scalars, so no ABI crosses a file boundary.
EMU_FLAGS := $(if $(filter SIMDE_NATIVE=1,$(VARIANT)),,-DSIMDE_NO_NATIVE) -DCOL_EMULATED -Wno-psabi
# clang for wasm32 cannot honour SIMDe's vectorize pragmas in the NEON twin (-Wpass-failed).
EMU_FLAGS += $(if $(WASM),-Wno-pass-failed)
CORE_OBJ += $(NATIVE_ISA_SRC:%.c=$(O)/obj/%.o) $(ISA_SRC:%.c=$(O)/obj/%-emu.o)
TEST_SRC := $(wildcard core/tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(O)/obj/%.o)

# Your own kernels (docs/user-kernels.md): USER_KERNELS="a.c b.c", C files
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
# The exact oracles (GMP) of the unit tests, fuzzers and sweep study: segment against sphere
# and against box; in fuzzing builds they are left out of libFuzzer's coverage (they are the
# judges, not the subject).
HARNESS_OBJ := $(O)/obj/harness/sweep_exact.o $(O)/obj/harness/slab_exact.o
HARNESS_LIBS := -lgmp
$(HARNESS_OBJ): $(O)/obj/harness/%.o: harness/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(HARNESS_INC) $(if $(filter fuzz coverage,$(SANITIZE)),-fno-sanitize=fuzzer-no-link) -MMD -MP -c $< -o $@

# The generated caller, rewritten only when the list changes (then every kernel object is
# rebuilt: its place in the list names its registration function); the user flags likewise.
$(USER_O)/user/register.c: FORCE
	@mkdir -p $(@D)
	@bash scripts/build/user-register.sh $(USER_FILES) > $@.tmp.$$$$; cmp -s $@.tmp.$$$$ $@ || mv $@.tmp.$$$$ $@; rm -f $@.tmp.$$$$
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
ALL_FUZZ_TARGETS := $(shell bash scripts/fuzz/fuzz-targets.sh)
FUZZ_LINK_FLAGS := $(shell bash scripts/fuzz/fuzz-targets.sh link-flags)
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

.PHONY: all lib test tsan tsan-selftest check user-check check-user peer-check check-env tasks-example replay bench-smoke bench-check deps bench fuzz fuzz-build fuzz-brief fuzz-selftest \
  fuzz-repro fuzz-failure-check \
  fuzz-merge fuzz-mutants fuzz-speed fuzz-cfl-check seeds report soak soak-selftest clean distclean format install uninstall install-check \
  help
.DEFAULT_GOAL := all

all: lib
lib: $(LIB) $(if $(WASM),,$(SHLIB))

$(LIB): $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library: the same objects, its soname carrying the major version, exporting only
# the public col_ API (scripts/build/libcollide.map). -z defs: every symbol it needs is named (-lm);
# sanitized builds leave their runtime to the program, so they skip that check.
$(SHLIB): $(CORE_OBJ) scripts/build/libcollide.map
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=scripts/build/libcollide.map \
	  $(if $(SANITIZE),,-Wl,-z,defs) $(CORE_OBJ) -lm -o $@

# The ISA lists for this target, rewritten only when they change (an ISA file added, removed or
# its collide-isa line edited): the objects that include them are then rebuilt.
# A temporary per make process: two makes on one build folder must not clobber each other.
$(ISA_LIST_H): FORCE
	@mkdir -p $(@D)
	@t=$@.tmp.$$$$; bash scripts/build/isa-list.sh header $(MACHINE) > $$t || { rm -f $$t; exit 1; }; \
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

$(O)/obj/fuzz/%.o: fuzz/%.c $(O)/.flags | $(ISA_LIST_H)
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

include mk/peers.mk
include mk/real-scenes.mk

$(TESTBIN): $(TEST_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $(TEST_OBJ) $(HARNESS_OBJ) $(USER_OBJ) $(LIB) -lcriterion \
	  $(HARNESS_LIBS) -lm -o $@

# Rebuild when the compiler, the flags or the set of installed peer engines change (the build
# folder records them: a first build made before install-deps ran is redone once they exist).
BUILD_ID = $(CC) $(ALL_CFLAGS) $(LIB_FUZZ_FLAGS) $(SCALAR_FLAGS) $(EMU_FLAGS) $(PEER_DEFS)$(if $(LDFLAGS), $(LDFLAGS))
$(O)/.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(BUILD_ID)' | cmp -s - $@ || echo '$(BUILD_ID)' > $@
FORCE:

$(DEPS_STAMP): scripts/build/install-deps.sh
	bash scripts/build/install-deps.sh
	@mkdir -p $(@D)
	@touch $@
deps: $(DEPS_STAMP)

include mk/test.mk
include mk/cross.mk

include mk/bench.mk

include mk/fuzz.mk
include mk/fuzz-coverage.mk

include mk/digest.mk

include mk/kernel-peers.mk

include mk/scene.mk

report: $(DEPS_STAMP)
	$(PYTHON) scripts/bench/report

format:
	clang-format -i core/include/*.h core/include/collide/*.h core/src/*.c core/src/*.h core/src/*/*.c core/src/*/*.h \
	  core/src/broadphase/*/*.c core/src/broadphase/*/*.h \
	  core/tests/*.c core/tests/*.h fuzz/*.c fuzz/*.h fuzz/*/*.c fuzz/*/*.h bench/*.c bench/*.h bench/*.cc bench/check/*.c \
	  bench/peers/*.c bench/peers/*.h bench/peers/*.cc bench/kernel-peers/*.c bench/kernel-peers/*.h bench/kernel-peers/*.cc harness/*.h harness/circle_exact.c examples/user-kernels/*.c \
	  tools/soak/*.c tools/tsan/*.c tools/tsan/criterion/*.h tools/digest/*.c tools/digest/*.h tools/choice/*.c \
	  tools/scene/*.c tools/real/*.c

include mk/install.mk

include mk/help.mk

# Nothing may be mounted under build/ (scripts/check/check-bare-debian.sh mounts /proc, /sys and /dev
# in its root while it runs); rm never crosses into another file system anyway.
NOT_MOUNTED = @! grep -q ' $(CURDIR)/build/' /proc/mounts 2>/dev/null || \
  { echo "clean: file systems are mounted under build/ (a bare-Debian check running?)"; exit 1; }
clean:
	$(NOT_MOUNTED)
	rm -rf --one-file-system build/release build/test build/asan build/tsan build/tsan-selftest build/selftest-tsan build/fuzz build/coverage build/selftest build/seeds build/cfl \
	  build/fuzz-failure-check \
	  build/install-check build/compare-0 build/compare-1 build/digest-selftest build/choice build/choices build/fuzz-choice $(O)

# Also what fuzzing and benchmarking left: crashes, new corpus entries, quick and filtered runs.
distclean: clean
	rm -rf --one-file-system build fuzz/artifacts fuzz/corpus-local results/*/partial

# (Only the dependency files of this build's own user files: one left by another
# USER_KERNELS list may name a file that is not there.)
-include $(wildcard $(O)/obj/tools/choice/*.d)
-include $(CORE_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(USER_OBJ:.o=.d) $(wildcard $(O)/obj/fuzz/*.d $(O)/obj/fuzz/*/*.d \
  $(O)/obj/bench/*.d $(O)/obj/bench/peers/*.d $(O)/obj/tools/soak/*.d $(O)/obj/tools/digest/*.d \
  $(O)/obj/tools/scene/*.d)
