#!/usr/bin/python3
"""Checks nc's import and interpreter on exported models against torch.

For each model directory written by gen_torchvision.py (model.onnx,
input.npy, expected.npy, optionally input2.npy/expected2.npy):
  1. nc-run model.onnx on input.npy must match torch's expected.npy:
     |got - want| <= rtol * |want| + atol * max|want| elementwise (rtol 1e-3,
     atol 1e-4: float32 results summed in another order differ by a few
     ulps per layer, which a deep network amplifies a little);
  2. the batch of two (input2.npy, two inferences in one nc-run) must match
     expected2.npy the same way;
  3. round trip (with --nc-translate, for models up to --roundtrip-max-mb):
     nc-translate --import-onnx, --export-onnx, --import-onnx again must
     give the same IR text, and nc-run on the exported model must give
     bit-identical outputs.
Prints one line per model and `N models, N failed`; exits 1 on a failure.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

RTOL, ATOL = 1e-3, 1e-4


def compare(got, want):
    if got.shape != want.shape or got.dtype != want.dtype:
        return None, "got %s %s, expected %s %s" % (got.dtype, got.shape, want.dtype, want.shape)
    scale = float(np.abs(want).max()) or 1.0
    err = np.abs(got.astype(np.float64) - want)
    bad = err > RTOL * np.abs(want) + ATOL * scale
    rel = float(err.max()) / scale
    if bad.any():
        return rel, "%d of %d elements differ (max error %.3g, %.3g of max |value|)" % (
            bad.sum(), want.size, err.max(), rel)
    return rel, None


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("%s failed: %s" % (os.path.basename(cmd[0]), r.stderr.strip()[:2000]))
    return r


def check_model(d, work, args):
    name = os.path.basename(d)
    model = os.path.join(d, "model.onnx")
    out = os.path.join(work, name + ".out.npy")
    run([args.nc_run, model, "--input", os.path.join(d, "input.npy"), "--output", out])
    rel, why = compare(np.load(out), np.load(os.path.join(d, "expected.npy")))
    if why:
        return "output differs from torch: " + why
    notes = ["max error %.2g of max |value|" % rel]
    if os.path.exists(os.path.join(d, "input2.npy")):
        out2 = os.path.join(work, name + ".out2.npy")
        run([args.nc_run, model, "--input", os.path.join(d, "input2.npy"), "--output", out2])
        rel2, why = compare(np.load(out2), np.load(os.path.join(d, "expected2.npy")))
        if why:
            return "batch of 2 differs from torch: " + why
        notes.append("batch of 2 ok")
    if args.nc_translate and os.path.getsize(model) <= args.roundtrip_max_mb * 1e6:
        a, rt, c = (os.path.join(work, name + s) for s in (".mlir", ".rt.onnx", ".rt.mlir"))
        run([args.nc_translate, "--import-onnx", model, "-o", a])
        run([args.nc_translate, "--export-onnx", a, "-o", rt])
        run([args.nc_translate, "--import-onnx", rt, "-o", c])
        if open(a).read() != open(c).read():
            return "round trip: re-importing the exported model gives different IR (diff %s %s)" % (a, c)
        out_rt = os.path.join(work, name + ".rt.out.npy")
        run([args.nc_run, rt, "--input", os.path.join(d, "input.npy"), "--output", out_rt])
        if not np.array_equal(np.load(out_rt), np.load(out)):
            return "round trip: the exported model computes different outputs"
        for p in (a, rt, c):
            os.remove(p)  # large
        notes.append("round trip ok")
    return "ok (" + ", ".join(notes) + ")"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nc-run", default="nc-run")
    ap.add_argument("--nc-translate", help="also check the ONNX round trip with this nc-translate")
    ap.add_argument("--roundtrip-max-mb", type=float, default=float("inf"),
                    help="skip the round trip for larger models (their IR text is twice their size)")
    ap.add_argument("--models", required=True, help="directory of model directories (gen_torchvision.py --out)")
    ap.add_argument("--work", required=True, help="scratch directory")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    dirs = sorted(os.path.join(args.models, n) for n in os.listdir(args.models)
                  if os.path.exists(os.path.join(args.models, n, "model.onnx")))
    failed = 0
    for d in dirs:
        try:
            msg = check_model(d, args.work, args)
        except RuntimeError as e:
            msg = str(e)
        if not msg.startswith("ok"):
            failed += 1
            msg = "FAIL: " + msg
        print("%s: %s" % (os.path.basename(d), msg), flush=True)
    print("%d models, %d failed" % (len(dirs), failed))
    return 1 if failed or not dirs else 0


if __name__ == "__main__":
    sys.exit(main())
