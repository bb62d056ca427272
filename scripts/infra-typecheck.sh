#!/usr/bin/env bash
# Offline type-check of the SST app (sst.config.ts + stacks/). Idempotent; works from a clean clone.
#
# `sst install` generates `.sst/platform` (SST's component sources and global types, with
# @pulumi/aws fetched from npm by bun). Offline, the SST CLI would first try to download Pulumi and
# bun from outside npm and fail, so:
#   - bun comes from the npm package @oven/bun-linux-<arch>, copied to ~/.config/sst/bin/bun
#     (where SST looks for it);
#   - SST_SKIP_DEPENDENCY_CHECK=1 stops the Pulumi download. SST checks ~/.config/sst/bin/pulumi, not
#     PATH; a stub there would make a later real `sst deploy` believe Pulumi is installed, so the stub
#     (it prints v3.215.0, SST 4.17.1's Pulumi) only goes on this script's PATH.
# `.sst/platform` is reused while it is newer than package-lock.json (SST's version comes from it).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
BUN_VERSION=1.2.1

[ -x node_modules/.bin/sst ] || { echo "infra-typecheck: node_modules missing, run npm ci first" >&2; exit 1; }

mkdir -p .sst
# Two runs at once (say, two vitest workers) would race on .sst/platform.
exec 9>.sst/typecheck.lock
command -v flock >/dev/null && flock 9
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bun_bin="$HOME/.config/sst/bin/bun"
if ! "$bun_bin" --version >/dev/null 2>&1; then
  case "$(uname -m)" in
    x86_64) pkg=@oven/bun-linux-x64 ;;
    aarch64 | arm64) pkg=@oven/bun-linux-aarch64 ;;
    *) echo "infra-typecheck: no bun package for $(uname -m)" >&2; exit 1 ;;
  esac
  echo "infra-typecheck: installing bun $BUN_VERSION from npm ($pkg)"
  npm install --prefix "$work/bun" --no-save --no-audit --no-fund --loglevel=error "$pkg@$BUN_VERSION" >&2
  mkdir -p "$(dirname "$bun_bin")"
  cp "$work/bun/node_modules/$pkg/bin/bun" "$bun_bin"
  chmod +x "$bun_bin"
fi

if [ -f .sst/platform/config.d.ts ] && [ .sst/platform/config.d.ts -nt package-lock.json ]; then
  echo "infra-typecheck: .sst/platform is up to date"
else
  mkdir -p "$work/bin"
  printf '#!/bin/sh\necho v3.215.0\n' >"$work/bin/pulumi"
  chmod +x "$work/bin/pulumi"
  echo "infra-typecheck: sst install"
  rm -rf .sst/platform
  # A stage is required even to install; nothing is deployed.
  PATH="$work/bin:$PATH" SST_SKIP_DEPENDENCY_CHECK=1 SST_TELEMETRY_DISABLED=1 SST_STAGE="${SST_STAGE:-typecheck}" \
    node_modules/.bin/sst install
  [ -f .sst/platform/config.d.ts ] || { echo "infra-typecheck: sst install produced no .sst/platform" >&2; exit 1; }
  touch .sst/platform/config.d.ts
fi

# The route table includes the academic routes pers_autoload generates (ignored by git).
node_modules/.bin/tsx scripts/pers_autoload.ts >&2
echo "infra-typecheck: tsc -p tsconfig.infra.json"
node_modules/.bin/tsc --noEmit -p "$root/tsconfig.infra.json"
echo "infra-typecheck: ok"
