#!/usr/bin/env bash
# Checks the ClusterFuzzLite configuration as far as this machine can (no Docker engine here):
# runs .clusterfuzzlite/build.sh as ClusterFuzzLite would (its variables set to an
# address-sanitizer libFuzzer build, output in build/cfl/out), then checks every fuzzer, seed
# corpus, dictionary and options file is there and that each fuzzer runs its seeds cleanly; and
# that the Dockerfile, project.yaml and the workflows (.github/workflows/cflite_*.yml: pull
# requests in code-change mode, scheduled batch fuzzing, corpus pruning) say what build.sh and
# the Makefile assume.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${PYTHON:-/usr/bin/python3}
clang=$(command -v clang || command -v clang-14)
rm -rf build/cfl
mkdir -p build/cfl/out build/cfl/work
sanitize="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
# With the shipped user-kernel examples unless USER_KERNELS says otherwise: the user path is the
# superset (a build without user kernels only leaves out those objects).
user=${USER_KERNELS-examples/user-kernels/plain_c.c examples/user-kernels/sorted_sweep.c}
echo "cfl-check: build.sh with USER_KERNELS=\"$user\""
env CC="$clang" CXX="${clang/clang/clang++}" CFLAGS="$sanitize" CXXFLAGS="$sanitize" \
  LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$PWD/build/cfl/out" WORK="$PWD/build/cfl/work" \
  SRC= USER_KERNELS="$user" bash .clusterfuzzlite/build.sh
targets=$(bash scripts/fuzz/fuzz-targets.sh)
for t in $targets; do
  for f in "fuzz_$t" "fuzz_${t}_seed_corpus.zip" "fuzz_$t.dict" "fuzz_$t.options"; do
    [ -s "build/cfl/out/$f" ] || { echo "cfl-check: build/cfl/out/$f is missing" >&2; exit 1; }
  done
  mkdir -p "build/cfl/seeds/$t"
  unzip -q -o "build/cfl/out/fuzz_${t}_seed_corpus.zip" -d "build/cfl/seeds/$t"
  seeds=$(ls "build/cfl/seeds/$t" | wc -l)
  [ "$seeds" -eq "$(ls "fuzz/corpus/$t" | wc -l)" ] || { echo "cfl-check: $t seed zip is incomplete" >&2; exit 1; }
  "build/cfl/out/fuzz_$t" -runs=500 -dict="build/cfl/out/fuzz_$t.dict" "build/cfl/seeds/$t" \
    >"build/cfl/fuzz_$t.log" 2>&1 || { echo "cfl-check: fuzz_$t failed; see build/cfl/fuzz_$t.log" >&2; exit 1; }
  echo "cfl-check: fuzz_$t built by build.sh, $seeds seeds zipped, 500 runs clean"
done
extra=$(ls build/cfl/out | grep -E '^fuzz_[a-z0-9]+$' | sed 's/^fuzz_//' | grep -vxF "$targets" || true)
[ -z "$extra" ] || { echo "cfl-check: build.sh made fuzzers with no fuzz/fuzz_*.c: $extra" >&2; exit 1; }
"$python" - <<'PY'
import re, sys, yaml
fail = []
def need(ok, what):
    if not ok: fail.append(what)
docker = open(".clusterfuzzlite/Dockerfile").read()
need(re.search(r"^FROM gcr\.io/oss-fuzz-base/base-builder", docker, re.M), "Dockerfile: FROM the OSS-Fuzz base-builder")
for pkg in ("libsimde-dev", "libgmp-dev", "libxxhash-dev", "zip"):
    need(pkg in docker, f"Dockerfile installs {pkg} (build.sh needs it)")
    need(pkg in open("scripts/build/install-deps.sh").read(), f"install-deps.sh installs {pkg} too")
need("COPY .clusterfuzzlite/build.sh $SRC/" in docker, "Dockerfile copies build.sh to $SRC")
project = yaml.safe_load(open(".clusterfuzzlite/project.yaml"))
need(project.get("language") == "c", "project.yaml: language c")
tag = re.search(r"base-builder:(\S+)", docker)
need(project.get("base_os_version") == (tag.group(1) if tag else None), "project.yaml base_os_version = the Dockerfile's image tag")
modes = {}
for name in ("cflite_pr", "cflite_batch", "cflite_cron"):
    flow = yaml.safe_load(open(f".github/workflows/{name}.yml"))
    triggers = flow.get(True, flow.get("on"))  # YAML 1.1 reads the key `on` as True
    for job in flow["jobs"].values():
        steps = job["steps"]
        uses = [s.get("uses", "") for s in steps]
        need(any(u.startswith("google/clusterfuzzlite/actions/build_fuzzers@") for u in uses), f"{name}: builds the fuzzers")
        for s in steps:
            if s.get("uses", "").startswith("google/clusterfuzzlite/actions/run_fuzzers@"):
                modes[name] = s["with"]["mode"]
                need(int(s["with"]["fuzz-seconds"]) > 0, f"{name}: fuzz-seconds")
            if s.get("uses", "").startswith("google/clusterfuzzlite/actions/build_fuzzers@"):
                need(s["with"].get("language") == "c", f"{name}: language c")
    if name == "cflite_pr":
        need("pull_request" in triggers, "cflite_pr runs on pull requests")
    else:
        need("schedule" in triggers, f"{name} runs on a schedule")
need(modes.get("cflite_pr") == "code-change", "cflite_pr: mode code-change")
need(modes.get("cflite_batch") == "batch", "cflite_batch: mode batch")
need(modes.get("cflite_cron") == "prune", "cflite_cron: mode prune (corpus pruning)")
if fail:
    print("cfl-check: FAILED:\n  " + "\n  ".join(fail)); sys.exit(1)
print("cfl-check: Dockerfile, project.yaml and the pr/batch/prune workflows agree with build.sh")
PY
