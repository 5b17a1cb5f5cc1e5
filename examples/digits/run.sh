#!/usr/bin/env bash
# run.sh BIN_DIR [TRACE_DIR]: the digits example end to end with the nc tools in BIN_DIR
# (scripts/demo.sh builds them first). Compiles digits_cnn.onnx for the
# default NorthPole-like target (at 8 bits, 4 bits and mixed precision) and
# for the xbar crossbar target, simulates the test split on both, and prints
# the accuracy of the float interpreter, the int8 interpreter and the simulators,
# how far the float interpreter is from torch's logits, whether simulator and
# int8 interpreter agree bit for bit, and the chip's figures (cycles per
# inference, frames/s, utilisation, roofline). Exits 1 if the simulator and
# the interpreter disagree or the float interpreter strays from torch. With
# TRACE_DIR, both simulated runs also write their timelines there
# (digits-<target>.trace.json, nc-run --trace; open them in Perfetto) and their
# HTML reports (digits-<target>-report/index.html, nc-run --report), and the
# northpole compile writes its report (digits-northpole-compile-report/, nc-compile --report).
set -euo pipefail
bin=${1:?usage: run.sh BIN_DIR [TRACE_DIR]}
trace_dir=${2:-}
dig=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== 1. the float model in the reference interpreter =="
"$bin/nc-run" "$dig/digits_cnn.onnx" --input "$dig/test_x.npy" --output "$out/float.npy"

echo "== 2. quantized to int8 (calibrated on the training split), in the reference interpreter =="
"$bin/nc-compile" "$dig/digits_cnn.onnx" --calibration="$dig/train_x.npy" --emit=quantized -o "$out/digits_int8.mlir"
"$bin/nc-run" "$out/digits_int8.mlir" --input "$dig/test_x.npy" --output "$out/int8.npy"

echo "== 3. compiled for northpole (graph -> int8 -> dataflow -> core -> binary) and simulated =="
report=()
[ -n "$trace_dir" ] && report=(--report="$trace_dir/digits-northpole-compile-report")
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=northpole --calibration="$dig/train_x.npy" -o "$out/digits.ncb" \
  "${report[@]}"
echo "nc-compile wrote $(stat -c %s "$out/digits.ncb") bytes of northpole binary"
trace=()
[ -n "$trace_dir" ] && trace=(--trace "$trace_dir/digits-northpole.trace.json" --report="$trace_dir/digits-northpole-report")
"$bin/nc-run" "$out/digits.ncb" --input "$dig/test_x.npy" --output "$out/sim.npy" --stats-json "$out/sim.json" \
  "${trace[@]}"

echo "== 3b. the same network at 4 bits on northpole (first and last layer kept at 8), interpreter and simulator =="
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=northpole --precision=4 --calibration="$dig/train_x.npy" \
  --emit=quantized -o "$out/digits_int4.mlir"
"$bin/nc-run" "$out/digits_int4.mlir" --input "$dig/test_x.npy" --output "$out/int4.npy"
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=northpole --precision=4 --calibration="$dig/train_x.npy" \
  -o "$out/digits4.ncb"
"$bin/nc-run" "$out/digits4.ncb" --input "$dig/test_x.npy" --output "$out/sim4.npy" --stats-json "$out/sim4.json"

echo "== 3c. mixed precision on northpole: each layer's width (8/4/2) chosen by trials on the training split =="
# (at most 1 accuracy point below float on the training labels, least-squared-error clipping; docs/quantization.md)
mixed=(--precision=mixed --labels="$dig/train_y.npy" --max-accuracy-drop=1 --calibration-method=mse)
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=northpole "${mixed[@]}" --calibration="$dig/train_x.npy" \
  --quant-report="$out/mixed.json" --emit=quantized -o "$out/digits_mixed.mlir"
"$bin/nc-run" "$out/digits_mixed.mlir" --input "$dig/test_x.npy" --output "$out/mixed.npy"
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=northpole "${mixed[@]}" --calibration="$dig/train_x.npy" \
  -o "$out/digitsm.ncb" 2>/dev/null
"$bin/nc-run" "$out/digitsm.ncb" --input "$dig/test_x.npy" --output "$out/simm.npy" --stats-json "$out/simm.json"

echo "== 4. the same network on the xbar crossbar chip (cmnnc-like: weights in 256x256 crossbars) =="
"$bin/nc-compile" "$dig/digits_cnn.onnx" --target=xbar --calibration="$dig/train_x.npy" -o "$out/digits_xbar.ncb"
[ -n "$trace_dir" ] && trace=(--trace "$trace_dir/digits-xbar.trace.json" --report="$trace_dir/digits-xbar-report")
"$bin/nc-run" "$out/digits_xbar.ncb" --input "$dig/test_x.npy" --output "$out/xbar.npy" --stats-json "$out/xbar.json" \
  "${trace[@]}"

echo "== 5. results =="
/usr/bin/python3 - "$out" "$dig" "$trace_dir" <<'PY'
import sys
import numpy as np
out, dig, trace_dir = sys.argv[1], sys.argv[2], sys.argv[3]
y = np.load(dig + "/test_y.npy")
res = {k: np.load("%s/%s.npy" % (out, k)) for k in ("float", "int8", "sim", "xbar", "int4", "sim4", "mixed", "simm")}
for name, k in (("float interpreter", "float"), ("int8 interpreter", "int8"), ("northpole simulator", "sim"),
                ("xbar simulator", "xbar"), ("4-bit interpreter", "int4"), ("4-bit northpole sim", "sim4"),
                ("mixed interpreter", "mixed"), ("mixed northpole sim", "simm")):
    hit = int((res[k].argmax(1) == y).sum())
    print("%-22s accuracy %6.2f%% (%d/%d)" % (name, 100.0 * hit / len(y), hit, len(y)))
import json
f = json.load(open(out + "/sim.json"))
clock = f["clock_hz"] / 1e6
print("northpole chip figures (nc-run --stats-json):")
print("  cycles/inference      %.1f (steady state over %d inferences)" % (f["cycles_per_inference"], f["inferences"]))
print("  frames/s              %.0f at %.0f MHz" % (f["frames_per_second"], clock))
print("  latency               %d cycles (%.2f us)" % (f["latency_cycles"], f["latency_cycles"] / clock))
print("  roofline bound        %.3g cycles/inference (compute %.3g, host I/O %.3g); achieved / bound %.1fx"
      % (f["roofline_bound_cycles"], f["compute_bound_cycles"], f["host_io_bound_cycles"], f["roofline_ratio"]))
print("  cores used            %d of %d" % (f["cores_used"], f["cores_total"]))
for c in f["cores"]:
    print("  core (%2d, %2d) %-10s busy %5.1f%%  MAC utilisation %5.2f%%" % (c["x"], c["y"], c["node"], 100 * c["utilisation"], 100 * c["mac_utilisation"]))
f4 = json.load(open(out + "/sim4.json"))
print("northpole at 4 bits:    cycles/inference %.1f, frames/s %.0f, achieved / bound %.1fx"
      % (f4["cycles_per_inference"], f4["frames_per_second"], f4["roofline_ratio"]))
fm, qm = json.load(open(out + "/simm.json")), json.load(open(out + "/mixed.json"))
print("northpole mixed:        cycles/inference %.1f, frames/s %.0f, achieved / bound %.1fx; widths %s"
      % (fm["cycles_per_inference"], fm["frames_per_second"], fm["roofline_ratio"],
         " ".join("%s:%d" % (l["layer"].strip("/").split("/")[0], l["bits"]) for l in qm["layers"])))
x = json.load(open(out + "/xbar.json"))
print("xbar chip figures (nc-run --stats-json):")
print("  cycles/inference      %.1f; frames/s %.0f at %.0f MHz; latency %d cycles" % (x["cycles_per_inference"], x["frames_per_second"], x["clock_hz"] / 1e6, x["latency_cycles"]))
print("  roofline bound        %.1f cycles/inference; achieved / bound %.2fx" % (x["roofline_bound_cycles"], x["roofline_ratio"]))
print("  cores used            %d of %d; crossbar cell utilisation %.1f%%" % (x["cores_used"], x["cores_total"], 100 * x["crossbar_utilisation"]))
torch_logits = np.load(dig + "/reference_logits.npy")
dev = float(np.abs(res["float"] - torch_logits).max())
close = res["float"].shape == torch_logits.shape and dev <= 1e-3
print("float interpreter vs torch: max |difference| %.2g over all logits: %s" % (dev, "ok" if close else "TOO FAR"))
ok = close
for name, k, ref in (("northpole", "sim", "int8"), ("xbar", "xbar", "int8"), ("northpole 4-bit", "sim4", "int4"),
                     ("northpole mixed", "simm", "mixed")):
    same = res[k].shape == res[ref].shape and (res[k].view(np.uint32) == res[ref].view(np.uint32)).all()
    print("%s simulator == %s interpreter, bit for bit, on all %d images: %s" % (name, ref, len(y), "yes" if same else "NO"))
    ok = ok and same
if trace_dir:
    print("timelines (Chrome trace-event JSON; open in https://ui.perfetto.dev or chrome://tracing, docs/reports.md):")
    for t in ("northpole", "xbar"):
        print("  %s/digits-%s.trace.json" % (trace_dir, t))
    print("reports (self-contained HTML, nc-run/nc-compile --report; open in a browser, docs/reports.md):")
    for t in ("northpole", "xbar", "northpole-compile"):
        print("  %s/digits-%s-report/index.html" % (trace_dir, t))
sys.exit(0 if ok else 1)
PY
