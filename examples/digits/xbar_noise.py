#!/usr/bin/python3
"""xbar_noise.py BIN_DIR [--target-desc=cmnnc|puma] [--seeds=N]: the accuracy of the digits CNN on the
xbar target's simulator with programming noise, on the test split.

Compiles digits_cnn.onnx for the xbar target (int8, calibrated on the training split), simulates the
360 test images in ideal mode (which must equal the int8 interpreter bit for bit) and with
--noise=SEED,SIGMA for each sigma (Gaussian conductance noise of sigma x the layer's weight range,
ADC clipping at the description's ADC bits; sigma 0 shows the ADC alone), and prints a Markdown
table: accuracy averaged over the seeds and the drop from the int8 interpreter. Exits 1 if ideal
mode and the interpreter disagree."""
import os
import subprocess
import sys
import tempfile

import numpy as np

SIGMAS = (0.0, 0.01, 0.02, 0.05, 0.1)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
    if len(args) != 1:
        sys.exit(__doc__)
    bindir = args[0]
    desc = opts.get("target-desc", "cmnnc")
    seeds = int(opts.get("seeds", "3"))
    dig = os.path.dirname(os.path.abspath(__file__))
    y = np.load(os.path.join(dig, "test_y.npy"))
    x = os.path.join(dig, "test_x.npy")

    def run(cmd):
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    with tempfile.TemporaryDirectory() as out:
        ncb = os.path.join(out, "d.ncb")
        run([os.path.join(bindir, "nc-compile"), os.path.join(dig, "digits_cnn.onnx"), "--target=xbar",
             "--target-desc=" + desc, "--calibration=" + os.path.join(dig, "train_x.npy"), "-o", ncb])
        run([os.path.join(bindir, "nc-compile"), os.path.join(dig, "digits_cnn.onnx"),
             "--calibration=" + os.path.join(dig, "train_x.npy"), "--emit=quantized", "-o",
             os.path.join(out, "q.mlir")])
        run([os.path.join(bindir, "nc-run"), os.path.join(out, "q.mlir"), "--input", x, "--output",
             os.path.join(out, "int8.npy")])
        run([os.path.join(bindir, "nc-run"), ncb, "--input", x, "--output", os.path.join(out, "ideal.npy")])
        int8 = np.load(os.path.join(out, "int8.npy"))
        ideal = np.load(os.path.join(out, "ideal.npy"))
        acc = lambda logits: 100.0 * float((logits.argmax(1) == y).mean())
        drop = lambda a: ("%.2f" % (base - a)).replace("-0.00", "0.00")
        exact = ideal.shape == int8.shape and bool((ideal == int8).all())
        base = acc(int8)
        print("xbar (%s), digits test split (%d images), %d seeds per sigma" % (desc, len(y), seeds))
        print()
        print("| sigma (x weight range) | accuracy | drop vs int8 interpreter |")
        print("|---:|---:|---:|")
        print("| ideal (bit-exact: %s) | %.2f%% | %s |" % ("yes" if exact else "NO", acc(ideal), drop(acc(ideal))))
        for sigma in SIGMAS:
            accs = []
            for seed in range(1, seeds + 1):
                o = os.path.join(out, "n.npy")
                run([os.path.join(bindir, "nc-run"), ncb, "--input", x, "--output", o,
                     "--noise=%d,%g" % (seed, sigma)])
                accs.append(acc(np.load(o)))
            print("| %g | %.2f%% | %s |" % (sigma, np.mean(accs), drop(np.mean(accs))))
        return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
