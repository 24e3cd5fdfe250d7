#!/usr/bin/env bash
# Builds the Debian package of context-pack for the Debian release it runs on and prints its
# path.
#   scripts/package.sh [cmake -D options...]
# The binary links that release's shared libgit2 (CONTEXT_PACK_LIBGIT2_LINK=shared), as
# Debian policy asks, and is built Release with dpkg-buildflags' hardening flags into
# build-deb/ (CONTEXT_PACK_DEB_BUILD replaces it), installed there with `cmake --install
# --strip`, and packed with dpkg-deb as root-owned files. Depends comes from dpkg-shlibdeps;
# the package's files beside the install: /usr/share/doc/context-pack/copyright (DEP-5, the
# MIT text of LICENSE), changelog.gz (packaging/changelog, whose version must be the
# project's), man pages compressed with gzip -9n. Installs dpkg-dev when missing.
# scripts/ci/check-package.sh checks the result with lintian and runs it from a scratch root.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh" dpkg-dev

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
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DCONTEXT_PACK_LIBGIT2_LINK=shared \
    -DCMAKE_CXX_FLAGS="$(flags CPPFLAGS)$(flags CXXFLAGS)" \
    -DCMAKE_EXE_LINKER_FLAGS="$(flags LDFLAGS)" "$@" >/dev/null
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

mkdir -p "$stage/DEBIAN"
(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
size=$(du -sk --apparent-size "$stage/usr" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    -e "s/@DEPENDS@/$depends/" "$root/packaging/control.in" > "$stage/DEBIAN/control"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

deb=$dir/context-pack_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "$deb"
