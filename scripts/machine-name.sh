#!/usr/bin/env bash
# Prints a short, stable name for this machine, used as the results folder:
# <cpu model>-<logical cpus>cpu, lowercased, e.g. "amd-epyc-2cpu". COLLIDE_MACHINE overrides.
set -euo pipefail
if [ -n "${COLLIDE_MACHINE:-}" ]; then
  echo "$COLLIDE_MACHINE"
  exit 0
fi
model=$(grep -m1 -E '^(model name|Model|cpu model)' /proc/cpuinfo 2>/dev/null | cut -d: -f2- || true)
[ -n "$model" ] || model=$(uname -m)
slug=$(echo "$model" | tr '[:upper:]' '[:lower:]' | sed -E 's/\((r|tm)\)//g; s/(cpu|processor|with.*graphics).*$//; s/[^a-z0-9]+/-/g; s/^-+|-+$//g')
echo "${slug:-unknown}-$(nproc)cpu"
