#!/usr/bin/env bash
# The ISA files of the SIMD backends and how to build them, read from the line
#   /* collide-isa: arch=<x86|arm> emulated=<yes|no> flags=<compiler flags> */
# at the top of each core/src/<arch>/<isa>.c: the one list the Makefile and
# .clusterfuzzlite/build.sh use (adding a backend: an ISA file with that line, its CPU test
# in cpu.c and its row in backend.c's registry).
#   isa-list.sh native <target triple>  the files built natively for that target
#   isa-list.sh emulated                the files also built as emulated twins (SIMDE_NO_NATIVE)
#   isa-list.sh flags <file>            the file's native flags
set -euo pipefail
cd "$(dirname "$0")/.."
# The words before flags= are single key=value pairs (flags= takes the rest of the line).
field() { grep -m1 '^/\* collide-isa: ' "$1" | sed 's/ flags=.*//' | tr ' ' '\n' | sed -n "s/^$2=//p"; }
files() { grep -l '^/\* collide-isa: ' core/src/*/*.c; }
case "${1:-}" in
  native)
    case "${2:?usage: isa-list.sh native <target triple>}" in
      x86_64* | i?86*) arch=x86 ;;
      aarch64*) arch=arm ;;
      *) arch=none ;;
    esac
    for f in $(files); do [ "$(field "$f" arch)" != "$arch" ] || echo "$f"; done
    ;;
  emulated)
    for f in $(files); do [ "$(field "$f" emulated)" != yes ] || echo "$f"; done
    ;;
  flags)
    sed -n 's/^\/\* collide-isa: .*flags=\(.*\) \*\/$/\1/p' "${2:?usage: isa-list.sh flags <file>}"
    ;;
  *)
    echo "usage: isa-list.sh native <target triple> | emulated | flags <file>" >&2
    exit 2
    ;;
esac
