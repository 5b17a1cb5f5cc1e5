#!/usr/bin/python3
"""The digits CNN's accuracy per precision and calibration method, interpreter and simulator.

For each calibration method (maxabs, percentile, mse) and precision (8, 4,
mixed, 2 bits; the first and last layers stay at 8), compiles
examples/digits/digits_cnn.onnx calibrated on the training split twice with
nc-compile: --emit=quantized (the integer graph, run by nc-run in the
reference interpreter) and to a NorthPole binary (run by nc-run in the
simulator), and runs both on the test split. Mixed precision chooses the
widths with --labels=train_y.npy --max-accuracy-drop=P (P points below the
float accuracy on the training split; one row per P in --max-accuracy-drop,
default 0.5 and 2), so the test split stays unseen. The
float model runs in the interpreter only (the chip is integer-only).

The table (accuracy, interpreter and simulator, whether they agree bit for
bit, each layer's width, cycles per frame in the simulator) goes into
docs/quantization.md between `<!-- accuracy_table:begin -->` and
`<!-- accuracy_table:end -->` (--no-write: print it only). Exits 1 if a tool
fails or if the simulator and the interpreter disagree anywhere.

Usage: accuracy_table.py [--bin DIR] [--images N] [--max-samples N] [--methods M,...]
                         [--precisions P,...] [--max-accuracy-drop P] [--no-write] [--work DIR]
Needs /usr/bin/python3 (numpy).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIGITS = os.path.join(ROOT, "examples", "digits")
DOC = os.path.join(ROOT, "docs", "quantization.md")
BEGIN, END = "<!-- accuracy_table:begin -->", "<!-- accuracy_table:end -->"


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.stderr.write("accuracy_table: %s failed:\n%s" % (" ".join(cmd), r.stderr))
        sys.exit(1)
    return r


def accuracy(logits, y):
    hit = int((logits.argmax(1) == y).sum())
    return "%.2f%% (%d/%d)" % (100.0 * hit / len(y), hit, len(y))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"), help="nc's tools")
    ap.add_argument("--images", type=int, default=0, help="the first N test images (0: all)")
    ap.add_argument("--max-samples", type=int, default=0, help="calibrate on the first N training images (0: all)")
    ap.add_argument("--methods", default="maxabs,percentile,mse")
    ap.add_argument("--precisions", default="8,4,mixed,2")
    ap.add_argument("--max-accuracy-drop", default="0.5,2",
                    help="mixed precision's budgets, points below float (one row each)")
    ap.add_argument("--no-write", action="store_true", help="print the table, do not write docs/quantization.md")
    ap.add_argument("--work", help="keep the intermediate files there")
    a = ap.parse_args()
    tool = lambda name: os.path.join(a.bin, name)
    work = a.work or tempfile.mkdtemp(prefix="nc-acc-")
    os.makedirs(work, exist_ok=True)
    x, y = np.load(os.path.join(DIGITS, "test_x.npy")), np.load(os.path.join(DIGITS, "test_y.npy"))
    if a.images:
        x, y = x[:a.images], y[:a.images]
    test_x = os.path.join(work, "test_x.npy")
    np.save(test_x, x)
    model = os.path.join(DIGITS, "digits_cnn.onnx")
    calib = ["--calibration=" + os.path.join(DIGITS, "train_x.npy"), "--max-samples=%d" % a.max_samples]
    n_calib = a.max_samples or len(np.load(os.path.join(DIGITS, "train_x.npy"), mmap_mode="r"))

    out = os.path.join(work, "float.npy")
    run([tool("nc-run"), model, "--input", test_x, "--output", out])
    rows = ["| float32 | - | - | %s | - | - | - |" % accuracy(np.load(out), y)]
    all_same = True
    budgets = a.max_accuracy_drop.split(",")
    for method in a.methods.split(","):
        for prec, drop in ((p, d) for p in a.precisions.split(",") for d in (budgets if p == "mixed" else [None])):
            tag = "%s-%s%s" % (method, prec, drop or "")
            opts = calib + ["--calibration-method=" + method, "--precision=" + prec]
            if prec == "mixed":
                opts += ["--labels=" + os.path.join(DIGITS, "train_y.npy"), "--max-accuracy-drop=" + drop]
            q, ncb, rep = (os.path.join(work, tag + ext) for ext in (".mlir", ".ncb", ".json"))
            run([tool("nc-compile"), model, *opts, "--quant-report=" + rep, "--emit=quantized", "-o", q])
            run([tool("nc-compile"), model, *opts, "-o", ncb])
            interp, sim, stats = (os.path.join(work, tag + ext) for ext in ("-interp.npy", "-sim.npy", "-stats.json"))
            run([tool("nc-run"), q, "--input", test_x, "--output", interp])
            run([tool("nc-run"), ncb, "--input", test_x, "--output", sim, "--stats-json", stats])
            li, ls = np.load(interp), np.load(sim)
            same = li.shape == ls.shape and li.dtype == ls.dtype and bool((li.view(np.uint8) == ls.view(np.uint8)).all())
            all_same = all_same and same
            widths = " ".join(str(l["bits"]) for l in json.load(open(rep))["layers"])
            cycles = json.load(open(stats))["cycles_per_inference"]
            rows.append("| %s | %s | %s | %s | %s | %s | %.0f |" % (
                "mixed (%s pt)" % drop if prec == "mixed" else "int%s" % prec, method, widths, accuracy(li, y), accuracy(ls, y),
                "yes" if same else "NO", cycles))
    head = ["Digits CNN, %d test images; calibrated on %d training images; mixed: `--labels=train_y.npy "
            "--max-accuracy-drop=P` (P points below float on the training images); widths of conv1 conv2 conv3 fc; "
            "generated by `bench/accuracy_table.py`." % (len(y), n_calib), "",
            "| precision | calibration | widths | interpreter | simulator | bit for bit | cycles/frame |",
            "|---|---|---|---|---|---|---|"]
    table = "\n".join(head + rows)
    print(table)
    print("interpreter == simulator on every row: %s" % ("yes" if all_same else "NO"))
    if not a.no_write:
        doc = open(DOC).read()
        i, j = doc.find(BEGIN), doc.find(END)
        if i < 0 or j < i:
            sys.exit("accuracy_table: %s has no %s ... %s markers" % (DOC, BEGIN, END))
        open(DOC, "w").write(doc[:i + len(BEGIN)] + "\n" + table + "\n" + doc[j:])
        print("wrote %s" % DOC)
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
