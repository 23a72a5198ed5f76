#!/usr/bin/env bash
# The kernel table of docs/coming-from.md, between its two marker comments, from the list:
#   kernel-peers-doc.sh LIST DOC          rewrites the table (make kernel-peers-doc)
#   kernel-peers-doc.sh --check LIST DOC  fails when the table is not what the list says (make
#                                         kernel-peers-doc-check, run by make test's peer-check)
set -euo pipefail
check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
list=${1:?usage: kernel-peers-doc.sh [--check] LIST DOC}
doc=${2:?usage: kernel-peers-doc.sh [--check] LIST DOC}
begin='<!-- kernel-peers.list table: begin (make kernel-peers-doc writes it from bench/kernel-peers/kernel-peers.list) -->'
end='<!-- kernel-peers.list table: end -->'

table=$(awk '
  function code(s) { return "`" s "`" }
  BEGIN {
    print "| kernel (rows: kpeer/<family>/<backend>/<kernel>) | library | Debian package | family | call | declared rules |"
    print "|---|---|---|---|---|---|"
  }
  /^[a-z]/ {
    rules = $8 == "-" ? "none (collide'"'"'s own)" : code($8)
    gsub(/,/, ", ", rules)
    print "| " code($1) " | " $2 " | " code($3) " | " $6 " | " code($7) " | " rules " |"
  }' "$list")

[ "$(grep -cxF "$begin" "$doc")" = 1 ] && [ "$(grep -cxF "$end" "$doc")" = 1 ] || {
  echo "kernel-peers-doc: $doc needs the two marker lines, once each:" >&2
  printf '  %s\n' "$begin" "$end" >&2
  exit 1
}

new=$(mktemp)
trap 'rm -f "$new"' EXIT
TABLE=$table awk -v begin="$begin" -v end="$end" '
  $0 == begin { print; print ENVIRON["TABLE"]; skip = 1; next }
  $0 == end { skip = 0 }
  !skip { print }' "$doc" > "$new"

if [ "$check" = 1 ]; then
  if ! cmp -s "$new" "$doc"; then
    echo "kernel-peers-doc: the kernel table of $doc is not $list's; run make kernel-peers-doc:" >&2
    diff "$doc" "$new" >&2 || true
    exit 1
  fi
  echo "kernel-peers-doc: the kernel table of $doc matches $list"
elif ! cmp -s "$new" "$doc"; then
  cp "$new" "$doc"
  echo "kernel-peers-doc: wrote the kernel table of $doc"
fi
