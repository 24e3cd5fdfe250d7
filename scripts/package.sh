#!/usr/bin/env bash
# Builds the Debian package of context-pack with CPack into build/ and prints its path.
#   scripts/package.sh [cmake -D options...]
# Its Depends come from dpkg-shlibdeps (Debian's libfmt9, libgssapi-krb5-2, libstdc++6, libc6;
# libgit2 is linked statically);
# installs dpkg-dev and file for that when they are missing. Inspect the result with
#   dpkg-deb -I build/context-pack_*.deb; dpkg-deb -c build/context-pack_*.deb
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh" dpkg-dev file


dir="$root/build"
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)" --target context-pack >&2
out=$(cd "$dir" && cpack --config CPackConfig.cmake -G DEB -B "$dir")
echo "$out" >&2
deb=$(echo "$out" | sed -n 's/^CPack: - package: \(.*\.deb\) generated\.$/\1/p')
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
    echo "package.sh: cpack did not report a .deb" >&2
    exit 1
fi
echo "$deb"
