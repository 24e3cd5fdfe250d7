#!/bin/sh
# ctest's json_schema: validates real `context-pack --format json` output of every mode, the
# golden JSON files and mutated documents against docs/context-pack.schema.json with Ajv
# (pinned in package.json and package-lock.json), installed into tests/schema/node_modules by
# npm. Exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt) only when Ajv is not installed yet
# and npm's registry is unreachable; every other problem fails the test.
# Usage: run.sh PATH/TO/context-pack
set -eu

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 PATH/TO/context-pack (an executable)" >&2
    exit 2
fi
bin=$1

name=json_schema what="Ajv" needs="git"
. "$here/../support/npm-ci.sh"

exec node validate.mjs "$bin"
