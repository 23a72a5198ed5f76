#!/usr/bin/env bash
# Installs the Debian 12 packages collide needs (DESIGN.md section 2) that are missing.
# Idempotent and quiet when everything is present. As root it runs apt-get; otherwise it
# prints the apt-get line to run and fails, so a build never goes on half-equipped.
#   install-deps.sh              the native packages (make, make test, make bench, and the
#                                data of make real-scenes: bench/scenes/real.list)
#   install-deps.sh cross-wasm32 what scripts/check/cross-test-wasm.sh needs: WASI's C library, clang's
#                                wasm32 runtime, the wasm linker and archiver, Node (WASI)
#   install-deps.sh cross-ARCH   what scripts/check/cross-test.sh ARCH needs (ARCH: arm64, s390x):
#                                the cross compiler, its C library, sanitizer and C++
#                                runtimes, qemu-user (clang-14 is native), and ARCH as a
#                                dpkg foreign architecture (the script downloads that
#                                architecture's libraries into a private sysroot under build/)
set -euo pipefail

cross=
case "${1:-}" in
  "") ;;
  cross-arm64) cross=arm64 triple=aarch64-linux-gnu ;;
  cross-s390x) cross=s390x triple=s390x-linux-gnu ;;
  cross-wasm32) cross=wasm32 ;;
  *)
    echo "usage: install-deps.sh [cross-arm64|cross-s390x|cross-wasm32]" >&2
    exit 2
    ;;
esac

packages=(
  make gcc g++ pkg-config
  cmake                       # make install-check: the CMake package (find_package) is used
  clang clang-14 libclang-rt-14-dev # `clang` (the name the build uses), libFuzzer, sanitizers
  libsimde-dev                # portable SIMD intrinsics
  libcriterion-dev            # unit tests
  libgmp-dev                  # exact arithmetic: the segment-against-sphere oracle
  libxxhash-dev               # the digests' hash (header only: XXH_INLINE_ALL)
  libbenchmark-dev libbenchmark-tools
  python3 python3-matplotlib python3-scipy python3-yaml
  zip                         # seed corpora for ClusterFuzzLite
)
# The peer engines: the package column of bench/peers/peers.list (found from this script's
# folder upwards, so that the script may move within the checkout).
peer_list=
for dir in "$(dirname "${BASH_SOURCE[0]}")"/{.,..,../..}; do
  if [ -f "$dir/bench/peers/peers.list" ]; then
    peer_list=$dir/bench/peers/peers.list
    break
  fi
done
[ -n "$peer_list" ] || {
  echo "install-deps: bench/peers/peers.list not found above $(dirname "${BASH_SOURCE[0]}")" >&2
  exit 1
}
mapfile -t peer_packages < <(awk '/^[a-z]/ { print $2 }' "$peer_list")
packages+=("${peer_packages[@]}")
# The real scenes' data (make real-scenes): the package column of bench/scenes/real.list, beside
# the peer list in the same checkout ('|'-separated columns).
# A tree without bench/scenes/ has no real scenes: nothing to install for them.
real_list=${peer_list%/peers/peers.list}/scenes/real.list
if [ -f "$real_list" ]; then
  mapfile -t real_packages < <(awk -F'|' '/^[a-z]/ { gsub(/[ \t]/, "", $2); print $2 }' "$real_list" | sort -u)
  packages+=("${real_packages[@]}")
fi
if [ "$cross" = wasm32 ]; then
  packages=(
    wasi-libc libclang-rt-14-dev-wasm32 # the C library and compiler runtime for wasm32-wasi
    lld-14 llvm-14                      # wasm-ld; llvm-ar-14 (GNU ar writes no index wasm-ld reads)
  )
  # Node (its WASI module runs the programs): Debian's nodejs unless a node is there already.
  command -v node > /dev/null 2>&1 || packages+=(nodejs)
elif [ -n "$cross" ]; then
  # Never the foreign architecture's -dev packages: they conflict with the native ones (e.g.
  # libcriterion-dev:arm64 removes libcriterion-dev); cross-test.sh unpacks them under build/.
  packages=(
    qemu-user                          # runs the cross-built tests
    "gcc-$triple" "libc6-dev-$cross-cross" # the compiler and its C library
    "libasan8-$cross-cross" "libubsan1-$cross-cross" # gcc's sanitizer runtimes
    "libstdc++6-$cross-cross"          # the C++ runtime of the clang-built fuzzers (libFuzzer)
  )
  if ! dpkg --print-foreign-architectures | grep -qx "$cross"; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "install-deps: $cross is not a dpkg architecture here; as root, run:" >&2
      echo "  dpkg --add-architecture $cross && apt-get update" >&2
      exit 1
    fi
    echo "install-deps: adding $cross as a dpkg foreign architecture (for its libraries)"
    dpkg --add-architecture "$cross"
    apt-get update -q
  fi
fi

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
