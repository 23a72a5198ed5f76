#!/usr/bin/env bash
# The failure report of scripts/fuzz/fuzz.sh (sourced by it, not run alone): who disagrees, the
# reference's answer, the report, the input and the one command that reproduces it. Uses the
# caller's variables: build, mode, log, and USER_KERNELS, USER_CFLAGS, FUZZ_CC, COLLIDE_BACKEND.
# The one command that reproduces a failure: make rebuilds the fuzzer with this run's
# variables (a fuzzer built without USER_KERNELS would not fail) and runs the input.
reproduce_command() { # TARGET INPUT
  local cmd="make fuzz-repro FUZZ_TARGETS=$1 INPUT=$(printf '%q' "$2")" v
  for v in USER_KERNELS USER_CFLAGS FUZZ_CC COLLIDE_BACKEND; do
    [ -z "${!v:-}" ] || cmd+=" $v=$(printf '%q' "${!v}")"
  done
  echo "$cmd"
}

# The fuzzer's own output for one input, without libFuzzer's banner and stack trace: from
# "Running:" to the target's DISAGREEMENT line (a sanitizer report is kept whole).
report_of() { # BIN INPUT -> stdout; returns the fuzzer's exit code
  local rc=0 out
  out=$("$1" -runs=1 -timeout=20 "$2" 2>&1) || rc=$?
  awk '/^Running: / { on = 1; next }
       on && /^(INFO|Executed|MS:|base unit|0x|NOTE:|      Combine libFuzzer)/ { next }
       on && /^ *#[0-9]+ 0x/ && frames++ >= 12 { next }
       on { print }
       on && /DISAGREEMENT between backends/ { exit }' <<<"$out"
  return "$rc"
}

# The reference's answers that a report's DIFFERS lines are to be read against: for each line
# "<backend> <answer>  <- DIFFERS", the scalar line whose answer text shares the longest start
# with it (the same query or variant; ties to the nearest one above), and the lines that give
# an oracle's or a definition's answer.
reference_lines() {
  awk '{ line[NR] = $0 }
       END {
         for (i = 1; i <= NR; i++) {
           s = line[i]; sub(/^ +/, "", s)
           if (s ~ /^(expected|definition|reference|want)/) { keep[i] = 1; continue }
           if (s !~ /DIFFERS/ || s ~ /^scalar /) continue
           rest = s; sub(/^[^ ]+ +/, "", rest)
           best = 0; best_len = -1
           for (j = 1; j <= NR; j++) {
             t = line[j]; sub(/^ +/, "", t)
             if (t !~ /^scalar /) continue
             sub(/^scalar +/, "", t)
             n = 0
             while (n < length(t) && n < length(rest) && substr(t, n + 1, 1) == substr(rest, n + 1, 1)) n++
             if (n > best_len || (n == best_len && j < i)) { best = j; best_len = n }
           }
           if (best) keep[best] = 1
         }
         for (i = 1; i <= NR; i++) if (keep[i]) print line[i]
       }'
}

# Prints the verdict for a failing input: who disagrees (user kernels first), the reference's
# answer, the report, the input and the reproduce command. $1 target, $2 input, $3 how found.
print_failure() {
  local target=$1 input=$2 how=$3 report lines differs refs
  report=$(report_of "$build/fuzz_$target" "$input") && {
    echo "  $target: the input no longer fails when run alone ($input); the fuzzer's log: $log"
    # What the fuzzer said when it failed (the inputs before it, or the run's TMPDIR, may be
    # what made it fail): its report from the error line, the stack cut to its first frames.
    awk '/ERROR: |DISAGREEMENT|runtime error|^fuzz [a-z]+: / { on = 1 }
         on && /^ *#[0-9]+ 0x/ && frames++ >= 12 { next }
         on && n++ < 40 { print "    " $0 }
         /^SUMMARY: / { on = 0 }' "$log"
    return
  }
  printf '%s\n' "$report" >"$input.report"
  lines=$(grep -c . <<<"$report" || true)
  differs=$(grep -E 'DIFFERS|differs|^ *pairs (missing|extra)|ERROR: AddressSanitizer|runtime error|breaks' <<<"$report" |
    grep -v 'DISAGREEMENT between backends' || true)
  refs=$(reference_lines <<<"$report")
  echo
  echo "fuzz $target: DISAGREEMENT ($how)"
  if [ -n "$differs" ]; then
    echo "  who disagrees (your kernels first):"
    { grep 'user:' <<<"$differs" || true; grep -v 'user:' <<<"$differs" || true; } |
      awk 'NR <= 8 { sub(/^ +/, ""); print "    " $0 } END { if (NR > 8) print "    ... " NR - 8 " more" }'
  fi
  if [ -n "$refs" ]; then
    echo "  the reference's answer:"
    awk 'NR <= 8 { sub(/^ +/, ""); print "    " $0 } END { if (NR > 8) print "    ... " NR - 8 " more" }' <<<"$refs"
  fi
  echo "  report ($lines lines; all of it in $input.report):"
  awk 'NR <= 40 { print "    " $0 } END { if (NR > 40) print "    ... (" NR - 40 " more lines)" }' <<<"$report"
  echo "  input: $input ($(wc -c <"$input") bytes)"
  echo "  reproduce (fails while the disagreement stands):"
  echo "    $(reproduce_command "$target" "$input")"
  cat >"$input.REPRODUCE" <<REPRO
# $target: found by 'scripts/fuzz/fuzz.sh $mode' on $(date -u +%Y-%m-%dT%H:%M:%SZ) ($how)
# rebuild the fuzzer with this run's variables and replay the input (prints the report):
$(reproduce_command "$target" "$input")
# once fixed, keep it as a regression input that make test replays on every backend:
cp $input fuzz/corpus/$target/regress-$(basename "$input")
REPRO
}
