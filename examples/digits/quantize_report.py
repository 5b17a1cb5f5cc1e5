#!/usr/bin/python3
"""Float vs int8 (int4, int2) accuracy of the digits CNN on its test split.

Imports digits_cnn.onnx (nc-translate), optimizes it (graph-optimize),
quantizes a copy to int8 with graph-quantize calibrated on train_x.npy, runs
both graphs on test_x.npy in nc's reference interpreter (nc-run), and
prints the float32 accuracy, the int8 accuracy and how often the two agree
on the predicted class (argmax; a tie goes to the lowest class, as numpy
does). Exits 1 if a tool fails or if the int8 accuracy is more than
--max-drop points below the float one.

With --bits 4 or 2 the hidden layers are quantized to that width (the
first and last stay at 8 bits, graph-quantize's rule) and the quantized rows
are labelled int4 / int2.

Usage: quantize_report.py [--bin DIR] [--work DIR] [--max-samples N] [--max-drop P] [--bits B]
  --bin DIR        nc's tools (default: build/bin of this checkout)
  --work DIR       keep the intermediate files there (default: a temporary dir)
  --max-samples N  calibrate on the first N training images (default: all)
  --max-drop P     the largest accepted accuracy drop in points (default: 2)
  --bits B         8, 4 or 2 (default: 8)
  --method M       graph-quantize's calibration method: maxabs, percentile or mse (default: maxabs)
Needs /usr/bin/python3 (numpy).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.stderr.write("quantize_report: %s failed:\n%s" % (" ".join(cmd), r.stderr))
        sys.exit(1)
    return r.stdout


def report(bin_dir, work, max_samples, max_drop, bits=8, method="maxabs"):
    tool = lambda name: os.path.join(bin_dir, name)
    data = lambda name: os.path.join(HERE, name)
    f32, int8 = os.path.join(work, "digits_f32.mlir"), os.path.join(work, "digits_int8.mlir")
    run([tool("nc-translate"), "--import-onnx", data("digits_cnn.onnx"), "-o", os.path.join(work, "digits.mlir")])
    run([tool("nc-opt"), "--graph-optimize", os.path.join(work, "digits.mlir"), "-o", f32])
    quant = "calibration=%s max-samples=%d bits=%d method=%s" % (data("train_x.npy"), max_samples, bits, method)
    qname = "int%d" % bits
    run([tool("nc-opt"), "--graph-quantize=" + quant, f32, "-o", int8])
    logits = {}
    for name, graph in (("float32", f32), (qname, int8)):
        out = os.path.join(work, "logits_%s.npy" % name)
        run([tool("nc-run"), graph, "--input", data("test_x.npy"), "--output", out])
        logits[name] = np.load(out)
    y = np.load(data("test_y.npy"))
    n_calib = len(np.load(data("train_x.npy"), mmap_mode="r"))
    if max_samples:
        n_calib = min(n_calib, max_samples)
    pred = {k: v.reshape(len(y), -1).argmax(axis=1) for k, v in logits.items()}
    acc = {k: 100.0 * (p == y).sum() / len(y) for k, p in pred.items()}
    agree = (pred["float32"] == pred[qname]).sum()
    print("digits CNN: test split of %d images; %s calibrated (%s) on %d training images" % (len(y), qname, method, n_calib))
    for k in ("float32", qname):
        print("%-8s accuracy: %6.2f%% (%d/%d)" % (k, acc[k], (pred[k] == y).sum(), len(y)))
    print("agreement:        %6.2f%% (%d/%d same predicted class)" % (100.0 * agree / len(y), agree, len(y)))
    drop = acc["float32"] - acc[qname]
    print("%s - float32:   %+6.2f points" % (qname, 0.0 - drop + 0.0))
    if drop > max_drop:
        print("FAIL: %s is %.2f points below float32 (at most %.2f allowed)" % (qname, drop, max_drop))
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--work")
    ap.add_argument("--max-samples", type=int, default=0)
    ap.add_argument("--max-drop", type=float, default=2.0)
    ap.add_argument("--bits", type=int, choices=(8, 4, 2), default=8)
    ap.add_argument("--method", choices=("maxabs", "percentile", "mse"), default="maxabs")
    a = ap.parse_args()
    if a.work:
        os.makedirs(a.work, exist_ok=True)
        return report(a.bin, a.work, a.max_samples, a.max_drop, a.bits, a.method)
    with tempfile.TemporaryDirectory() as work:
        return report(a.bin, work, a.max_samples, a.max_drop, a.bits, a.method)


if __name__ == "__main__":
    sys.exit(main())
