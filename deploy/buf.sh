#!/usr/bin/env bash
# Runs buf (the protobuf linter) on proto/, installing it from npm into target/tools on first use.
#   deploy/buf.sh lint        # lint the contract (CI runs this)
#   deploy/buf.sh breaking --against "$PWD/.git#ref=main,subdir=proto"   # CI runs this against main
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/target/tools/buf"
version=1.75.0
buf="$tools/node_modules/.bin/buf"
if [ ! -x "$buf" ] || ! "$buf" --version 2>/dev/null | grep -qx "$version"; then
  mkdir -p "$tools"
  npm install --silent --no-audit --no-fund --prefix "$tools" "@bufbuild/buf@$version" >/dev/null
fi
cd "$root/proto"
exec "$buf" "$@"
