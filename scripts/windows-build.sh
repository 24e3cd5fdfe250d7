#!/usr/bin/env bash
# Cross-builds build-windows/context-pack.exe with mingw-w64 from Debian's packages.
#   scripts/windows-build.sh [--fresh] [--deps-only]
# libgit2 is the one every build from source takes: 1.9 from Debian 13's source package
# (scripts/libgit2-source.sh), built statically by cmake/Libgit2.cmake with this cross
# toolchain and without HTTPS, SSH, NTLM or GSSAPI (the tool never connects). The two
# dependencies its +ds source leaves out of deps/ are cross-built here first, each from its own
# Debian source package: PCRE2 (libgit2's regex backend on Windows) and http-parser. zlib is
# Debian's libz-mingw-w64-dev. fmt is used header-only (FMT_HEADER_ONLY), CLI11 and nlohmann/json are
# header-only; their headers are Debian's -dev packages' own, copied into the prefix so that
# the cross build never sees /usr/include.
# The sources come with `apt-get source` through a deb-src line for the Debian archive this
# machine's apt reads (scripts/debian-mirror.sh), with apt state of its own: the system's
# sources are not touched. Everything built is kept under
# ${XDG_CACHE_HOME:-~/.cache}/context-pack/windows/<key> (CONTEXT_PACK_CACHE replaces
# ~/.cache/context-pack), keyed on the recipe, the compiler and the packages used, so a second
# run only builds context-pack. --fresh builds the dependencies again; --deps-only stops after
# them.
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
fresh=0
deps_only=0
for arg in "$@"; do
    case $arg in
        --fresh) fresh=1 ;;
        --deps-only) deps_only=1 ;;
        *) echo "usage: scripts/windows-build.sh [--fresh] [--deps-only]" >&2; exit 2 ;;
    esac
done
jobs=${CONTEXT_PACK_JOBS:-$(nproc)}
triple=x86_64-w64-mingw32
packages=(g++-mingw-w64-x86-64-posix libz-mingw-w64-dev dpkg-dev cmake make pkg-config
          libfmt-dev libcli11-dev nlohmann-json3-dev)
"$checkout/scripts/install-deps.sh" "${packages[@]}"

# The recipe's version: change it when the way the dependencies are built changes.
recipe=2
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:?no release codename in /etc/os-release}")
mirror=${CONTEXT_PACK_DEBIAN_MIRROR:-$("$checkout/scripts/debian-mirror.sh")}
key=$({ echo "$recipe" "$suite" "$mirror"
        dpkg-query -W "${packages[@]}"
        "$triple-g++-posix" --version | head -n1; } | sha256sum | cut -c1-16)
cache=${CONTEXT_PACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/context-pack}/windows
top=$cache/$key
prefix=$top/prefix
mkdir -p "$cache"
for old in "$cache"/*; do  # the dependencies of other keys, and interrupted builds
    if [ -e "$old" ] && [ "$old" != "$top" ]; then rm -rf "$old"; fi
done
[ "$fresh" -eq 1 ] && rm -rf "$top"

step() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    echo "windows: $name: $((SECONDS - start)) s" >&2
}

# The CMake toolchain of the cross build: mingw-w64's posix-threads compilers, libraries and
# headers only from mingw-w64's own tree and the prefix.
write_toolchain() {
    cat >"$top/toolchain.cmake" <<EOF
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER $triple-gcc-posix)
set(CMAKE_CXX_COMPILER $triple-g++-posix)
set(CMAKE_RC_COMPILER $triple-windres)
set(CMAKE_FIND_ROOT_PATH /usr/$triple $prefix)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_LIBDIR} $prefix/lib/pkgconfig:/usr/$triple/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
EOF
}

# Debian's source packages, unpacked with their patches applied.
fetch_sources() {
    local apt=$top/apt
    mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$top/src"
    echo "deb-src $mirror $suite main" >"$apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
                -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt" -o APT::Sandbox::User=root
                -o 'Acquire::Retries=3')
    apt-get "${opts[@]}" -qq update
    (cd "$top/src" && apt-get "${opts[@]}" -qq source pcre2 http-parser >/dev/null 2>&1)
    ls -d "$top"/src/*/ >&2
}

cross_cmake() {  # source dir, build dir, options...
    local src=$1 build=$2
    shift 2
    cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$top/toolchain.cmake" \
        -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF \
        "$@" >"$build.log" 2>&1 || { tail -n 30 "$build.log" >&2; return 1; }
    cmake --build "$build" -j"$jobs" >>"$build.log" 2>&1 || { tail -n 30 "$build.log" >&2; return 1; }
    cmake --install "$build" >>"$build.log" 2>&1
}

build_pcre2() {
    cross_cmake "$(echo "$top"/src/pcre2-*/)" "$top/build-pcre2" -DPCRE2_BUILD_PCRE2GREP=OFF \
        -DPCRE2_BUILD_TESTS=OFF -DPCRE2_SUPPORT_JIT=OFF -DPCRE2_BUILD_PCRE2_16=OFF \
        -DPCRE2_BUILD_PCRE2_32=OFF
}

# http-parser is one C file built with a Makefile for Unix: compiled here the same way.
build_http_parser() {
    local src
    src=$(echo "$top"/src/http-parser-*/)
    mkdir -p "$prefix/lib" "$prefix/include" "$top/build-http-parser"
    "$triple-gcc-posix" -O2 -DHTTP_PARSER_STRICT=0 -c "$src/http_parser.c" \
        -o "$top/build-http-parser/http_parser.o"
    "$triple-ar" rcs "$prefix/lib/libhttp_parser.a" "$top/build-http-parser/http_parser.o"
    cp "$src/http_parser.h" "$prefix/include/"
}

# The header-only libraries: Debian's headers and package configurations, and a
# configuration of fmt's own that makes fmt::fmt header-only.
install_headers() {
    mkdir -p "$prefix/include" "$prefix/share/cmake" "$prefix/lib/cmake/fmt"
    cp -r /usr/include/fmt /usr/include/CLI /usr/include/nlohmann "$prefix/include/"
    cp -r /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json "$prefix/share/cmake/"
    local version
    version=$(dpkg-query -W -f='${Version}' libfmt-dev | sed 's/+.*//')
    cat >"$prefix/lib/cmake/fmt/fmt-config.cmake" <<EOF
# fmt $version from Debian's libfmt-dev, header-only.
if(NOT TARGET fmt::fmt)
  add_library(fmt::fmt INTERFACE IMPORTED)
  set_target_properties(fmt::fmt PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "$prefix/include"
    INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
endif()
EOF
    echo "set(PACKAGE_VERSION $version)
set(PACKAGE_VERSION_COMPATIBLE TRUE)" >"$prefix/lib/cmake/fmt/fmt-config-version.cmake"
}

started=$SECONDS
if [ ! -f "$top/.complete" ]; then
    rm -rf "$top"
    mkdir -p "$top"
    write_toolchain
    echo "windows: building the dependencies into $top" >&2
    step sources fetch_sources
    step pcre2 build_pcre2
    step http-parser build_http_parser
    step headers install_headers
    rm -rf "$top/src" "$top"/build-*  # what remains is the prefix and the toolchain
    touch "$top/.complete"
fi
echo "windows: dependencies: $((SECONDS - started)) s ($top)" >&2
write_toolchain  # cheap, and not part of what is cached
[ "$deps_only" -eq 1 ] && exit 0

# context-pack itself, linked statically (libstdc++, winpthread and all), so that the .exe
# runs alone; its tests are Linux's.
build=$checkout/build-windows
log=$build/cross-build.log
mkdir -p "$build"
step_start=$SECONDS
source=$("$checkout/scripts/libgit2-source.sh")
cmake -S "$checkout" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$top/toolchain.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCONTEXT_PACK_TESTS=OFF \
    -DCONTEXT_PACK_WERROR=ON \
    -DCONTEXT_PACK_LIBGIT2_LINK=static -DCONTEXT_PACK_LIBGIT2_SOURCE="$source" \
    -DCMAKE_EXE_LINKER_FLAGS=-static >"$log" 2>&1 || { tail -n 30 "$log" >&2; exit 1; }
grep -- '-- libgit2' "$log" >&2 || true
cmake --build "$build" -j"$jobs" >>"$log" 2>&1 ||
    { grep -B2 -A8 -E 'error|Error' "$log" | head -n 60 >&2; exit 1; }
echo "windows: context-pack.exe: $((SECONDS - step_start)) s ($build/context-pack.exe)" >&2
