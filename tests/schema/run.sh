#!/bin/sh
# ctest's json_schema and spec_schema: validate.mjs checks real `context-pack --format json`
# output of every mode, the golden JSON files and mutated documents against
# docs/context-pack.schema.json; spec.mjs checks the fixture specs, the README's and the man
# page's examples and cases both ways against docs/spec.schema.json and the binary. Both use
# Ajv (pinned in package.json and package-lock.json), installed into tests/schema/node_modules
# by npm. Exit 77 (SKIP_RETURN_CODE in tests/CMakeLists.txt) only when Ajv is not installed
# yet and npm's registry is unreachable; every other problem fails the test.
# Usage: run.sh PATH/TO/context-pack [validate.mjs | spec.mjs]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
script=${2:-validate.mjs}
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ] || [ ! -f "$here/$script" ]; then
    echo "usage: $0 PATH/TO/context-pack (an executable) [validate.mjs | spec.mjs]" >&2
    exit 2
fi
bin=$1

case $script in
    spec.mjs) name=spec_schema needs="git bash" ;;
    *) name=json_schema needs="git" ;;
esac
what="Ajv"
. "$here/../support/npm-ci.sh"

exec node "$script" "$bin"
