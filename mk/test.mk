# collide: the test targets (make test and its steps; included by the Makefile after the build rules).

# The unit suite, once per backend: every supported one, or only $(COLLIDE_BACKEND). Each run
# has TEST_LIMIT seconds (it takes seconds; see scripts/check/run-tests.sh for why there is a limit).
# CHECK_TWINS=0 leaves out an emulated backend (<isa>-emu) whose native twin <isa> runs here:
# the same source on SIMDe's portable C. make test's ASan+UBSan pass does (it cost 30-45 s a
# backend); its plain pass and the corpus replay, under ASan too, still run every backend.
# CHECK_SKIP: backends left out of the unit suite (make test's ASan+UBSan pass leaves out
# autovec, the scalar reference's own source built with -O3 -march=x86-64-v3: the scalar
# backend's run covers its memory use). CHECK_DIGEST=0 leaves out the golden digest (make test's
# ASan+UBSan pass: the plain pass checks it on every backend; the replay under ASan reads the
# corpora, the inputs that probe the edges).
TEST_LIMIT ?= 300
CHECK_TWINS ?= 1
CHECK_SKIP ?=
CHECK_DIGEST ?= 1
check: $(TESTBIN)
	@set -e; \
	if [ -n "$$COLLIDE_BACKEND" ]; then backends="$$COLLIDE_BACKEND"; \
	else backends=$$($(TESTBIN) --list-backends); fi; \
	for b in $$backends; do \
	  native=$${b%-emu}; \
	  if [ "$(CHECK_TWINS)" = 0 ] && [ "$$native" != "$$b" ] && echo " "$$backends" " | grep -q " $$native "; then \
	    echo "== $(TESTBIN): $$b left out (CHECK_TWINS=0: its native twin $$native ran)"; continue; fi; \
	  if echo " $(CHECK_SKIP) " | grep -q " $$b "; then \
	    echo "== $(TESTBIN): $$b left out (CHECK_SKIP)"; continue; fi; \
	  echo "== $(TESTBIN) with COLLIDE_BACKEND=$$b"; \
	  COLLIDE_BACKEND=$$b bash scripts/check/run-tests.sh $(TEST_LIMIT) $(TESTBIN) $(TEST_ARGS); \
	done
	@$(MAKE) --no-print-directory peer-check O=$(O)
	@$(MAKE) --no-print-directory check-env O=$(O)
	@$(MAKE) --no-print-directory tasks-example O=$(O)
	@$(MAKE) --no-print-directory replay O=$(O)
	$(if $(filter 0,$(CHECK_DIGEST)),@echo "== digest-check left out (CHECK_DIGEST=0)",@$(MAKE) --no-print-directory digest-check O=$(O))
	@$(MAKE) --no-print-directory bench-smoke O=$(O)

# docs/parallel.md's example: an engine-style job system handed to collide, built against
# the library of O and run (it checks its pairs against the sequential call's).
$(O)/engine_tasks: examples/tasks/engine_tasks.c $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $< $(LIB) -lm -o $@
tasks-example: $(O)/engine_tasks
	@$(O)/engine_tasks

# The shim's own check: every gbench.h call, verified in the JSON it writes.
$(O)/gbench-check: $(O)/obj/bench/check/gbench_check.o $(O)/obj/bench/gbench.o
	$(CXX) $(CXXFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ -lbenchmark -lpthread -o $@

# Every benchmark once at the smallest size: it builds and runs (no timing is judged).
bench-smoke: $(BENCHBIN) $(O)/gbench-check
	@COLLIDE_BENCH_TOTAL=$$($(O)/gbench-check --benchmark_list_tests=true | wc -l) \
	  $(O)/gbench-check --benchmark_min_time=0.001 --benchmark_out=$(O)/gbench-check.json \
	  --benchmark_out_format=json > $(O)/gbench-check.log 2>&1 \
	  || { tail -n 20 $(O)/gbench-check.log; exit 1; }
	@$(PYTHON) scripts/check/check-gbench.py $(O)/gbench-check.json $(O)/gbench-check.log
	@COLLIDE_BENCH_SUITE=smoke $(BENCHBIN) --benchmark_min_time=0.001 > $(O)/bench-smoke.log 2>&1 \
	  || { tail -n 20 $(O)/bench-smoke.log; echo "bench-smoke: FAILED"; exit 1; }
	@if grep -q 'ERROR OCCURRED' $(O)/bench-smoke.log; then grep 'ERROR OCCURRED' $(O)/bench-smoke.log; exit 1; fi
	@echo "bench-smoke: $$(grep -c '/16 ' $(O)/bench-smoke.log) benchmarks ran once at the smallest size"

# ThreadSanitizer over the code that starts threads (build/tsan, SANITIZE=thread): the unit tests
# of TSAN_TESTS (the parallel and pool suites) and tools/tsan/test_concurrent.c (several callers at once on
# one pool and on the built-in one), run by tools/tsan/runner.c (Criterion cannot start under
# ThreadSanitizer: tools/tsan/criterion/criterion.h stands in for its header), and
# the parallel target's corpus replayed, whose inputs run the parallel sweep and prune on
# collide's pools of 1, 2 and 3 threads and the built-in one (one form an input, every form on
# one in sixteen). Any race reported fails it.
TSAN_TESTS ?= $(wildcard core/tests/test_parallel.c core/tests/test_parallel_errors.c core/tests/test_pool.c)
TSAN_TESTBIN := $(O)/collide-tsan-tests
TSAN_OPTIONS_RUN := TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 $$TSAN_OPTIONS"
$(O)/obj/tsan/%.o: core/tests/%.c $(O)/.flags | $(DEPS_STAMP) $(ISA_LIST_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itools/tsan $(HARNESS_INC) -Wno-missing-prototypes -MMD -MP -c $< -o $@
$(O)/obj/tsan/tools/%.o: tools/tsan/%.c tools/tsan/criterion/criterion.h $(O)/.flags | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itools/tsan $(HARNESS_INC) -Wno-missing-prototypes -MMD -MP -c $< -o $@
$(TSAN_TESTBIN): $(TSAN_TESTS:core/tests/%.c=$(O)/obj/tsan/%.o) $(O)/obj/tsan/guard.o \
  $(O)/obj/tsan/tools/runner.o $(O)/obj/tsan/tools/test_concurrent.o $(HARNESS_OBJ) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS_EXTRA) $(LDFLAGS) $^ $(HARNESS_LIBS) -lpthread -lm -o $@
tsan: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory O=build/tsan SANITIZE=thread build/tsan/collide-tsan-tests \
	  build/tsan/replay_parallel
	@$(TSAN_OPTIONS_RUN) build/tsan/collide-tsan-tests $(TSAN_FILTER)
	@$(TSAN_OPTIONS_RUN) build/tsan/replay_parallel fuzz/corpus/parallel
	@echo "tsan: no race reported (ThreadSanitizer, $(CC): the parallel unit tests, concurrent callers, the parallel target's corpus)"

# make tsan must fail on a seeded race with ThreadSanitizer's report (scripts/check/tsan-selftest.sh).
tsan-selftest: $(DEPS_STAMP)
	@bash scripts/check/tsan-selftest.sh

# Every corpus file through every target, on every backend (a disagreement aborts).
replay: $(REPLAYS)
	@set -e; for t in $(ALL_FUZZ_TARGETS); do $(O)/replay_$$t fuzz/corpus/$$t; done

# The peers' pair sets against our brute force (once: they do not use our backends).
peer-check: $(PEER_TESTBIN)
	@echo "== $(PEER_TESTBIN) (engines: $(or $(strip $(PEER_DEFS:-DCOL_PEER_%=%)),none))"
	@if [ -n "$(strip $(PEER_ABSENT))" ]; then echo "peer-check: not installed, not tested: $(PEER_ABSENT)"; fi
	@bash scripts/check/run-tests.sh $(TEST_LIMIT) $(PEER_TESTBIN) $(TEST_ARGS)

# A forced backend that does not exist must fail loudly, not fall back.
check-env: $(TESTBIN)
	@out=$$(COLLIDE_BACKEND=no-such-backend $(TESTBIN) 2>&1); rc=$$?; \
	if [ $$rc -eq 2 ] && echo "$$out" | grep -q 'COLLIDE_BACKEND="no-such-backend" is not a backend'; then \
	  echo "check-env: unknown COLLIDE_BACKEND rejected with exit 2: ok"; \
	else echo "check-env: FAILED (exit $$rc): $$out"; exit 1; fi

# The documentation: README.md and docs/*.md within their size limits, every command README.md
# shows (make targets and variables, scripts and their options) and every relative link
# (scripts/check/check-docs.py), after its self-test shows each kind of fault is reported.
docs-check: cross-doc-check
	@$(PYTHON) scripts/check/check-docs.py --self-test
	@$(PYTHON) scripts/check/check-docs.py
test: $(DEPS_STAMP) docs-check
.PHONY: docs-check

# With USER_KERNELS, every step runs the user's kernels: the unit suite on every backend (theirs
# included, plain and ASan+UBSan), the corpora, the benchmark smoke pass and brief fuzzing of
# every target; user-check (the shipped examples) is then left out. The last line names the user
# backends and broadphases that were checked, and from which files.
test: results-check
test: $(DEPS_STAMP)
	@mkdir -p build && : > build/test-times.txt
	@/usr/bin/python3 scripts/check/core-graph.py -q || { echo 'make test: core has a circle or an upward call (scripts/check/core-graph.py)' >&2; exit 1; }
	@bash scripts/fuzz/fuzz-selftest.sh --check && bash scripts/check/cross-selftest.sh --check && bash scripts/check/digest-selftest.sh --check
	@$(PYTHON) scripts/fuzz/fuzz-coverage.py --self-test && $(PYTHON) scripts/fuzz/fuzz-coverage.py doc-check
	$(call test_step,unit suite plain,$(MAKE) -j$(TEST_JOBS) --no-print-directory check O=build/test)
	$(call test_step,unit suite ASan+UBSan,$(MAKE) -j$(TEST_JOBS) --no-print-directory check O=build/asan SANITIZE=1 CHECK_TWINS=0 CHECK_SKIP=autovec CHECK_DIGEST=0)
	$(call test_step,brief fuzzing,$(MAKE) -j$(TEST_JOBS) --no-print-directory fuzz-brief FUZZ_BRIEF_SECONDS=$${FUZZ_BRIEF_SECONDS:-10})
	$(if $(USER_FILES),,$(call test_step,user kernels,$(MAKE) -j$(TEST_JOBS) --no-print-directory user-check))
	$(call test_step,installed copy,$(MAKE) --no-print-directory install-check)
	$(call test_step,benchmark errors,$(MAKE) -j$(TEST_JOBS) --no-print-directory bench-check)
	$(call test_step,newcomer,$(MAKE) --no-print-directory newcomer-check)
	@echo "make test: the steps' times:"; sed 's/^/  /' build/test-times.txt
	@$(call user_list,$(if $(USER_FILES),build/test,build/asan)); \
	echo "make test: all suites passed (unit + corpus replay, plain and ASan+UBSan; brief fuzzing;"\
	  "the installed copy; the benchmark harness's errors; the self-tests' seeded bugs still apply;"\
	  "the golden digest, every backend);"\
	  "user kernels checked: $$checked"\
	  "from $(or $(USER_FILES),the shipped examples $(EXAMPLE_KERNELS))"

# Builds within make test's steps: TEST_JOBS compiles at once (the CPUs; the steps themselves,
# and the tests within a step, still run one after the other).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# One step of make test, timed: $(1) its name, $(2) the command; the time is printed and kept
# in build/test-times.txt for the summary at the end.
test_step = @t0=$$(date +%s); $(2) || exit 1; s=$$(($$(date +%s) - t0)); \
  printf '%3d:%02d  %s\n' $$((s / 60)) $$((s % 60)) '$(1)' >> build/test-times.txt; \
  printf 'make test: %s: %d:%02d\n' '$(1)' $$((s / 60)) $$((s % 60))

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
	  FUZZ_TARGETS="$(USER_CHECK_TARGETS)" FUZZ_BRIEF_SECONDS=5
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
	  COLLIDE_BACKEND=$$b bash scripts/check/run-tests.sh $(TEST_LIMIT) $(TESTBIN) $(TEST_ARGS); \
	done
	@$(MAKE) --no-print-directory replay O=$(O)
	@$(MAKE) --no-print-directory digest-check O=$(O)
	@COLLIDE_BENCH_SUITE=smoke $(BENCHBIN) --benchmark_min_time=0.001 --benchmark_filter=user: \
	  > $(O)/bench-user.log 2>&1 || { tail -n 20 $(O)/bench-user.log; exit 1; }
	@rows=$$(grep -c '^\[.*user:' $(O)/bench-user.log || true); \
	if [ "$$rows" -eq 0 ] || grep -q 'ERROR OCCURRED' $(O)/bench-user.log; then \
	  echo "check-user: the user benchmark rows did not run:"; tail -n 20 $(O)/bench-user.log; exit 1; fi; \
	echo "check-user: $$rows benchmark rows of user kernels ran once"

# The real scenes (mk/real-scenes.mk): every algorithm and peer structure against brute force,
# both touch rules; each scene converted again to the same bytes; docs/real-scenes.md's table
# against the list and the counts. Not a step of make check: it takes 16 s of CPU in
# build/release (20-40 s wall on the shared 2-core machine; brute force on the largest mesh,
# under each rule), more in build/test and under ASan; a target of its own, for CI to run.
real-scenes-check: $(REAL_PAIRS_BIN) $(REAL_SCENE_FILES)
	@$(REAL_PAIRS_BIN) --summary $(REAL_SCENE_PAIRS) $(REAL_SCENE_FILES)
	@set -e; for s in $(REAL_SCENES); do \
	  $(PYTHON) $(REAL_SCENE_TOOL) convert $$s $(REAL_SCENE_DIR)/again/$$s.scene > /dev/null; \
	  cmp -s $(REAL_SCENE_DIR)/$$s.scene $(REAL_SCENE_DIR)/again/$$s.scene || \
	    { echo "real-scenes-check: $$s converted again differs from $(REAL_SCENE_DIR)/$$s.scene" >&2; exit 1; }; \
	done; echo "real-scenes-check: $(REAL_SCENES) converted again: the same bytes"
	@$(PYTHON) $(REAL_SCENE_TOOL) doc --check --pairs $(REAL_SCENE_PAIRS) $(REAL_SCENE_DOC)
