#!/usr/bin/env bash
# build.sh: configures and builds nc. Usage: scripts/build.sh [BUILD_DIR [cmake args...]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)" -- --no-print-directory 2>&1 | grep -vE '^\[ *[0-9]+%\]|^(Scanning|Consolidate|Built target)' || true
test "${PIPESTATUS[0]}" -eq 0
