#!/usr/bin/env bash
# The engine table of docs/peers.md, between its two marker comments, from the engine list:
#   peers-doc.sh LIST DOC          rewrites the table (make peers-doc)
#   peers-doc.sh --check LIST DOC  fails when the table is not what the list says (make
#                                  peers-doc-check, run by make test's peer-check)
# The table is the list's columns, so that the page cannot drift from what the build uses.
set -euo pipefail
check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
list=${1:?usage: peers-doc.sh [--check] LIST DOC}
doc=${2:?usage: peers-doc.sh [--check] LIST DOC}
begin='<!-- peers.list table: begin (make peers-doc writes it from bench/peers/peers.list) -->'
end='<!-- peers.list table: end -->'

table=$(awk '
  function code(s) { return "`" s "`" }
  function codes(s,   n, parts, out, i) {
    n = split(s, parts, ",")
    out = code(parts[1])
    for (i = 2; i <= n; i++) out = out ", " code(parts[i])
    return out
  }
  BEGIN {
    print "| engine | Debian package | found by | dims | link flags | structures (rows: peer-<engine>-<structure>) |"
    print "|---|---|---|---|---|---|"
  }
  /^[a-z]/ {
    how = $3; what = $3
    sub(/=.*/, "", how); sub(/^[^=]*=/, "", what)
    found = how == "pkg-config" ? "pkg-config " code(what) : "header " code("<" what ">")
    link = $5 == "pkg-config" ? code("pkg-config --libs " what) : code($5)
    gsub(/,/, " ", link)
    print "| " code($1) " | " code($2) " | " found " | " $4 " | " link " | " codes($6) " |"
  }' "$list")

[ "$(grep -cxF "$begin" "$doc")" = 1 ] && [ "$(grep -cxF "$end" "$doc")" = 1 ] || {
  echo "peers-doc: $doc needs the two marker lines, once each:" >&2
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
    echo "peers-doc: the engine table of $doc is not $list's; run make peers-doc:" >&2
    diff "$doc" "$new" >&2 || true
    exit 1
  fi
  echo "peers-doc: the engine table of $doc matches $list"
elif ! cmp -s "$new" "$doc"; then
  cp "$new" "$doc"
  echo "peers-doc: wrote the engine table of $doc"
fi
