#!/usr/bin/env bash
# report-screenshots.sh [BIN_DIR]: the screenshots of docs/reports.md (docs/img/report-*.png), one per
# view, from the reports nc-run --report and nc-compile --report write for the digits CNN (16 test
# images), shot in headless chromium by the browser test's script (test/Tools/Inputs/browser_check.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/bin}
dig=$root/examples/digits
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
shoot="/usr/bin/python3 $root/test/Tools/Inputs/browser_check.py"
/usr/bin/python3 -c "import numpy as np; np.save('$out/x.npy', np.load('$dig/test_x.npy')[:16])"
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=northpole --calibration="$dig/train_x.npy" -o "$out/np.ncb" \
  --report="$out/np-compile" 2>/dev/null
"$bin/nc-run" "$out/np.ncb" --input "$out/x.npy" --report="$out/np-run"
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=xbar --calibration="$dig/train_x.npy" -o "$out/xb.ncb"
"$bin/nc-run" "$out/xb.ncb" --input "$out/x.npy" --report="$out/xb-run"
rm -f "$root"/docs/img/report-*.png
$shoot "$out/np-run/index.html" --views "$root/docs/img" --prefix report-northpole
$shoot "$out/np-compile/index.html" --views "$root/docs/img" --prefix report-compile \
  --only quantization,graph-dataflow-svg,graph-cores-svg
$shoot "$out/xb-run/index.html" --views "$root/docs/img" --prefix report-xbar \
  --only chip,crossbar-utilisation,crossbar-mvm-cycles-per-layer
echo "report-screenshots.sh: wrote $(ls "$root"/docs/img/report-*.png | wc -l) screenshots in docs/img"
