#!/bin/sh
# ctest's json_schema: validates real `context-pack --format json` output of every mode, the
# golden JSON files and mutated documents against docs/context-pack.schema.json with Ajv
# (pinned in package.json and package-lock.json), installed into tests/schema/node_modules by
# npm. Exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt) only when Ajv is not installed yet
# and npm's registry is unreachable; every other problem fails the test.
# Usage: run.sh PATH/TO/context-pack
set -eu

skip=77
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/context-pack (an executable)" >&2
    exit 2
fi
bin=$1

for tool in node npm git; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "json_schema: $tool is not installed; the test needs Node.js 20, npm and git" >&2
        exit 1
    fi
done

cd "$here"
# npm writes node_modules/.package-lock.json on install: newer than the lock file means the
# pinned Ajv is already there, and no network is needed.
if [ ! -f node_modules/.package-lock.json ] ||
    [ package-lock.json -nt node_modules/.package-lock.json ] ||
    [ package.json -nt node_modules/.package-lock.json ]; then
    registry=$(npm config get registry)
    if ! npm ping --fetch-retries=0 --fetch-timeout=30000 >/dev/null 2>&1; then
        echo "json_schema: SKIPPED: npm's registry ($registry) is unreachable, so Ajv cannot be installed" >&2
        exit $skip
    fi
    npm ci --no-audit --no-fund --loglevel=error
fi

exec node validate.mjs "$bin"
