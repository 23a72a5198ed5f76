#!/usr/bin/python3
"""Shrinks the values of a failing fuzz input's bytes, after libFuzzer's crash minimization has
shrunk its length (scripts/fuzz/fuzz.sh calls this; a user need not).

libFuzzer's minimizer makes an input shorter, but a target reads counts and grid values from
its bytes: a short aabb input can still decode to 127 identical boxes. Here each byte in turn
is lowered (to 0, else by halving the gap to its value) while the input still fails the same
way: the fuzzer exits non-zero and the backends its report marks as differing are the same set.

usage: fuzz-shrink.py FUZZER INPUT OUTPUT SECONDS
Writes the smallest failing input found within SECONDS to OUTPUT (the input itself if none).
"""
import os
import re
import subprocess
import sys
import time


def signature(fuzzer, data, path):
    """(fails, the set of names that start the report's DIFFERS lines)."""
    with open(path, "wb") as f:
        f.write(data)
    run = subprocess.run([fuzzer, "-runs=1", path], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, timeout=30)
    text = run.stderr.decode("utf-8", "replace")
    names = {line.split()[0] for line in text.splitlines() if "DIFFERS" in line and line.split()}
    kinds = set(re.findall(r"ERROR: AddressSanitizer: [\w-]+|runtime error", text))
    return run.returncode != 0, frozenset(names | kinds)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    fuzzer, source, output, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    deadline = time.monotonic() + seconds
    with open(source, "rb") as f:
        best = bytearray(f.read())
    scratch = output + ".try"
    fails, want = signature(fuzzer, bytes(best), scratch)
    if fails:
        for i in range(len(best)):
            hi = best[i]
            lo = 0
            # the smallest value in [lo, hi] that still fails, by bisection (not monotonic in
            # general: a heuristic, and every candidate kept is checked)
            while lo < hi and time.monotonic() < deadline:
                mid = (lo + hi) // 2
                trial = bytearray(best)
                trial[i] = mid
                ok, sig = signature(fuzzer, bytes(trial), scratch)
                if ok and sig == want:
                    best, hi = trial, mid
                else:
                    lo = mid + 1
            if time.monotonic() >= deadline:
                break
    with open(output, "wb") as f:
        f.write(bytes(best))
    if os.path.exists(scratch):
        os.remove(scratch)


if __name__ == "__main__":
    main()
