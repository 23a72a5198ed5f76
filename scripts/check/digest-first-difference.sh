#!/usr/bin/env bash
# Where another platform's digest first answers otherwise than this machine's (cross-test,
# after a failed golden check; the golden file holds hashes only):
#   scripts/check/digest-first-difference.sh LOG DIR NAME COMMAND...
# LOG: the failed `collide-digest --check` run's stderr (the first kernel named there is
# looked at); DIR: where to keep both sides' per-input digests; NAME: the other side's name;
# COMMAND: how to run the other side's collide-digest (e.g. qemu-s390x -L ... DIR/collide-digest).
# Builds build/release/collide-digest if needed, compares the scalar answers input by input and
# prints the first differing input from both sides to stderr (the first 60 lines of each; the
# whole texts stay in DIR/show-native.txt and DIR/show-other.txt). Always exits 0 (a diagnosis).
set -uo pipefail
cd "$(dirname "$0")/../.."
log=$1 dir=$2 name=$3
shift 3
# The first kernel the golden check names on a backend (a batch slot), else on - (a call that
# uses none); scalar's answers are compared either way (- runs the reference too).
named=$(sed -n 's/^collide-digest: DIFFERS from [^:]*: \([^ ]*\) on \([^:]*\): .*/\1 \2/p' "$log")
first=$(grep -m1 -v ' -$' <<< "$named" || sed -n 1p <<< "$named")
kernel=${first% *} backend=${first##* }
[ -n "$kernel" ] || exit 0
make -s --no-print-directory O=build/release build/release/collide-digest > "$dir/digest-native.log" 2>&1 ||
  { echo "(this machine's digest did not build: $dir/digest-native.log)" >&2; exit 0; }
build/release/collide-digest --kernel "$kernel" --backend scalar --inputs > "$dir/digest-native.txt"
"$@" --kernel "$kernel" --backend scalar --inputs > "$dir/digest-other.txt"
index=$(awk '$1 == "input" { k = $2 " " $3 " " $4; if (FILENAME == ARGV[1]) h[k] = $5;
  else if (k in h && h[k] != $5) { print $4; exit } }' "$dir/digest-native.txt" "$dir/digest-other.txt")
[ -n "$index" ] || { echo "($kernel: the scalar answers agree with this machine's input by input)" >&2; exit 0; }
echo "$kernel on $backend: the first input whose answers differ from this machine's: $index" >&2
echo "--- this machine ($(uname -m)):" >&2
build/release/collide-digest --show "$kernel:$index" --backend scalar > "$dir/show-native.txt"
head -n 60 "$dir/show-native.txt" >&2
echo "--- $name:" >&2
"$@" --show "$kernel:$index" --backend scalar > "$dir/show-other.txt"
head -n 60 "$dir/show-other.txt" >&2
echo "(all the values: $* --show $kernel:$index)" >&2
exit 0
