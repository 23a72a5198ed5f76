# collide — one entry point. `make` builds the library, `make test` runs the unit suite
# (plain and under ASan+UBSan), `make bench` runs the benchmarks. See README.md.
#
# Overridable: CC, CFLAGS, O (build folder), PYTHON, COLLIDE_BACKEND (test one backend only).

ifeq ($(origin CC),default)
CC := gcc
endif
CFLAGS ?= -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
O ?= build/release
PYTHON ?= /usr/bin/python3

# Not negotiable: bit-exact SIMD needs IEEE semantics without contraction (DESIGN.md 3).
# -ffast-math or -Ofast in CFLAGS is refused below.
REQUIRED_FLAGS := -std=c11 -ffp-contract=off -fno-fast-math -Icore/include -Icore/src
# The scalar reference must stay scalar: gcc 12 vectorizes at -O2 (DESIGN.md 2).
SCALAR_FLAGS := -fno-tree-vectorize
SANITIZE_FLAGS := -O1 -g -fno-omit-frame-pointer \
  -fsanitize=address,undefined,float-divide-by-zero -fno-sanitize-recover=all

ifneq ($(filter -ffast-math -Ofast,$(CFLAGS)),)
$(error CFLAGS contains -ffast-math or -Ofast: collide's bit-exact contract forbids them)
endif

ifeq ($(SANITIZE),1)
ALL_CFLAGS = $(CFLAGS) $(SANITIZE_FLAGS) $(REQUIRED_FLAGS)
LDFLAGS_EXTRA = -fsanitize=address,undefined,float-divide-by-zero
else
ALL_CFLAGS = $(CFLAGS) $(REQUIRED_FLAGS)
LDFLAGS_EXTRA =
endif

DEPS_STAMP := build/.deps-installed
LIB := $(O)/libcollide.a
TESTBIN := $(O)/collide-tests

CORE_SRC := $(wildcard core/src/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/obj/%.o)

# SIMD backends: each ISA file is built natively with its own flags only (on its own
# architecture), and again as an emulated twin with SIMDe's portable code, everywhere.
MACHINE := $(shell $(CC) -dumpmachine)
ISA_FLAGS_sse2 := -msse2
ISA_FLAGS_avx2 := -mavx2
ISA_FLAGS_avx512 := -mavx512f
ISA_FLAGS_neon :=
# -Wno-psabi: without -mavx, clang warns that 256/512-bit vector arguments change the ABI. The
# vectors only pass between static functions of one file; the backend table's kernels take
# pointers and scalars, so no ABI crosses a file boundary.
EMU_FLAGS := -DSIMDE_NO_NATIVE -DCOL_EMULATED -Wno-psabi
ifneq ($(findstring x86_64,$(MACHINE))$(findstring i686,$(MACHINE)),)
NATIVE_ISA_SRC := core/src/x86/sse2.c core/src/x86/avx2.c core/src/x86/avx512.c
else ifneq ($(findstring aarch64,$(MACHINE)),)
NATIVE_ISA_SRC := core/src/arm/neon.c
else
NATIVE_ISA_SRC :=
endif
ISA_SRC := core/src/x86/sse2.c core/src/x86/avx2.c core/src/x86/avx512.c core/src/arm/neon.c
CORE_OBJ += $(NATIVE_ISA_SRC:%.c=$(O)/obj/%.o) $(ISA_SRC:%.c=$(O)/obj/%-emu.o)
TEST_SRC := $(wildcard core/tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(O)/obj/%.o)

.PHONY: all lib test check check-env deps bench fuzz report clean format
.DEFAULT_GOAL := all

all: lib
lib: $(LIB)

$(LIB): $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/obj/core/src/%.o: core/src/%.c $(O)/.flags
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(SCALAR_FLAGS) -MMD -MP -c $< -o $@

$(O)/obj/core/src/x86/%.o $(O)/obj/core/src/arm/%.o: core/src/*/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ISA_FLAGS_$*) -MMD -MP -c $< -o $@

$(O)/obj/core/src/x86/%-emu.o $(O)/obj/core/src/arm/%-emu.o: core/src/*/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(EMU_FLAGS) -MMD -MP -c $< -o $@

$(O)/obj/core/tests/%.o: core/tests/%.c $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -MMD -MP -c $< -o $@

$(TESTBIN): $(TEST_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(TEST_OBJ) $(LIB) -lcriterion -lm -o $@

# Rebuild when the compiler or flags change (the build folder records them).
$(O)/.flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(ALL_CFLAGS) $(SCALAR_FLAGS)' | cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS) $(SCALAR_FLAGS)' > $@
FORCE:

$(DEPS_STAMP): scripts/install-deps.sh
	bash scripts/install-deps.sh
	@mkdir -p $(@D)
	@touch $@
deps: $(DEPS_STAMP)

# The unit suite, once per backend: every supported one, or only $(COLLIDE_BACKEND).
check: $(TESTBIN)
	@set -e; \
	if [ -n "$$COLLIDE_BACKEND" ]; then backends="$$COLLIDE_BACKEND"; \
	else backends=$$($(TESTBIN) --list-backends); fi; \
	for b in $$backends; do \
	  echo "== $(TESTBIN) with COLLIDE_BACKEND=$$b"; \
	  COLLIDE_BACKEND=$$b $(TESTBIN) $(TEST_ARGS); \
	done
	@$(MAKE) --no-print-directory check-env O=$(O)

# A forced backend that does not exist must fail loudly, not fall back.
check-env: $(TESTBIN)
	@out=$$(COLLIDE_BACKEND=no-such-backend $(TESTBIN) 2>&1); rc=$$?; \
	if [ $$rc -eq 2 ] && echo "$$out" | grep -q 'COLLIDE_BACKEND="no-such-backend" is not a backend'; then \
	  echo "check-env: unknown COLLIDE_BACKEND rejected with exit 2: ok"; \
	else echo "check-env: FAILED (exit $$rc): $$out"; exit 1; fi

test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory check O=build/test
	@$(MAKE) --no-print-directory check O=build/asan SANITIZE=1
	@echo "make test: all suites passed (plain and ASan+UBSan)"

bench: $(DEPS_STAMP)
	@echo "make bench: no benchmarks yet (they arrive with the benchmark issue; see bench/README.md)"

fuzz:
	@echo "make fuzz: no fuzz targets yet (they arrive with the fuzzing issue; see fuzz/README.md)"

report:
	@echo "make report: no results yet (see results/README.md)"

format:
	clang-format -i core/include/*.h core/src/*.c core/src/*.h core/src/*/*.c core/src/*/*.h \
	  core/tests/*.c core/tests/*.h

clean:
	rm -rf build/release build/test build/asan $(O)

-include $(CORE_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
