# collide: Benchmark runs, the size of the committed results, the soak test (included by the Makefile at this point: its variables come first).

# BENCH=quick (<= 2 min on 2 cores), default (<= 10 min) or full (everything); BENCH_ARGS for
# extra --benchmark_* options (e.g. --benchmark_filter=aabb2). Each run is kept xz-compressed
# (<name>.json.xz). A complete default or full run goes to results/<machine>/ and regenerates the
# summary results/REPORT.md, each machine's results/<machine>/REPORT.md and the SVG plots under
# results/plots/ (scripts/bench/report); other runs write their own report under
# results/<machine>/partial/.
#
# Scene files (docs/scenes.md, "Benchmarks on your scenes"): BENCH_SCENE_FILES, the built-in
# real scenes (mk/real-scenes.mk: meshes and a level converted from Debian packages) that the
# default and full suites take, then SCENE, yours ("a.scene b.scene"), each passed as
# --collide_scene=FILE. A run with SCENE is partial (its rows name files the repository does
# not have); with SCENE and without BENCH on the command line, only your files' rows run
# (--collide_scene_only), without the real scenes.
SCENE ?=
BENCH_SCENE_ONLY = $(if $(strip $(SCENE)),$(if $(filter command line environment,$(origin BENCH)),,yes))
BENCH_SCENE_FILES ?= $(if $(BENCH_SCENE_ONLY),,$(if $(filter default full,$(BENCH)),$(REAL_SCENE_FILES)))
BENCH_SCENE_ARGS = $(foreach f,$(BENCH_SCENE_FILES) $(SCENE),--collide_scene=$(f)) \
  $(if $(BENCH_SCENE_ONLY),--collide_scene_only)
bench: $(DEPS_STAMP) $(BENCH_SCENE_FILES)
	@$(MAKE) --no-print-directory O=build/release build/release/collide-bench
	@COLLIDE_BUILTIN_SCENES='$(strip $(BENCH_SCENE_FILES))' bash scripts/bench/bench.sh \
	  build/release/collide-bench $(BENCH) $(BENCH_SCENE_ARGS) $(BENCH_ARGS)

# The incremental cache over a long run (tools/soak/soak.c, docs/broadphase.md, "Soak test"): SOAK_FRAMES
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
# two runs at once, a two-machine report, scripts/bench/compare.py's warnings (scripts/check/check-bench-errors.sh).
bench-check: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory O=build/test build/test/collide-bench
	@bash scripts/check/check-bench-errors.sh build/test

# Build choices priced in time and in answers (scripts/bench/bench-choices.py): the default list of
# choices (or BENCH_CHOICES='choice; choice', each make variables) built in build/choices/, every
# family's headline rows timed in alternating rounds, each digest compared with the reference's;
# writes results/<machine>/choices/, which the report shows. About 10 minutes here.
.PHONY: bench-choices
bench-choices: $(DEPS_STAMP)
	@$(PYTHON) scripts/bench/bench-choices.py

# The committed results stay small enough to clone (scripts/check/results-check.py): fails,
# naming the file and its size, when a file under results/ that git tracks (or would, once
# added) is over 512 KB, results/REPORT.md (the summary) over 60 KB, or the newest commit that
# added a run grows a clone by more than 400 KB (its thin pack over its parent). Its self-test
# comes first: made-up oversized files and run commits in a throwaway git repository must fail
# it. Part of make test.
.PHONY: results-check
results-check:
	@$(PYTHON) scripts/check/results-check.py --self-test
	@$(PYTHON) scripts/check/results-check.py
