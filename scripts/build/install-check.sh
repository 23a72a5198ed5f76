#!/usr/bin/env bash
# make install-check: installs collide into a scratch prefix and uses it as another project
# would, then uninstalls it.
#   scripts/build/install-check.sh MAKE CC OUT
# 1. make install PREFIX=OUT/prefix (a relative PREFIX: the pkg-config file must still name an
#    absolute one); the shared library's soname, links and exported names (the public col_ API,
#    exactly the static library's public names).
# 2. core/examples/use-installed built with plain `pkg-config --cflags --libs collide` (it must
#    load the installed libcollide.so.0) and with `--static` (-static: no libcollide.so needed),
#    and through CMake's find_package(collide) (collide::collide and collide::collide_static);
#    every program run. The package's version file answers version requests as documented.
# 3. The whole static library linked into a shared one (it is built with -fPIC).
# 4. make uninstall: files that are not collide's stay, and nothing of collide's is left.
set -euo pipefail
make=${1:?usage: scripts/build/install-check.sh MAKE CC OUT}
cc=${2:?usage: scripts/build/install-check.sh MAKE CC OUT}
out=${3:?usage: scripts/build/install-check.sh MAKE CC OUT}
top=$(pwd)
rel=$out/prefix
prefix=$top/$rel
example=core/examples/use-installed

fail() {
  echo "install-check: FAILED: $*" >&2
  exit 1
}
# Runs a command with its output in a log, shown only when it fails.
logged() {
  local log=$1
  shift
  "$@" > "$log" 2>&1 || { cat "$log" >&2; fail "$* (log: $log)"; }
}

rm -rf "$out"
mkdir -p "$out"
logged "$out/install.log" "$make" --no-print-directory install PREFIX="$rel"

# 1. What was installed.
pc_prefix=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --variable=prefix collide)
[ "$pc_prefix" = "$prefix" ] || fail "collide.pc names prefix '$pc_prefix', not '$prefix'"
lib=$prefix/lib
so=$(cd "$lib" && echo libcollide.so.*.*.*)
[ -f "$lib/$so" ] || fail "no libcollide.so.X.Y.Z in $lib"
soname=$(readelf -d "$lib/$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libcollide.so.0 ] || fail "$so has soname '$soname', not libcollide.so.0"
[ "$(readlink "$lib/libcollide.so.0")" = "$so" ] || fail "libcollide.so.0 does not point to $so"
[ "$(readlink "$lib/libcollide.so")" = libcollide.so.0 ] ||
  fail "libcollide.so does not point to libcollide.so.0"
nm -D --defined-only "$lib/$so" | awk '{print $NF}' | sort > "$out/exported.txt"
nm -g --defined-only "$lib/libcollide.a" | awk 'NF == 3 && $3 ~ /^col_[a-z0-9]/ {print $3}' |
  sort -u > "$out/public.txt"
[ -s "$out/public.txt" ] || fail "no public col_ names found in libcollide.a"
diff "$out/public.txt" "$out/exported.txt" > "$out/exported.diff" || {
  cat "$out/exported.diff" >&2
  fail "$so exports other names than the public API ('<' missing, '>' extra)"
}

# The example prints this line when the library works.
expect_runs() { # NAME COMMAND...
  local name=$1
  shift
  "$@" > "$out/$name.out" 2>&1 || { cat "$out/$name.out" >&2; fail "$name did not run"; }
  grep -q '^mtd (-32, 0) hit 1$' "$out/$name.out" ||
    { cat "$out/$name.out" >&2; fail "$name printed something else"; }
}
# A program that must load the installed shared library (and no other copy).
uses_installed_so() { # PROGRAM
  readelf -d "$1" | grep -q 'NEEDED.*\[libcollide\.so\.0\]' ||
    fail "$1 does not need libcollide.so.0: $(readelf -d "$1" | grep NEEDED)"
  LD_LIBRARY_PATH=$lib ldd "$1" > "$out/ldd.txt" || { cat "$out/ldd.txt" >&2; fail "ldd $1"; }
  grep -q "libcollide\.so\.0 => $lib/libcollide\.so\.0 " "$out/ldd.txt" ||
    { cat "$out/ldd.txt" >&2; fail "$1 does not load $lib/libcollide.so.0"; }
}
static_only() { # PROGRAM
  if readelf -d "$1" 2>&1 | grep -q libcollide; then
    fail "$1 needs a shared libcollide: $(readelf -d "$1" | grep NEEDED)"
  fi
}

# 2a. pkg-config, shared and static.
logged "$out/pkg-config.log" env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" \
  "$make" --no-print-directory -C "$example" OUT="$top/$out" CC="$cc"
uses_installed_so "$out/example"
expect_runs example env LD_LIBRARY_PATH="$lib" "$out/example"
static_only "$out/example-static"
expect_runs example-static "$out/example-static"

# 2b. CMake: the build tree's programs carry the library folder as their rpath.
logged "$out/cmake-configure.log" cmake -S "$example" -B "$out/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc"
logged "$out/cmake-build.log" cmake --build "$out/cmake"
uses_installed_so "$out/cmake/example"
expect_runs cmake-example "$out/cmake/example"
static_only "$out/cmake/example-static"
expect_runs cmake-example-static "$out/cmake/example-static"

# The version file: REQUEST -> compatible, exact.
version_file=$lib/cmake/collide/collideConfigVersion.cmake
version=$(sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)")$/\1/p' "$version_file")
minor=${version%.*}
cat > "$out/version-request.cmake" <<'CMAKE'
set(PACKAGE_FIND_VERSION "${REQUEST}")
if(REQUEST)
  string(REPLACE "." ";" parts "${REQUEST}")
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(LENGTH parts count)
  if(count GREATER 1)
    list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  endif()
endif()
set(CMAKE_SIZEOF_VOID_P 8)
include("${FILE}")
message("${PACKAGE_VERSION_COMPATIBLE}:${PACKAGE_VERSION_EXACT}")
CMAKE
major=${version%%.*}
next_minor=$((${minor#*.} + 1))
for want in ":TRUE:FALSE" "$minor:TRUE:TRUE" "$version:TRUE:TRUE" "$major.$next_minor:FALSE:FALSE" \
  "$((major + 1)).0:FALSE:FALSE" "9.0:FALSE:FALSE"; do
  IFS=: read -r request compatible exact <<< "$want"
  got=$(cmake -DREQUEST="$request" -DFILE="$version_file" -P "$out/version-request.cmake" 2>&1) ||
    fail "cmake -P on $version_file: $got"
  [ "$got" = "$compatible:$exact" ] ||
    fail "find_package(collide $request) against $version: compatible:exact $got, expected $compatible:$exact"
done

# 3. The static library inside a shared one.
logged "$out/whole.log" "$cc" -shared -o "$out/libwhole.so" -Wl,--whole-archive \
  "$lib/libcollide.a" -Wl,--no-whole-archive -pthread -lm

# 4. Uninstall: a file of someone else's in the same folders stays; nothing of collide's does.
echo other > "$prefix/include/other.h"
echo other > "$prefix/lib/pkgconfig/other.pc"
logged "$out/uninstall.log" "$make" --no-print-directory uninstall PREFIX="$rel"
[ -f "$prefix/include/other.h" ] && [ -f "$prefix/lib/pkgconfig/other.pc" ] ||
  fail "make uninstall removed files collide did not install"
rm "$prefix/include/other.h" "$prefix/lib/pkgconfig/other.pc"
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
for d in include/collide lib/cmake/collide; do
  [ ! -e "$prefix/$d" ] || fail "make uninstall left the folder $d"
done

echo "install-check: make install into a scratch prefix; example built and run with pkg-config" \
  "(shared: libcollide.so.0 loaded from the prefix; --static: no libcollide.so needed) and with" \
  "CMake's find_package (collide::collide, collide::collide_static); $(wc -l < "$out/public.txt")" \
  "public names exported, no internal ones; libcollide.a linked into a shared library;" \
  "make uninstall left no file: ok"
