#!/usr/bin/env bash
# demo.sh: the main job. Installs what is missing, builds nc, and runs
# examples/digits/run.sh with the fresh binaries: the bundled digits CNN
# compiled for the default NorthPole-like target and simulated on the
# 360-image test split, with accuracies, the bit-for-bit check and the
# chip's figures, and writes both simulated runs' timelines into build/
# (digits-<target>.trace.json; test/e2e/demo.test runs the same script).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
exec "$root/examples/digits/run.sh" "$root/build/bin" "$root/build"
