#!/usr/bin/env bash
# demo.sh: the main job on the bundled example. Installs what is missing,
# builds nc, and shows nc-opt reading, verifying and printing IR (custom and
# generic forms, the round trip) and reporting a diagnostic.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
nc="$root/build/bin/nc-opt"
ex="$root/examples/ir"
echo "== nc-opt on examples/ir/example.mlir (custom form) =="
"$nc" --allow-unregistered-dialect "$ex/example.mlir"
echo "== the same in MLIR's generic form (accepted by mlir-opt --allow-unregistered-dialect) =="
"$nc" --allow-unregistered-dialect --mlir-print-op-generic "$ex/example.mlir"
echo "== round trip: print(parse(print(x))) == print(x) =="
"$nc" --allow-unregistered-dialect "$ex/example.mlir" > /tmp/nc-demo-1.mlir
"$nc" --allow-unregistered-dialect /tmp/nc-demo-1.mlir > /tmp/nc-demo-2.mlir
cmp /tmp/nc-demo-1.mlir /tmp/nc-demo-2.mlir && echo "identical"
echo "== a diagnostic: examples/ir/bad.mlir =="
if "$nc" "$ex/bad.mlir" 2>&1; then echo "unexpected success"; exit 1; fi
echo "(nc-opt exited with status 1, as it should)"
