#!/usr/bin/python3
"""Times nc's reference interpreter beside PyTorch on the same CNNs.

For each torchvision model (exported with random weights by
test/models/gen_torchvision.py into --data, reused while up to date) this
measures one batch-1 inference at 224x224:
  nc     `nc-run model.onnx --input input.npy --time --repeat N`: the fastest
         of N runs of nc_interp_run (import and interpreter creation are not
         included; they are reported separately as "nc load");
  torch  the same torchvision module under torch.no_grad() with
         torch.set_num_threads(T), the fastest of N runs after a warm-up, in
         two forms: eager (what a user runs by default; Debian's torch has no
         MKL, and at one thread it sends 1x1 convolutions to slow_conv2d,
         im2col + a reference BLAS, instead of oneDNN) and optimized
         (torch.jit.trace, freeze, optimize_for_inference: batch norm folded,
         every convolution in oneDNN, torch's fastest CPU inference).
nc's interpreter runs on one thread, so T defaults to 1 (same thread count).
The table gives the times and the ratios nc / torch (how many times slower
nc is), plus nc's error against torch's output. Timings are never pass/fail
material: the script only fails if a run fails or the outputs disagree.
Use Debian's /usr/bin/python3 (python3-torch, python3-torchvision).
"""
import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(HERE, "..", "test", "models"))
import gen_torchvision  # noqa: E402

MODELS = ["squeezenet1_1", "mobilenet_v2", "resnet18", "googlenet", "densenet121", "resnet50", "vgg11"]


def fastest(fn, x, reps):
    fn(x)  # warm-up
    fn(x)
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        fn(x)
        best = min(best, time.perf_counter() - t0)
    return best


def torch_times(name, reps, threads):
    """(eager, optimized) seconds per inference."""
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = gen_torchvision.build(name).eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        eager = fastest(model, x, reps)
        opt = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(model, x)))
        return eager, fastest(opt, x, reps)


def nc_time(nc_run, d, reps, work):
    out = os.path.join(work, os.path.basename(d) + ".npy")
    r = subprocess.run([nc_run, os.path.join(d, "model.onnx"), "--input", os.path.join(d, "input.npy"), "--output", out,
                        "--time", "--repeat", str(reps)], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError("nc-run failed on %s: %s" % (d, r.stderr.strip()))
    run = float(re.search(r"run time ([0-9.]+) ms", r.stderr).group(1)) / 1e3
    load = float(re.search(r"load time ([0-9.]+) ms", r.stderr).group(1)) / 1e3
    want = np.load(os.path.join(d, "expected.npy"))
    err = float(np.abs(np.load(out) - want).max() / np.abs(want).max())
    return run, load, err


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nc-run", default=os.path.join(HERE, "..", "build", "bin", "nc-run"))
    ap.add_argument("--data", default=os.path.join(HERE, "..", "build", "bench-data", "torchvision"),
                    help="where the exported models are kept")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--reps", type=int, default=5, help="runs per model and tool; the fastest counts")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (nc's interpreter uses one)")
    args = ap.parse_args()
    names = args.models.split(",")
    gen = [sys.executable, os.path.join(HERE, "..", "test", "models", "gen_torchvision.py"), "--out", args.data,
           "--models", ",".join(names)]
    subprocess.run(gen, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    work = os.path.join(args.data, "out")
    os.makedirs(work, exist_ok=True)
    print("nc-run %s, torch %s with %d thread(s), fastest of %d runs, batch 1, 3x224x224" % (
        os.path.relpath(args.nc_run), torch.__version__, args.threads, args.reps))
    print("nc error: max |nc - torch| / max |torch| on the model's output\n")
    print("| model | nc interpreter (ms) | torch eager (ms) | nc / eager | torch optimized (ms) | nc / optimized "
          "| nc load (ms) | nc error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        d = os.path.join(args.data, name)
        run, load, err = nc_time(args.nc_run, d, args.reps, work)
        eager, opt = torch_times(name, args.reps, args.threads)
        print("| %s | %.1f | %.1f | %.1fx | %.1f | %.1fx | %.0f | %.1e |" % (
            name, run * 1e3, eager * 1e3, run / eager, opt * 1e3, run / opt, load * 1e3, err), flush=True)
        if err > 1e-3:
            print("error: %s: nc's output differs from torch's" % name, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
