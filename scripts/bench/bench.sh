#!/usr/bin/env bash
# Runs the benchmark binary on one suite, writes its Google Benchmark JSON xz-compressed and
# atomically (<name>.json.xz: a temporary file given its name at the end, once it reads back as
# the JSON written, measured values to 6 significant digits; an interrupted run leaves nothing
# half-written), then writes its report.
#   scripts/bench/bench.sh BINARY [SUITE] [extra --benchmark_* and --collide_scene options]
# SUITE: one the binary lists (BINARY --collide_list=suites: smoke, quick (<= 2 min on 2 cores),
# default (<= 10 min), full (everything)).
# A complete default or full run (no --benchmark_filter) of a binary built from a clean tree,
# run in a clean tree, goes to results/<machine>/ and regenerates results/REPORT.md (the newest
# complete run of every machine, side by side), each machine's results/<machine>/REPORT.md and
# results/plots/. Any other run (quick,
# smoke, filtered, or with uncommitted changes) goes to results/<machine>/partial/ with its own
# report beside its JSON (<name>.md, <name>-plots/), and leaves the committed report alone.
# <machine> is the binary's name for this CPU (collide-bench --collide_machine_name;
# COLLIDE_MACHINE overrides it). COLLIDE_RESULTS: another folder instead of results/.
# Two runs at once never share a file name (the second takes <name>-2.json.xz, ...).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:?usage: scripts/bench/bench.sh BINARY [SUITE] [options]}
suite=${2:-default}
shift $(($# >= 2 ? 2 : 1))
python=${PYTHON:-/usr/bin/python3}
results=${COLLIDE_RESULTS:-results}

# A binary of another architecture would run under an emulator (qemu-user through binfmt_misc):
# refused before it starts, as the binary itself refuses (bench/bench_emulation.c, exit 3).
# The architecture from the ELF header's class, byte order and machine; empty when unknown.
elf_arch() {
  local h
  h=$(od -An -v -tu1 -N20 -- "$1" 2> /dev/null) || return 0
  # shellcheck disable=SC2086 # one word per byte
  set -- $h
  [ "$#" -eq 20 ] && [ "$1 $2 $3 $4" = "127 69 76 70" ] || return 0
  local is64=$(($5 == 2)) big=$(($6 == 2)) m=$((${20} * 256 + ${19}))
  [ "$big" = 0 ] || m=$((${19} * 256 + ${20}))
  case $m in
    62) echo x86-64 ;;
    3) echo x86 ;;
    183) echo aarch64 ;;
    40) echo arm ;;
    22) if [ "$is64" = 1 ]; then echo s390x; else echo s390; fi ;;
    21) if [ "$big" = 1 ]; then echo ppc64; else echo ppc64le; fi ;;
    243) if [ "$is64" = 1 ]; then echo riscv64; else echo riscv32; fi ;;
    258) echo loongarch64 ;;
  esac
}
# A kernel runs its own family's programs natively (x86-64 runs x86, arm64 runs arm).
arch_family() {
  case $1 in
    x86*) echo x86 ;;
    aarch64 | arm) echo arm ;;
    s390*) echo s390 ;;
    *) echo "$1" ;;
  esac
}
an() { case $1 in [aeiouxAEIOUX]* | s390*) echo an ;; *) echo a ;; esac }
bin_arch=$(elf_arch "$bin")
case $(uname -m) in
  x86_64) host_arch=x86-64 ;;
  i?86) host_arch=x86 ;;
  aarch64 | arm64) host_arch=aarch64 ;;
  arm*) host_arch=arm ;;
  *) host_arch=$(uname -m) ;;
esac
if [ -n "$bin_arch" ] && [ "$(arch_family "$bin_arch")" != "$(arch_family "$host_arch")" ]; then
  echo "bench: this is $(an "$bin_arch") $bin_arch binary ($bin) that would run under emulation" \
    "on $(an "$host_arch") $host_arch host; timings would measure the emulator, not the code;" \
    "run it on $(an "$bin_arch") $bin_arch machine" >&2
  exit 3
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/collide-bench.XXXXXX")
tmp=
cleanup() { rm -rf "$work"; [ -z "$tmp" ] || rm -f "$tmp"; }
trap cleanup EXIT
trap 'echo; echo "bench: interrupted; nothing written (the partial results were removed)" >&2; exit 130' INT TERM

# A step of the binary's that must work: on failure its own messages and exit status.
run_step() {
  local what=$1 rc=0
  shift
  "$@" > "$work/out" 2> "$work/err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    cat "$work/err" >&2
    echo "bench: $what failed (exit $rc): $bin $suite ${extra[*]}" >&2
    exit "$rc"
  fi
}
extra=("$@")

# The suites and their kinds come from the binary: a complete one (default, full) may replace
# the committed report when run unfiltered.
run_step "listing the suites" "$bin" --collide_list=suites
kind=$(awk -v s="$suite" '$1 == s { print $2 }' "$work/out")
if [ -z "$kind" ]; then
  use=$(awk '{ name[NR] = $1 ($3 > 0 ? " (" $3 / 60 " min)" : "") }
    END { for (i = 1; i <= NR; i++) printf "%s%s", name[i], (i == NR ? "" : i == NR - 1 ? " or " : ", ") }' \
    "$work/out")
  echo "bench: BENCH=$suite: not a suite; use $use" >&2
  exit 2
fi
complete=yes
[ "$kind" = complete ] || complete=no
filtered=no
# Scene files (--collide_scene=FILE): those of COLLIDE_BUILTIN_SCENES (the built-in real
# scenes mk/bench.mk passes to every run) keep a run complete; a user's own make it partial
# (its rows name a file the repository does not have), as --collide_scene_only does.
user_scenes= scene_only=no
for arg in "$@"; do
  case $arg in
    --benchmark_filter=*) complete=no filtered=yes ;;
    --collide_scene_only) complete=no scene_only=yes ;;
    --collide_scene=*)
      case " ${COLLIDE_BUILTIN_SCENES:-} " in
        *" ${arg#--collide_scene=} "*) ;;
        *) complete=no user_scenes="$user_scenes ${arg#--collide_scene=}" ;;
      esac ;;
  esac
done

run_step "naming this machine" "$bin" --collide_machine_name
machine=$(cat "$work/out")
run_step "listing the benchmarks of suite '$suite'" env COLLIDE_BENCH_SUITE="$suite" "$bin" \
  --benchmark_list_tests=true "$@"
mv "$work/out" "$work/plan"
total=$(wc -l < "$work/plan")
if [ "$total" -eq 0 ]; then
  echo "bench: no benchmark of suite '$suite' matches: $*" >&2
  exit 2
fi

mkdir -p "$results"
json=$work/run.json
tmp=$(mktemp "$results/.run.XXXXXX")
stamp=$(date -u +%Y%m%d-%H%M%S)
echo "bench: suite '$suite', $total benchmarks, machine '$machine'"
rc=0
COLLIDE_BENCH_SUITE=$suite COLLIDE_MACHINE=$machine COLLIDE_BENCH_PLAN=$work/plan "$bin" \
  --benchmark_out="$json" --benchmark_out_format=json "$@" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "bench: the benchmark run failed (exit $rc); nothing written" >&2
  exit "$rc"
fi

# The load average at the end joins Google Benchmark's one at the start (load_avg): a run that
# shared the machine (load above the CPUs, or scene rows whose repeated walks spread by more
# than 10%) is named so on the console and in its report, not silently believed.
# COLLIDE_BENCH_LOAD_END stands in for /proc/loadavg (make bench-check's test of the warning).
load_end=${COLLIDE_BENCH_LOAD_END:-$(cut -d' ' -f1-3 /proc/loadavg 2> /dev/null || true)}
"$python" - "$json" "$load_end" << 'PY' >&2 || echo "bench: the run's load could not be read" >&2
import json, os, sys
sys.path.insert(0, os.path.join("scripts", "bench"))
from report.machines import load_text, load_warning
data = json.load(open(sys.argv[1]))
end = [float(x) for x in sys.argv[2].split()]
if end:
    data.setdefault("context", {})["collide_load_avg_end"] = end
why = load_warning(data)
if why:
    print(f"bench: {load_text(data)}: {why} (the report says so too)")
PY

# Only a binary built from a committed tree, run in that tree, may update the committed report.
rev=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"].get("collide_git_revision", "unknown"))' "$json")
dirty=
case $rev in
  *-dirty) dirty="the binary was built from uncommitted changes (revision $rev)" ;;
  unknown) dirty="the binary does not know its git revision" ;;
esac
if changes=$(git status --porcelain --untracked-files=no -- . ':(exclude)results' 2> "$work/err"); then
  [ -z "$changes" ] || dirty="the working tree has uncommitted changes: $(echo "$changes" | tr '\n' ' ')"
else
  dirty="git cannot tell whether the tree is clean: $(cat "$work/err")"
fi
if [ "$complete" = yes ] && [ -n "$dirty" ]; then
  complete=no
  echo "bench: $dirty" >&2
  echo "bench: so this run is kept under partial/ with its own report; commit, then run again" \
    "to update $results/REPORT.md" >&2
fi

# The run is kept xz-compressed (preset 9, extreme). Measured values are first rounded to 6
# significant digits, far below the run-to-run noise: the digits past that are noise that xz
# cannot compress (a default run: 208 KB with them, 119 KB without). Only numbers with a
# fraction in the benchmark rows change: counts written as floats (pairs, tests: 1144045.0)
# keep every digit, as do layout, names, integers and the context; the kept file is checked
# to read back as the same rows, whole numbers exactly and the rest within 1e-5.
"$python" - "$json" "$tmp" "$load_end" << 'PY' || { echo "bench: compressing the run failed; nothing written" >&2; exit 1; }
import json, lzma, re, sys
raw = open(sys.argv[1], "rb").read().decode()
end = [float(x) for x in sys.argv[3].split()]
if end:  # the load average at the end, the first entry of the context
    raw = raw.replace('"context": {', '"context": {\n    "collide_load_avg_end": %s,' % json.dumps(end), 1)
cut = raw.find('"benchmarks"')
cut = len(raw) if cut < 0 else cut
number = re.compile(r'(?<=": )-?[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)(?=,?\n)')


def rounded(m):
    value = float(m.group(0))
    return m.group(0) if value.is_integer() else repr(float("%.6g" % value))


text = raw[:cut] + number.sub(rounded, raw[cut:])


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (not a.is_integer() and abs(a - b) <= 1e-5 * max(abs(a), abs(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


packed = lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME)
if not same(json.loads(raw), json.loads(lzma.decompress(packed))):
    sys.exit("bench: the compressed run does not read back as the JSON written")
with open(sys.argv[2], "wb") as f:
    f.write(packed)
PY

dir=$results/$machine
[ "$complete" = yes ] || dir=$dir/partial
mkdir -p "$dir"
base=$stamp-$rev
[ "$complete" = yes ] || base=$base-$suite
[ "$scene_only" = no ] || base=$stamp-$rev-scenes # the scene files' rows alone: not the suite's
# Claim a free name atomically (a hard link fails if the name exists): concurrent runs of one
# clone, started in the same second, keep both results.
name=$base
for i in $(seq 2 100); do
  if ln -T "$tmp" "$dir/$name.json.xz" 2> "$work/err"; then break; fi
  [ -e "$dir/$name.json.xz" ] || { cat "$work/err" >&2; exit 1; }
  name=$base-$i
done
[ -e "$dir/$name.json.xz" ] && [ "$dir/$name.json.xz" -ef "$tmp" ] ||
  { echo "bench: no free file name for $dir/$base.json.xz" >&2; exit 1; }
chmod 0644 "$dir/$name.json.xz"
rm -f "$tmp"
tmp=
trap - INT TERM
out=$dir/$name.json.xz
echo "bench: wrote $out"

if [ "$complete" = yes ]; then
  "$python" scripts/bench/report --results "$results"
else
  "$python" scripts/bench/report --input "$out" --output "$dir/$name.md" --plots "$dir/$name-plots"
  why="a $suite run"
  [ "$filtered" = no ] || why="a filtered $suite run"
  if [ "$scene_only" = yes ]; then
    why="a run of the scene files' rows alone ($(echo $user_scenes))"
  elif [ -n "$user_scenes" ]; then
    why="$why with your scene files ($(echo $user_scenes))"
  fi
  if [ "$filtered" = no ] && [ "$scene_only" = no ] && [ -z "$user_scenes" ] && [ -n "$dirty" ] &&
    [ "$kind" = complete ]; then
    why="a $suite run with uncommitted changes"
  fi
  echo "bench: this was $why: $results/REPORT.md is left as it is (only a complete default or" \
    "full run from a clean tree replaces it)"
fi
