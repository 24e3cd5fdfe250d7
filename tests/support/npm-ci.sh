#!/bin/sh
# Installs a test folder's pinned npm packages (package.json + package-lock.json) into its
# node_modules, when they are not there yet. Sourced by tests/*/run.sh with $name (the ctest
# name), $what (what is installed), $needs (tools beyond node and npm) and $here set.
# Exits 77, ctest's SKIP_RETURN_CODE, only when an install is needed and npm's registry is
# unreachable; a missing tool fails.
for tool in node npm $needs; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "$name: $tool is not installed; the test needs Node.js 20, npm $needs" >&2
        exit 1
    fi
done
cd "$here"
# npm writes node_modules/.package-lock.json on install: newer than the lock file means the
# pinned packages are already there, and no network is needed.
if [ ! -f node_modules/.package-lock.json ] ||
    [ package-lock.json -nt node_modules/.package-lock.json ] ||
    [ package.json -nt node_modules/.package-lock.json ]; then
    registry=$(npm config get registry)
    if ! npm ping --fetch-retries=0 --fetch-timeout=30000 >/dev/null 2>&1; then
        echo "$name: SKIPPED: npm's registry ($registry) is unreachable, so $what cannot be installed" >&2
        exit 77
    fi
    npm ci --no-audit --no-fund --loglevel=error
fi
