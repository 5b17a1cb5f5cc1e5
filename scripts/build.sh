#!/usr/bin/env bash
# build.sh: configures and builds nc. Usage: scripts/build.sh [BUILD_DIR [cmake args...]]
# Prints only warnings and errors; exits non-zero if the build fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" > "$log" 2>&1; then
  cat "$log"
  exit 1
fi
if ! cmake --build "$dir" -j"$(nproc)" > "$log" 2>&1; then
  grep -E "error|Error|undefined" "$log" | head -50
  echo "build.sh: the build in $dir failed" >&2
  exit 1
fi
grep -E "warning:" "$log" || true
