#!/usr/bin/env bash
# Copies the project's sources into a folder of their own, for a build that must not touch this
# one: the self-tests plant a bug in the copy, the mutation run one mutant per copy.
#   scripts/build/copy-sources.sh SRC DEST
# SRC a git work tree: every file git tracks or would track (files not yet added included, edits
# not yet committed as they are), but not results/ (the benchmark runs and plots),
# fuzz/corpus-local/ or fuzz/artifacts/ (a run's own inputs), nor anything git ignores (builds).
# SRC not a git work tree (a copy this script made): all of it but build/. Either way DEST gets
# build/.deps-installed when SRC has it, so the copy's make does not install again.
# One list of what a build needs, so a file that make reads when it starts (the peer engines'
# list, say) reaches every copy without each caller naming it.
set -euo pipefail
src=${1:?usage: scripts/build/copy-sources.sh SRC DEST}
dest=${2:?usage: scripts/build/copy-sources.sh SRC DEST}
[ -d "$src" ] || { echo "copy-sources: $src: no such folder" >&2; exit 2; }
# What an earlier copy left in DEST goes first (its build/ stays: a rebuild only redoes what
# changed).
mkdir -p "$dest/build"
src_abs=$(cd "$src" && pwd -P)
dest_abs=$(cd "$dest" && pwd -P)
case "$src_abs/" in
  "$dest_abs/"*) echo "copy-sources: $dest is $src or holds it: refused" >&2; exit 2 ;;
esac
find "$dest" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
if [ "$(git -C "$src" rev-parse --show-toplevel 2> /dev/null)" = "$(cd "$src" && pwd -P)" ]; then
  # Files deleted in the work tree but not yet in the index are left out.
  (cd "$src" && git ls-files -z --cached --others --exclude-standard -- . ':(exclude)results' \
    ':(exclude)fuzz/corpus-local' ':(exclude)fuzz/artifacts' |
    while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done |
    tar --null -T - -cf -) | tar -xf - -C "$dest"
else
  (cd "$src" && tar --exclude=./build -cf - .) | tar -xf - -C "$dest"
fi
if [ -f "$src/build/.deps-installed" ]; then cp -a "$src/build/.deps-installed" "$dest/build/"; fi
