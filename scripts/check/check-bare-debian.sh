#!/usr/bin/env bash
# Checks that the README's two commands work on a bare Debian 12: a fresh debootstrap root
# (minbase plus build-essential, git and python3, nothing else), a clean clone of this
# repository's HEAD inside it, then `make test` and `make bench` run in a chroot. Everything
# else (compilers, SIMDe, Criterion, Google Benchmark, the peer engines, matplotlib) must be
# installed by the project's own scripts/install-deps.sh.
#
#   scripts/check/check-bare-debian.sh [COMMAND...]     default: make test && make bench BENCH=quick
#   scripts/check/check-bare-debian.sh 'make test' 'make bench'
#
# Needs root (debootstrap, chroot, mounts) and Debian's package mirror. The bare base is made
# once and kept as a tarball (build/bare-debian/base.tar); every check unpacks it anew, so each
# run starts from a root where nothing was installed by hand. Logs: build/bare-debian/check.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

[ "$(id -u)" -eq 0 ] || { echo "check-bare-debian: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >/dev/null

work=$repo/build/bare-debian
base=$work/base.tar
root=$work/root
mirror=${BARE_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$work"
[ $# -gt 0 ] || set -- 'make test' 'make bench BENCH=quick'

mounted=()
cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'echo "check-bare-debian: interrupted" >&2; exit 130' INT TERM

if [ ! -f "$base" ]; then
  echo "check-bare-debian: debootstrap bookworm (minbase + build-essential git python3) from $mirror"
  rm -rf --one-file-system "$work/base"
  debootstrap --variant=minbase --include=build-essential,git,python3,ca-certificates \
    bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log"; exit 1; }
  tar -C "$work/base" -cf "$base.tmp" . && mv "$base.tmp" "$base"
  rm -rf --one-file-system "$work/base"
fi

# A run killed before its cleanup may have left /proc, /sys and /dev mounted in the old root:
# unmount them first, and never let rm cross into a mounted file system (that would be the
# host's /dev).
unmount_leftovers() {
  local m
  for m in $(awk -v r="$root/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
  if awk -v r="$root/" 'index($2, r) == 1 {found = 1} END {exit !found}' /proc/mounts; then
    echo "check-bare-debian: file systems still mounted under $root; not removing it" >&2
    exit 1
  fi
}
unmount_leftovers
echo "check-bare-debian: fresh root in $root"
rm -rf --one-file-system "$root"
mkdir -p "$root"
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The host's apt sources (the same Debian 12 archive), so apt-get inside finds the packages.
if [ -d /etc/apt/sources.list.d ]; then cp -a /etc/apt/sources.list.d/. "$root/etc/apt/sources.list.d/"; fi
[ ! -f /etc/apt/sources.list ] || cp /etc/apt/sources.list "$root/etc/apt/sources.list"
git clone -q --no-local "$repo" "$root/work/collide"

for m in proc sys dev dev/pts; do
  mkdir -p "$root/$m"
  case $m in
    proc) mount -t proc proc "$root/proc" ;;
    *) mount --bind "/$m" "$root/$m" ;;
  esac
  mounted+=("$root/$m")
done

log=$work/check.log
: >"$log"
status=0
for cmd in "$@"; do
  echo "check-bare-debian: [$cmd] in the chroot (log $log)"
  start=$(date +%s)
  if chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
    bash -c "cd /work/collide && $cmd" >>"$log" 2>&1; then
    echo "check-bare-debian: [$cmd] passed in $(($(date +%s) - start)) s"
  else
    echo "check-bare-debian: [$cmd] FAILED after $(($(date +%s) - start)) s; last lines:"
    tail -n 25 "$log" | sed 's/^/  /'
    status=1
    break
  fi
done
exit $status
