#!/bin/sh
# ctest's mcp_sdk_client: installs the official MCP TypeScript SDK (pinned in package.json and
# package-lock.json) into tests/mcp/node_modules with npm, then runs client.mjs against the
# binary. Exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt) only when the SDK is not installed
# yet and npm's registry is unreachable; every other problem fails the test.
# Usage: run.sh PATH/TO/context-pack
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/context-pack (an executable)" >&2
    exit 2
fi
bin=$1

name=mcp_sdk_client what="the MCP SDK" needs=""
. "$here/../support/npm-ci.sh"

exec node client.mjs "$bin"
