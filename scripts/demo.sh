#!/usr/bin/env bash
# Sets up what the build needs, builds the binary alone (Release, no tests) on libgit2 built
# here, builds the demo repository (fixtures/demo.sh) and prints its pack.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" >/dev/null
demo="$(mktemp -d)"
"$root/fixtures/demo.sh" "$demo" >/dev/null
echo "\$ cd $demo/repo && context-pack ../plan.json"
status=0
(cd "$demo/repo" && "$root/build/context-pack" ../plan.json) || status=$?
echo
echo "exit status $status (1: the plan names a deleted file and a symbol that is not there)"
[ "$status" -le 1 ]
