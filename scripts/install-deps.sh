#!/usr/bin/env bash
# Installs the Debian 12 packages collide needs (DESIGN.md section 2) that are missing.
# Idempotent and quiet when everything is present. As root it runs apt-get; otherwise it
# prints the apt-get line to run and fails, so a build never goes on half-equipped.
set -euo pipefail

packages=(
  make gcc g++ pkg-config
  cmake                       # make install-check: the CMake package (find_package) is used
  clang clang-14 libclang-rt-14-dev # `clang` (the name the build uses), libFuzzer, sanitizers
  libsimde-dev                # portable SIMD intrinsics
  libcriterion-dev            # unit tests
  libgmp-dev                  # exact arithmetic: the segment-against-sphere oracle
  libbenchmark-dev libbenchmark-tools
  libbullet-dev libbox2d-dev libchipmunk-dev # peer engines (bench/peers)
  python3 python3-matplotlib python3-scipy python3-yaml
  zip                         # seed corpora for ClusterFuzzLite
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: not root; run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${missing[*]}"
