#!/bin/sh
# ctest's mcp_sdk_client: installs the official MCP TypeScript SDK (pinned in package.json and
# package-lock.json) into tests/mcp/node_modules with npm, then runs client.mjs against the
# binary. Exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt) only when the SDK is not installed
# yet and npm's registry is unreachable; every other problem fails the test.
# Usage: run.sh PATH/TO/context-pack
set -eu

skip=77
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/context-pack (an executable)" >&2
    exit 2
fi
bin=$1

for tool in node npm; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "mcp_sdk_client: $tool is not installed; the test needs Node.js 20 and npm" >&2
        exit 1
    fi
done

cd "$here"
# npm writes node_modules/.package-lock.json on install: newer than the lock file means the
# pinned SDK is already there, and no network is needed.
if [ ! -f node_modules/.package-lock.json ] ||
    [ package-lock.json -nt node_modules/.package-lock.json ] ||
    [ package.json -nt node_modules/.package-lock.json ]; then
    registry=$(npm config get registry)
    if ! npm ping --fetch-retries=0 --fetch-timeout=30000 >/dev/null 2>&1; then
        echo "mcp_sdk_client: SKIPPED: npm's registry ($registry) is unreachable, so the MCP SDK cannot be installed" >&2
        exit $skip
    fi
    npm ci --no-audit --no-fund --loglevel=error
fi

exec node client.mjs "$bin"
