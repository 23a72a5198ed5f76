#!/usr/bin/env bash
# Installs the Debian 12 packages collide needs (DESIGN.md section 2) that are missing.
# Idempotent and quiet when everything is present. As root it runs apt-get; otherwise it
# prints the apt-get line to run and fails, so a build never goes on half-equipped.
#   install-deps.sh              the native packages (make, make test, make bench, and the
#                                data of make real-scenes: bench/scenes/real.list)
#   install-deps.sh cross-wasm32 what scripts/check/cross-test-wasm.sh needs: WASI's C library, clang's
#                                wasm32 runtime, the wasm linker and archiver, Node (WASI)
#   install-deps.sh cross-ARCH   what scripts/check/cross-test.sh ARCH needs (ARCH: a row of
#                                scripts/check/cross-targets.list, the one list of targets):
#                                the cross compiler and its C library, qemu-user, and only
#                                what the row's stages use: gcc's sanitizer runtimes
#                                (sanitize), the C++ runtime (fuzz), and ARCH as a dpkg
#                                foreign architecture when a stage links the target's
#                                libraries (cross-test.sh downloads them into a private
#                                sysroot under build/); clang-14 is native
# Prints what it installed, or that everything was there already.
set -euo pipefail

# The row of ARCH in the list (found from this script's folder upwards, like the peer list
# below): its columns as the list's header names them, blanks trimmed.
target_row() {
  local dir
  for dir in "$(dirname "${BASH_SOURCE[0]}")"/{.,..,../..}; do
    [ -f "$dir/scripts/check/cross-targets.list" ] || continue
    awk -F'|' -v a="$1" '!/^#/ && NF > 1 { for (i = 1; i <= NF; i++) gsub(/^[ \t]+|[ \t]+$/, "", $i)
      if ($1 == a && $5 != "native") { print $3 "|" $4 "|" $5 "|" $8; found = 1 } }
      END { exit !found }' "$dir/scripts/check/cross-targets.list"
    return
  done
  echo "install-deps: scripts/check/cross-targets.list not found above $(dirname "${BASH_SOURCE[0]}")" >&2
  return 1
}
cross=
case "${1:-}" in
  "") ;;
  cross-wasm32) cross=wasm32 ;;
  cross-*)
    cross=${1#cross-}
    row=$(target_row "$cross") || {
      echo "usage: install-deps.sh [cross-ARCH]: $cross is not a row of scripts/check/cross-targets.list" >&2
      exit 2
    }
    IFS='|' read -r triple deb _ stages <<< "$row"
    ;;
  *)
    echo "usage: install-deps.sh [cross-ARCH] (ARCH: a row of scripts/check/cross-targets.list)" >&2
    exit 2
    ;;
esac

packages=(
  make gcc g++ pkg-config
  cmake                       # make install-check: the CMake package (find_package) is used
  clang clang-14 libclang-rt-14-dev # `clang` (the name the build uses), libFuzzer, sanitizers
  llvm-14                     # llvm-profdata-14, llvm-cov-14: make fuzz-coverage
  libsimde-dev                # portable SIMD intrinsics
  libcriterion-dev            # unit tests
  libgmp-dev                  # exact arithmetic: the segment-against-sphere oracle
  libxxhash-dev               # the digests' hash (header only: XXH_INLINE_ALL)
  libbenchmark-dev libbenchmark-tools
  python3 python3-matplotlib python3-scipy python3-yaml
  python3-pygame              # pygame's masks beside collide's (scripts/bench/pygame-masks.py)
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
# The kernel peers (SDL2, cglm, glm, ...): the package column of bench/kernel-peers/kernel-peers.list
# in the same checkout.
kernel_list=${peer_list%/peers/peers.list}/kernel-peers/kernel-peers.list
if [ -f "$kernel_list" ]; then
  mapfile -t kernel_packages < <(awk '/^[a-z]/ { print $3 }' "$kernel_list" | sort -u)
  packages+=("${kernel_packages[@]}")
fi
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
    "gcc-$triple" "libc6-dev-$deb-cross" # the compiler and its C library
  )
  has() { [[ " $stages " == *" $1 "* ]]; }
  ! has sanitize || packages+=("libasan8-$deb-cross" "libubsan1-$deb-cross") # gcc's sanitizers
  ! has fuzz || packages+=("libstdc++6-$deb-cross") # the clang-built fuzzers' C++ runtime (libFuzzer)
  libs=no
  for s in unit replay clang sanitize fuzz; do ! has "$s" || libs=yes; done
  if [ "$libs" = yes ] && ! dpkg --print-foreign-architectures | grep -qx "$deb"; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "install-deps: $deb is not a dpkg architecture here; as root, run:" >&2
      echo "  dpkg --add-architecture $deb && apt-get update" >&2
      exit 1
    fi
    echo "install-deps: adding $deb as a dpkg foreign architecture (for its libraries)"
    dpkg --add-architecture "$deb"
    apt-get update -q
  fi
fi

# One dpkg-query for all of them (one a package took seconds each on a loaded machine). It
# exits 1 when a package was never installed, which is the case this script is for: its status
# must not end the script (set -e, pipefail), only its lines count.
installed=" $({ dpkg-query -W -f='${Package}:${Status}\n' "${packages[@]}" 2>/dev/null || true; } |
  sed -n 's/^\([^:]*\)\(:[a-z0-9]*\)\{0,1\}:install ok installed$/\1/p' | tr '\n' ' ')"
missing=()
for p in "${packages[@]}"; do
  [[ $installed == *" $p "* ]] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} Debian packages${cross:+ of cross-$cross} are installed"
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
