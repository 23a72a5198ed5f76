# The foreign libraries of scripts/check/cross-test.sh (sourced by it, after its settings): the
# target's GMP (the sweep oracle of the replays), Criterion (the unit suite) and clang's runtimes
# (libFuzzer, sanitizers) with what they need at run time, downloaded with apt-get and unpacked
# into a private sysroot build/sysroot-ARCH, never installed (their -dev packages conflict with
# the native ones). A static target (the list's link column) needs only the archives of the
# -dev packages, no run-time closure. Sets libdir, unit, fuzz and resource.
# shellcheck shell=bash disable=SC2034,SC2154 # variables shared with cross-test.sh

make_sysroot() {
  local dev=(libgmp-dev) runtime=() closure='' wanted deb_file
  [ "$link" = static ] || runtime=(libgmp10)
  unit=no
  if has_stage unit && apt-cache show "libcriterion-dev:$deb" > /dev/null 2>&1; then
    dev+=(libcriterion-dev) runtime+=(libcriterion3) unit=yes
  fi
  fuzz="fuzzing not run: Debian 12 has no libclang-rt-14-dev (libFuzzer) for $deb"
  if has_stage fuzz && apt-cache show "libclang-rt-14-dev:$deb" > /dev/null 2>&1; then
    dev+=(libclang-rt-14-dev) fuzz=yes
  fi
  if [ ${#runtime[@]} -gt 0 ]; then
    closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
      --no-replaces --no-enhances "${runtime[@]/%/:$deb}" | sed -n "s/^\([a-z0-9][^ ]*\):$deb\$/\1/p" |
      grep -vxE 'libc6|libgcc-s1|gcc-12-base' | sort -u) ||
      fail "apt-cache cannot resolve ${runtime[*]} for $deb"
  fi
  # shellcheck disable=SC2086 # one word per package
  wanted=$(printf '%s\n' "${dev[@]}" $closure | sort -u | tr '\n' ' ')
  if [ "$(cat "$sysroot/.packages" 2> /dev/null || true)" != "$wanted" ]; then
    echo "== cross-test $arch: sysroot $sysroot: $wanted"
    rm -rf "$sysroot" "$out/debs"
    mkdir -p "$sysroot" "$out/debs"
    # shellcheck disable=SC2086 # one word per package
    (cd "$out/debs" && apt-get download -q $(printf "%s:$deb " $wanted) > download.log 2>&1) ||
      { cat "$out/debs/download.log" >&2; fail "apt-get download of the $deb libraries"; }
    for deb_file in "$out"/debs/*.deb; do dpkg -x "$deb_file" "$sysroot" || fail "dpkg -x $deb_file"; done
    echo "$wanted" > "$sysroot/.packages"
  fi
  libdir=$sysroot/usr/lib/$multiarch
  [ -e "$libdir/libgmp.a" ] || fail "$libdir/libgmp.a missing from the sysroot"
  # clang's resource folder for this target: the host's headers, the target's runtimes from the
  # sysroot, and a link name for the C++ runtime libFuzzer needs (the cross package ships only
  # libstdc++.so.6).
  resource=$sysroot/clang-resource
  if [ "$fuzz" = yes ]; then
    local version_dir
    version_dir=$(clang-14 -print-resource-dir)
    rm -rf "$resource"
    mkdir -p "$resource/lib" "$resource/link"
    ln -s "$version_dir/include" "$resource/include"
    ln -s "$version_dir/share" "$resource/share"
    ln -s "$sysroot/usr/lib/llvm-14/lib/clang/$(basename "$version_dir")/lib/linux" "$resource/lib/linux"
    ln -s "/usr/$triple/lib/libstdc++.so.6" "$resource/link/libstdc++.so"
    [ -e "$resource/lib/linux/libclang_rt.fuzzer-${triple%%-*}.a" ] ||
      fuzz="fuzzing not run: libclang-rt-14-dev:$deb has no libFuzzer for $triple"
  fi
}
