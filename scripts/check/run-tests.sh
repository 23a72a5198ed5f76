#!/usr/bin/env bash
# Runs a Criterion test binary with a time limit, and once more if it hangs.
#   scripts/check/run-tests.sh SECONDS BINARY [ARGS...]
# Why: Criterion forks a child per test from a process that has threads; under AddressSanitizer
# (gcc 12's libasan has no fork handler) a child can be forked while another thread holds the
# allocator's lock, and then waits for it forever (seen here: 0 CPU, a futex wait in
# asan_malloc). The suite takes seconds; a run past the limit is that lock-up, not slowness, and
# a second run does not meet it. A failure (not a hang) is never retried. On a hang the whole
# process tree is killed (the children sit in process groups of their own, and one left alive
# would keep the output pipe open). A suite still running says so every RUN_TESTS_BEAT seconds.
set -uo pipefail
limit=${1:?usage: scripts/check/run-tests.sh SECONDS BINARY [ARGS...]}
shift
# A line every RUN_TESTS_BEAT seconds (default 30; 0: none) while the suite runs: under qemu one
# backend's suite takes minutes, which Criterion spends silent.
beat=${RUN_TESTS_BEAT:-30}
what=${1##*/}
for a in "$@"; do [[ $a != *tests* ]] || what=${a##*/}; done # the suite, not qemu running it

tree() { # the process and all its descendants
  local p
  echo "$1"
  for p in $(pgrep -P "$1" 2>/dev/null); do tree "$p"; done
}

for attempt in 1 2; do
  "$@" &
  pid=$!
  deadline=$((SECONDS + limit))
  started=$SECONDS next=$((SECONDS + beat))
  while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 0.2
    if [ "$beat" -gt 0 ] && [ "$SECONDS" -ge "$next" ]; then
      echo "run-tests: $what${COLLIDE_BACKEND:+ (COLLIDE_BACKEND=$COLLIDE_BACKEND)} still running:" \
        "$((SECONDS - started)) s of at most $limit s" >&2
      next=$((SECONDS + beat))
    fi
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 $(tree "$pid") 2>/dev/null
    wait "$pid" 2>/dev/null
    echo "run-tests: $1 did not finish in $limit s (attempt $attempt): the fork-under-ASan" \
      "lock-up; $([ "$attempt" -eq 1 ] && echo 'running it again' || echo 'giving up')" >&2
    continue
  fi
  wait "$pid"
  rc=$?
  [ "$rc" -ne 0 ] || echo "run-tests: $what${COLLIDE_BACKEND:+ (COLLIDE_BACKEND=$COLLIDE_BACKEND)}: $((SECONDS - started)) s"
  exit "$rc"
done
exit 124
