# collide: Fuzzing (included by the Makefile at this point: its variables come first).

# The fuzzers of FUZZ_TARGETS (default: all), after the variables are checked.
fuzz-build: $(DEPS_STAMP)
	@bash scripts/fuzz/fuzz.sh check $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory O=build/fuzz CC=$(FUZZ_CC) SANITIZE=fuzz \
	  $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

# FUZZ_SECONDS per target (wall clock, default 30), FUZZ_JOBS processes (default: all cores),
# FUZZ_TARGETS (default: all); new corpus entries are kept in fuzz/corpus-local/. The first
# disagreement stops the run: its input is minimized (FUZZ_MINIMIZE_SECONDS, default 15), kept
# in fuzz/artifacts/<target>/ and reported with the command that reproduces it (fuzz-repro).
FUZZ_ENV = FUZZ_O=build/fuzz USER_KERNELS='$(USER_KERNELS)' USER_CFLAGS='$(USER_CFLAGS)' \
  $(if $(filter command line environment,$(origin FUZZ_CC)),FUZZ_CC='$(FUZZ_CC)')
#
# SCENE=files (docs/scenes.md): seed inputs made from the scene files' boxes
# (scripts/fuzz/scene-seeds.py: windows and samples within the targets' limits, the frames as
# the cache's moves) are written to build/fuzz/scene-corpus/<target>/, which the run reads
# beside the committed corpus (fuzz/corpus/ is left as it is); without FUZZ_TARGETS on the
# command line only the targets they seed run: broadphase, cache and parallel. The built-in real
# scenes (mk/real-scenes.mk: meshes and a game level) seed every run, make fuzz and fuzz-brief
# alike, so the fuzzers always see their shapes (boxes touching along shared vertices).
SCENE_FUZZ_TARGETS := broadphase cache parallel
SCENE_CORPUS := build/fuzz/scene-corpus
FUZZ_RUN_TARGETS = $(if $(and $(strip $(SCENE)),$(filter-out command line environment,$(origin \
  FUZZ_TARGETS))),$(SCENE_FUZZ_TARGETS),$(FUZZ_TARGETS))
# The seeds of the real scenes and SCENE's files (a text file is converted by collide-scene).
fuzz-scene-seeds: $(REAL_SCENE_FILES)
	@rm -rf $(SCENE_CORPUS)
	$(if $(strip $(SCENE)),@$(MAKE) --no-print-directory O=build/release build/release/collide-scene)
	@$(PYTHON) scripts/fuzz/scene-seeds.py --out $(SCENE_CORPUS) \
	  $(if $(strip $(SCENE)),--tool build/release/collide-scene) $(REAL_SCENE_FILES) $(if $(strip $(SCENE)),--yours $(SCENE))
.PHONY: fuzz-scene-seeds
fuzz:
	@bash scripts/fuzz/fuzz.sh check $(FUZZ_RUN_TARGETS)
	@$(MAKE) --no-print-directory fuzz-build FUZZ_TARGETS='$(FUZZ_RUN_TARGETS)'
	@$(MAKE) --no-print-directory fuzz-scene-seeds
	@$(FUZZ_ENV) FUZZ_SEED_CORPUS=$(SCENE_CORPUS) bash scripts/fuzz/fuzz.sh run $(FUZZ_RUN_TARGETS)

# Part of make test: about 20 seconds per target, one process, no disagreement allowed.
fuzz-brief:
	@FUZZ_SECONDS=$${FUZZ_BRIEF_SECONDS:-20} bash scripts/fuzz/fuzz.sh check $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory fuzz-build
	@$(MAKE) --no-print-directory fuzz-scene-seeds SCENE=
	@$(FUZZ_ENV) FUZZ_SEED_CORPUS=$(SCENE_CORPUS) FUZZ_SECONDS=$${FUZZ_BRIEF_SECONDS:-20} bash \
	  scripts/fuzz/fuzz.sh brief $(FUZZ_TARGETS)

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
	@found='$(filter $(ALL_FUZZ_TARGETS),$(notdir $(patsubst %/,%,$(dir $(INPUT)))))'; \
	  [ -z "$$found" ] || [ "$$found" = '$(REPRO_TARGET)' ] || printf '%s\n' \
	  "fuzz-repro: warning: $(INPUT) is in the folder of target $$found, replayed here by" \
	  "  $(REPRO_TARGET), which reads its bytes another way: the verdict below says nothing of" \
	  "  $$found (FUZZ_TARGETS=$$found replays it as found)" >&2
	@bash scripts/fuzz/fuzz.sh check $(REPRO_TARGET)
	@$(MAKE) --no-print-directory fuzz-build FUZZ_TARGETS=$(REPRO_TARGET)
	@$(FUZZ_ENV) bash scripts/fuzz/fuzz.sh repro $(REPRO_TARGET) '$(INPUT)'

# The failure path as a user meets it: make fuzz with a wrong user backend and a wrong user
# broadphase, checked for the report, the kept input and a reproduce command that fails.
fuzz-failure-check:
	@bash scripts/fuzz/fuzz-failure-check.sh

# Executions per second of each target (FUZZ_TARGETS) from its committed corpus, alone,
# FUZZ_SPEED_SECONDS each (default 10): the table docs/fuzzing-runs.md keeps, with the machine.
fuzz-speed: fuzz-build
	@bash scripts/fuzz/fuzz-speed.sh $(FUZZ_TARGETS)

# Seeded bugs: each must be found within 60 seconds.
fuzz-selftest: fuzz-build
	@bash scripts/fuzz/fuzz-selftest.sh

# Mutation testing: MUTANTS single-token mutants of the kernels, broadphases, movement and
# simulations, each fuzzed MUTANT_SECONDS with the corpus; kill rate, times, survivors as diffs
# (build/mutants/report.md). Equivalent mutants: fuzz/mutants-equivalent.txt.
fuzz-mutants: fuzz-build
	@$(PYTHON) scripts/fuzz/fuzz-mutants.py

# Fold fuzz/corpus-local/ into the committed corpora: the inputs that reach new edges.
fuzz-merge: fuzz-build
	@bash scripts/fuzz/fuzz.sh merge $(FUZZ_TARGETS)

# ClusterFuzzLite's build.sh, run locally with the variables OSS-Fuzz sets.
fuzz-cfl-check: fuzz-build
	@bash scripts/fuzz/cfl-check.sh

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
