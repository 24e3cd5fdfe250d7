#!/usr/bin/env bash
# Builds the Debian package of context-pack for the Debian release it runs on and prints its
# path.
#   scripts/package.sh [cmake -D options...]
# The binary links libgit2 1.9 built here from Debian 13's own source package, as the build
# from source does (scripts/libgit2-source.sh, cmake/Libgit2.cmake): without its network
# transports, whose set-up at start (a TLS library parsing the system's CA bundle) and 20-odd
# shared libraries made a small job cost twice the git CLI's time; with our two patches. It is
# declared with Static-Built-Using, as Debian declares the libraries built into its Go and Rust
# programs. The C++ runtime (libstdc++ and libgcc, from the compiler's gcc-N source) is linked
# in too: loading and relocating libstdc++.so cost the package about 2.5 ms of every start,
# a third of a small job on a large tree. zlib and libdeflate stay the release's shared
# libraries (docs/design.md). It is
# built Release with dpkg-buildflags' hardening flags (libgit2 too) into build-deb/
# (CONTEXT_PACK_DEB_BUILD replaces it), installed there with `cmake --install --strip`, and
# packed with dpkg-deb as root-owned files. Depends comes from dpkg-shlibdeps;
# the package's files beside the install: /usr/share/doc/context-pack/copyright (DEP-5, the
# MIT text of LICENSE), changelog.gz (packaging/changelog, whose version must be the
# project's), man pages compressed with gzip -9n. Installs dpkg-dev when missing.
# scripts/ci/check-package.sh checks the result with lintian and runs it from a scratch root.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh" dpkg-dev
source=$("$root/scripts/libgit2-source.sh")

dir=${CONTEXT_PACK_DEB_BUILD:-$root/build-deb}
version=$(sed -n 's/^project(context-pack VERSION \([0-9.]*\) .*/\1/p' "$root/CMakeLists.txt")
changelog_version=$(dpkg-parsechangelog -l "$root/packaging/changelog" -S Version)
if [ "$version" != "$changelog_version" ]; then
    echo "package.sh: packaging/changelog's latest entry is $changelog_version," \
        "CMakeLists.txt's version is $version: add a changelog entry" >&2
    exit 1
fi
arch=$(dpkg --print-architecture)

# Debian's build flags, hardening included, without their -g and -O2 (Release sets -O3).
flags() {
    DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1" |
        tr ' ' '\n' | grep -v -e '^-g$' -e '^-O2$' -e '^-ffile-prefix-map=' | tr '\n' ' '
}
launcher=()
if command -v ccache >/dev/null 2>&1; then  # as scripts/build.sh
    export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    ${launcher[@]+"${launcher[@]}"} \
    -DCONTEXT_PACK_LIBGIT2_LINK=static -DCONTEXT_PACK_LIBGIT2_SOURCE="$source" \
    -DCONTEXT_PACK_STATIC_RUNTIME=OFF -DCONTEXT_PACK_TESTS=OFF \
    -DCMAKE_C_FLAGS="$(flags CPPFLAGS)$(flags CFLAGS)" \
    -DCMAKE_CXX_FLAGS="$(flags CPPFLAGS)$(flags CXXFLAGS)" \
    -DCMAKE_EXE_LINKER_FLAGS="$(flags LDFLAGS) -static-libstdc++ -static-libgcc" "$@" >/dev/null
cmake --build "$dir" -j"${CONTEXT_PACK_JOBS:-$(nproc)}" --target context-pack >&2

stage=$dir/deb-root
rm -rf "$stage"
DESTDIR=$stage cmake --install "$dir" --strip >/dev/null
objcopy --remove-section=.comment "$stage/usr/bin/context-pack"  # compilers' names, as dh_strip
find "$stage/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +
doc=$stage/usr/share/doc/context-pack
mkdir -p "$doc"
gzip -9nc "$root/packaging/changelog" > "$doc/changelog.gz"
{
    cat <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: context-pack

Files: *
EOF
    sed -n 's/^Copyright \((c) \)\{0,1\}\(.*\)/Copyright: \2/p' "$root/LICENSE" | head -n 1
    echo "License: Expat"
    echo
    echo "License: Expat"
    # The licence text, each line indented by one space and blank lines written as " .".
    sed -e '1,/^Copyright /d' -e 's/^$/./' -e 's/^/ /' "$root/LICENSE" | sed '1{/^ \.$/d}'
} > "$doc/copyright"

# Files 0644, directories and the binary 0755, whatever the umask.
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/usr/bin/context-pack"

# Depends from dpkg-shlibdeps, which reads a debian/control naming the package.
work=$(mktemp -d "${TMPDIR:-/tmp}/context-pack-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: context-pack\n\nPackage: context-pack\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "$stage/usr/bin/context-pack" |
    sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package.sh: dpkg-shlibdeps computed no Depends" >&2; exit 1; }
# The source packages built into the binary: libgit2 (the version of the source built), the
# http-parser whose archive it links, and the compiler's whose libstdc++ it links.
libgit2_version=$(cat "$source/debian-version")
http_parser_version=$(dpkg-query -W -f='${source:Version}' libhttp-parser-dev)
libstdcxx=$(dpkg -S "$(c++ -print-file-name=libstdc++.a)" | cut -d: -f1)
gcc_source=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' "$libstdcxx")
static_built_using="libgit2 (= $libgit2_version), http-parser (= $http_parser_version), $gcc_source"

mkdir -p "$stage/DEBIAN"
(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
size=$(du -sk --apparent-size "$stage/usr" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    -e "s/@DEPENDS@/$depends/" -e "s/@STATIC_BUILT_USING@/$static_built_using/" \
    "$root/packaging/control.in" > "$stage/DEBIAN/control"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

deb=$dir/context-pack_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "$deb"
