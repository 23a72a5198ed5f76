# collide: make help (included by the Makefile at this point: its variables come first).

# make help: the targets and every variable a user can set, with their defaults. The one place
# this text lives (README.md points here).
define HELP_TEXT
Usage: make [TARGET...] [VARIABLE=value...]      (README.md and docs/: how to use it; DESIGN.md: the design)

Targets
  all            (the default) build O/libcollide.a and O/libcollide.so.$(VERSION)
  test           everything, about 12 minutes: the unit suite on every backend, plain
                 (build/test) and under ASan+UBSan (build/asan), with the corpus replay, the
                 peer engines' pair sets, the kernel peers' answers and one pass of every
                 benchmark; brief fuzzing;
                 user-check; install-check
  check          the unit suite in O on every backend (COLLIDE_BACKEND: one), then the peer
                 engines' pair sets, the refused COLLIDE_BACKEND, the corpus replay, the
                 engine-style task system example, the golden digest and one pass of every
                 benchmark (parts: peer-check, check-env, tasks-example, replay, digest-check,
                 bench-smoke)
  user-check     user kernels through the harness under ASan+UBSan, with brief fuzzing:
                 USER_KERNELS, or the shipped examples/user-kernels/ when it is empty
  digest         every public kernel over the versioned input set on every backend here:
                 one hash per kernel and backend (O/collide-digest, O/digest.txt; DIGEST_ARGS:
                 its options, e.g. --inputs, --kernel K, --show K:I; docs/determinism.md)
  fuzz-choice    does a build choice change any answer? CHOICE='make variables' (e.g.
                 'CC=clang CFLAGS=-O3 -march=native -ffp-contract=fast') is built apart and
                 fuzzed against the reference, every kernel of the digest, FUZZ_SECONDS; the
                 first differing input is minimized and shown; INPUT=file runs one again
  digest-check   O's digest against tools/digest/golden.txt (part of make test)
  digest-golden  rewrite tools/digest/golden.txt from build/release (inputs or semantics
                 changed on purpose: raise DG_INPUT_SET in tools/digest/digest.h too)
  digest-selftest  show digest-check fails on a seeded one-ulp change in AVX2, naming the
                 kernel, the backend and the input
  scene-tool     O/collide-scene: convert scene files (a game's boxes, frame after frame)
                 between their text and binary forms, describe them (docs/scenes.md)
  real-scenes    convert the real scenes of bench/scenes/real.list (meshes and a game level from
                 Debian packages) into build/scenes/NAME.scene (docs/real-scenes.md)
  real-scenes-check  every broadphase algorithm and peer structure against brute force on the
                 real scenes, both touch rules; the same bytes when converted again; the table
                 of docs/real-scenes.md (part of CI, ~30 s)
  real-scenes-doc  rewrite docs/real-scenes.md's table from the list, the scenes and the check
  tsan           the parallel unit tests and the parallel corpus under ThreadSanitizer
                 (build/tsan): any race reported fails it
  tsan-selftest  show make tsan fails on a seeded race, with ThreadSanitizer's report
  install-check  install into a scratch prefix, build and run an example with pkg-config
                 (shared and --static) and CMake, uninstall; part of make test
  bench          time the benchmarks (suite BENCH) in build/release; write results/<machine>/
                 and, for a complete default or full run, the reports
  bench-choices  build choices priced in time and answers: gcc -O2 (the reference), -O3,
                 -O3 -march=native, clang -O2, clang -O3 -march=native, -ffp-contract=fast
                 -march=native, -ffast-math (or BENCH_CHOICES='choice; choice'), each family's
                 headline rows timed in alternating rounds and each digest compared with the
                 reference's; writes results/<machine>/choices/, shown by the report (~10 min)
  report         regenerate results/REPORT.md (the summary), results/<machine>/REPORT.md and
                 results/plots/ (SVG) from the runs in results/
  results-check  fail when a file under results/ is over 512 KB, results/REPORT.md over 60 KB,
                 or the newest committed run adds over 400 KB to a clone (part of make test)
  peers-doc      rewrite docs/peers.md's engine table from bench/peers/peers.list (make test
                 checks it)
  kernel-peers-doc  rewrite docs/coming-from.md's kernel table from
                 bench/kernel-peers/kernel-peers.list (make test checks it)
  fuzz           fuzz FUZZ_TARGETS, FUZZ_SECONDS each on FUZZ_JOBS processes (build/fuzz); the
                 first disagreement stops it, minimized and reported with a fuzz-repro command
  fuzz-repro     replay one input: FUZZ_TARGETS=target INPUT=file (with the run's USER_KERNELS)
  fuzz-failure-check  make fuzz with two wrong example kernels: the report, one crash file, a
                 reproduce command that fails; bad variables refused (part of make test)
  docs-check     README.md and docs/*.md: sizes, every command README shows, every link (part
                 of make test)
  bench-check    the benchmark harness's failure messages, concurrent runs, a two-machine
                 report, compare's warnings (part of make test)
  check-emulation  the benchmarks refuse to run under qemu-user (ARCH=arm64, s390x; both
                 when empty) and run natively; bench.sh refuses a foreign binary
  soak           the incremental cache over SOAK_FRAMES frames of the moving scene (tree and
                 sweep and prune, brute force every SOAK_CHECK_EVERY frames): fails when memory
                 or per-frame time grows; a million frames take minutes (not in make test)
  soak-selftest  show the soak test fails on a seeded leak, slowdown and lost pair
  fuzz-brief     fuzz FUZZ_TARGETS for FUZZ_BRIEF_SECONDS each, one process a target, FUZZ_LANES
                 targets at once (part of make test)
  fuzz-selftest  show the fuzzers find the seeded bugs, each within SELFTEST_SECONDS
  cross-test     ARCH=$(CROSS_ARCHES): bit for bit on that target
                 (scripts/check/cross-targets.list: the one list), cross-built into
                 build/cross-ARCH and run under qemu (wasm32: Node's WASI): the row's stages
                 (the unit suite on every backend, every corpus, the golden digest, clang, the
                 sanitizers, brief fuzzing), each timed, with an overall ETA from the last run
  cross-doc      rewrite the target tables of docs/determinism.md and docs/backends.md from the list
  cross-selftest show cross-test ARCH=arm64 finds a seeded bug in native-only NEON code, which
                 the emulated twin neon-emu (the x86 runs) does not have, and ARCH=armhf a
                 one-ulp change in the scalar reference that only 32-bit targets compile
  fuzz-mutants   mutation testing: MUTANTS mutants, MUTANT_SECONDS each; build/mutants/report.md
                 (the non-equivalent and the raw kill rate)
  fuzz-speed     executions per second of each fuzz target from its committed corpus,
                 FUZZ_SPEED_SECONDS (10) each, with the machine
  fuzz-coverage  what the fuzzers reach: the targets built with clang's source-based coverage
                 (build/coverage), each over its corpus, then FUZZ_SECONDS (here 0) of fuzzing;
                 build/coverage/html/index.html and table.txt (USER_KERNELS' files first, with
                 their lines no input ran); fails when a public function is run by no target or
                 core/'s coverage falls below fuzz/coverage-floor.txt (docs/fuzzing.md);
                 ARCH=arm64: cross-built, run under qemu-aarch64 (native NEON; after cross-test)
  fuzz-coverage-floor  record the last fuzz-coverage run as the floor, and docs/fuzzing.md's table
  fuzz-merge     fold fuzz/corpus-local/ into the committed corpora
  fuzz-cfl-check run ClusterFuzzLite's build.sh locally
  fuzz-build     build the fuzz targets only
  seeds          regenerate the hand-made seed inputs in fuzz/corpus/
  install        install headers, libraries, collide.pc, the CMake package into DESTDIR+PREFIX
  uninstall      remove exactly the files install writes (same PREFIX and DESTDIR)
  deps           install the missing Debian packages (scripts/build/install-deps.sh; as root)
  format         clang-format the C and C++ sources
  clean          remove the build folders; distclean: also fuzzing's and partial runs' output
  help           this text

Variables (default in brackets)
  CC             C compiler [gcc]; CC=clang uses clang, or clang-14 where only that exists
  CXX            C++ compiler (benchmark shim, peer engines) [g++; clang++ when CC is clang]
  CFLAGS         [-O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
                 -Wmissing-prototypes]; -std=c11 -ffp-contract=off -fno-fast-math are always
                 added after it; flags that change results (-ffp-contract=fast or =on, fast
                 math, -Ofast, -funsafe-math-optimizations, -fassociative-math, ...) are refused
                 here: compare them with scripts/bench/compare.py --build 'CFLAGS+=...' (CHOICE_CFLAGS)
  CXXFLAGS       [-O2 -g -Wall -Wextra -Werror]
  LDFLAGS        flags for every link only (-L, -Wl,...) [empty]
  PIC_FLAGS      [-fPIC -fno-semantic-interposition] the shared library needs position-
                 independent code
  O              build folder of all, check, install, check-user [build/release]; make test
                 uses build/test and build/asan, make bench build/release, fuzzing build/fuzz
  SANITIZE       1: build with ASan+UBSan (make check O=build/asan SANITIZE=1); thread:
                 with ThreadSanitizer (make tsan) [empty]
  VALIDATE       1: the library checks its kept structures after every change and aborts
                 naming the broken rule [1 for O=build/test, SANITIZE=1 and fuzzing; else 0]
  SANITIZERS     the -fsanitize= list of SANITIZE=1 [address,undefined,float-divide-by-zero,
                 float-cast-overflow]; FUZZ_SANITIZERS: the fuzzers' [address,undefined,
                 float-divide-by-zero]
  PYTHON         Python for the reports and checks [/usr/bin/python3]
  CHECK_TWINS    0: check leaves out an emulated backend whose native twin runs here (make
                 test's ASan pass) [1]
  COLLIDE_BACKEND  check and test run the unit suite on this backend only [every supported
                 one]; any program: the backend the library uses [the newest the CPU runs]
  COLLIDE_MACHINE  the results folder name of make bench [from the CPU: vendor, family, model,
                   stepping, TSC rate, CPUs; collide-bench --collide_machine_name prints it]
  USER_KERNELS   your C files of kernels ("a.c b.c"), linked into the tests, fuzzers and
                 benchmarks of this command [empty]
  USER_CFLAGS    extra flags for the USER_KERNELS files, e.g. -mavx2 [empty]
  BENCH          the suite of make bench: quick (2 min), default (10 min), full; smoke (each
                 benchmark once at its smallest size: a check, no figures, as make test runs it) [default]
  BENCH_ARGS     extra Google Benchmark options, e.g. --benchmark_filter=sprite [empty]
  SCENE          scene files ("a.scene b.scene", docs/scenes.md): make bench times the
                 broadphases, the kept cache and the peers on them (their rows alone without
                 BENCH); make fuzz seeds broadphase, cache and parallel with their boxes [empty]
  FUZZ_SECONDS   wall-clock seconds per target for make fuzz [30]; fuzz-coverage: fuzzing after
                 the corpora [0]
  FUZZ_MINIMIZE_SECONDS  at most this long minimizing a failing input; 0: keep it as found [15]
  INPUT          the input file of fuzz-repro [empty]
  FUZZ_JOBS      processes per target for make fuzz [the cores: $(FUZZ_JOBS_DEFAULT)]
  FUZZ_TARGETS   the targets of fuzz, fuzz-brief, fuzz-merge, fuzz-coverage, e.g. "aabb mtd" [all:
                 $(ALL_FUZZ_TARGETS)]
  FUZZ_BRIEF_SECONDS  seconds per target for fuzz-brief [20] and make test [10]
  FUZZ_LANES     targets fuzzed side by side by fuzz-brief, make test and fuzz-coverage [the
                 cores: $(FUZZ_JOBS_DEFAULT)]
  FUZZ_CC        the compiler of the fuzz builds (clang: libFuzzer) [$(CLANG)]
  BENCH_CHOICES  bench-choices' choices, ';'-separated make variables [the default list]
  CHOICE         fuzz-choice's variant: make variables (scripts/bench/choice.py: CFLAGS+=x adds to
                 the defaults, CFLAGS=x replaces them) []
  CHOICE_CFLAGS  a compared variant's flags, after the required ones (so -ffp-contract=fast,
                 fast math, -Ofast take effect there); recorded in O/.flags; the build is then
                 "not the reference" (CHOICE_LABEL); refused in build/release, build/test,
                 build/asan, build/tsan, build/fuzz []
  SIMDE_NATIVE   1: a variant whose emulated twins use SIMDe's native mappings (the target's own
                 vectors); "not the reference", in a folder of its own (docs/determinism.md) []
  CROSS_CFLAGS   cross-test: your own flags, after the Makefile's and the target's []
  CROSS_STAGES   cross-test: a subset of the target's stages (unit replay digest clang sanitize
                 fuzz emulation; unit:native), or ci: the list's ci column [all]
  DIGEST_ARGS    options for make digest / digest-check (collide-digest --help) []
  SELFTEST_ONLY  fuzz-selftest, cross-selftest run only these seeded bugs (name,name) [all]
  SELFTEST_SECONDS  fuzz-selftest's limit per bug [60]
  SELFTEST_JOBS  fuzz-selftest's bugs at once [the cores: $(FUZZ_JOBS_DEFAULT)]
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
  TEST_JOBS      make test's compiles at once (the steps run one by one) [the cores: $(FUZZ_JOBS_DEFAULT)]
  TEST_ARGS      options for the unit-suite runs, e.g. TEST_ARGS="--filter 'sprite/*'" [empty]
  PREFIX         where install puts collide (made absolute) [/usr/local]
  DESTDIR        a staging folder in front of PREFIX, for packaging [empty]
endef

# (Evaluated only when make help runs.)
FUZZ_JOBS_DEFAULT = $(shell nproc)
CROSS_ARCHES = $(shell $(PYTHON) scripts/check/cross_targets.py names | paste -s -d '|')
help:
	$(info $(HELP_TEXT))
	@:

# A newcomer's paper cuts (misspelled variables, cross-test's ARCH, install-deps, the suites in
# this help, collide-scene's commands, CROSS_CFLAGS): scripts/check/check-newcomer.sh, in make test.
.PHONY: newcomer-check
newcomer-check: $(SCENE_TOOL)
	@bash scripts/check/check-newcomer.sh $(SCENE_TOOL)
