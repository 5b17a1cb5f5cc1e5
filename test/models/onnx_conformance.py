#!/usr/bin/python3
"""ONNX backend conformance of nc's importer and reference interpreter.

Every directory under --tests holding a model.onnx and test_data_set_*/
(ONNX's backend test layout) is one case: nc-run imports the model, runs
each data set's input_*.pb and writes the outputs as .pb files, which are
compared with output_*.pb: floats with |got - want| <= atol + rtol * |want|
(rtol 1e-3, atol 1e-5; NaNs must match), integers and booleans exactly,
dtypes and shapes always exactly.

A case whose ONNX ops all appear in the graph dialect's spec
(docs/design/graph-dialect.md) must pass. A case using other ops is
skipped when nc cannot import it (the ops are listed), and still counts as
passed when it imports and matches (the importer evaluates some such ops,
e.g. Shape chains, at import time) or failed when it imports and gives
wrong results. With --roundtrip, each passing case is also imported,
exported and imported again with nc-translate: the IR must not change and
the exported model must compute the same outputs bit for bit. The last line is `N passed, N failed, N skipped`; the exit
status is 1 if any case failed. Use Debian's /usr/bin/python3 (numpy, onnx).
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

# ONNX op types the graph dialect spec covers (docs/design/graph-dialect.md),
# plus the inference no-ops the importer removes.
SPEC_OPS = {
    "Constant", "Identity", "Cast", "Conv", "ConvTranspose", "MatMul", "Gemm",
    "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean",
    "Sqrt", "Exp", "Neg", "Abs", "Log", "Reciprocal", "Relu", "Sigmoid", "Tanh",
    "Softplus", "Softsign", "LeakyRelu", "PRelu", "Elu", "Selu", "Clip",
    "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
    "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "LRN",
    "BatchNormalization", "InstanceNormalization", "Concat", "Split", "Slice",
    "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Pad",
    "Softmax", "LogSoftmax", "QuantizeLinear", "DequantizeLinear",
    "QLinearConv", "QLinearMatMul", "ConvInteger", "MatMulInteger", "Dropout",
}

RTOL, ATOL = 1e-3, 1e-5


def read_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def numbered(pattern):
    files = glob.glob(pattern)
    return sorted(files, key=lambda p: int(os.path.basename(p).split("_")[1].split(".")[0]))


def model_ops(path):
    m = onnx.load(path, load_external_data=False)
    ops = set()
    for n in m.graph.node:
        ops.add(n.op_type if n.domain in ("", "ai.onnx") else n.domain + "." + n.op_type)
    return ops


def compare(got, want):
    """None if got matches want, else a one-line reason."""
    if got.dtype != want.dtype:
        return "dtype %s, expected %s" % (got.dtype, want.dtype)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if got.dtype.kind == "f":
        g, w = got.astype(np.float64), want.astype(np.float64)
        nan = np.isnan(w)
        if not np.array_equal(nan, np.isnan(g)):
            return "NaNs differ"
        g, w = g[~nan], w[~nan]
        bad = np.abs(g - w) > ATOL + RTOL * np.abs(w)
        if bad.any():
            i = int(np.argmax(np.abs(g - w) - RTOL * np.abs(w)))
            return "%d of %d elements differ (worst: got %r, expected %r)" % (bad.sum(), w.size, g[i], w[i])
        return None
    if not np.array_equal(got, want):
        return "%d of %d elements differ" % (int((got != want).sum()), want.size)
    return None


def run_case(case, args):
    """Returns (status, detail): status is 'pass', 'fail' or 'skip'."""
    name = os.path.relpath(case, args.tests)
    model = os.path.join(case, "model.onnx")
    unsupported = sorted(model_ops(model) - SPEC_OPS)
    sets = sorted(glob.glob(os.path.join(case, "test_data_set_*")))
    if not sets:
        return name, "skip", "no test data sets"
    work = os.path.join(args.work, name.replace(os.sep, "_"))
    os.makedirs(work, exist_ok=True)
    for ds in sets:
        inputs = numbered(os.path.join(ds, "input_*.pb"))
        wants = numbered(os.path.join(ds, "output_*.pb"))
        outs = [os.path.join(work, "%s_output_%d.pb" % (os.path.basename(ds), i)) for i in range(len(wants))]
        cmd = [args.nc_run, model]
        for p in inputs:
            cmd += ["--input", p]
        for p in outs:
            cmd += ["--output", p]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        if r.returncode != 0:
            msg = (r.stderr.strip().splitlines() or ["exit status %d" % r.returncode])[0]
            if unsupported:
                return name, "skip", "unsupported ops: " + ", ".join(unsupported)
            return name, "fail", "%s: nc-run failed: %s" % (os.path.basename(ds), msg)
        for i, (o, w) in enumerate(zip(outs, wants)):
            why = compare(read_pb(o), read_pb(w))
            if why:
                return name, "fail", "%s output %d: %s" % (os.path.basename(ds), i, why)
    if args.roundtrip:
        why = roundtrip(model, sets[0], work, args)
        if why:
            return name, "fail", "round trip: " + why
    return name, "pass", ("(imported although it uses " + ", ".join(unsupported) + ")") if unsupported else ""


def roundtrip(model, ds, work, args):
    """Import, export, import again: the IR must be the same, and the exported
    model must compute the same outputs bit for bit. None if it holds."""
    a, rt, c = (os.path.join(work, n) for n in ("import.mlir", "export.onnx", "reimport.mlir"))
    for cmd in ([args.roundtrip, "--import-onnx", model, "-o", a], [args.roundtrip, "--export-onnx", a, "-o", rt],
                [args.roundtrip, "--import-onnx", rt, "-o", c]):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        if r.returncode:
            return "%s failed: %s" % (" ".join(cmd[1:2]), (r.stderr.strip().splitlines() or ["?"])[0])
    if open(a).read() != open(c).read():
        return "the re-imported IR differs (diff %s %s)" % (a, c)
    inputs = numbered(os.path.join(ds, "input_*.pb"))
    n_out = len(numbered(os.path.join(ds, "output_*.pb")))
    cmd = [args.nc_run, rt]
    for p in inputs:
        cmd += ["--input", p]
    outs = [os.path.join(work, "rt_output_%d.pb" % i) for i in range(n_out)]
    for p in outs:
        cmd += ["--output", p]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    if r.returncode:
        return "nc-run on the exported model failed: " + (r.stderr.strip().splitlines() or ["?"])[0]
    for i, p in enumerate(outs):
        first = os.path.join(work, "%s_output_%d.pb" % (os.path.basename(ds), i))
        if open(p, "rb").read() != open(first, "rb").read():
            return "output %d of the exported model differs" % i
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nc-run", default="nc-run", help="the nc-run binary")
    ap.add_argument("--tests", required=True, help="directory of ONNX backend test cases (searched recursively)")
    ap.add_argument("--work", required=True, help="scratch directory for outputs")
    ap.add_argument("--roundtrip", metavar="NC_TRANSLATE",
                    help="also check the ONNX round trip of each passing case with this nc-translate")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=300, help="seconds per nc-run")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case")
    args = ap.parse_args()
    if not os.path.isdir(args.tests):
        print("skipped: no %s" % os.path.normpath(args.tests))
        return 0
    cases = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(args.tests, "**", "model.onnx"),
                                                          recursive=True))
    if not cases:
        print("error: no model.onnx under %s" % args.tests, file=sys.stderr)
        return 1
    os.makedirs(args.work, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        results = list(ex.map(lambda c: run_case(c, args), cases))
    counts = {"pass": 0, "fail": 0, "skip": 0}
    skipped_ops = {}
    for name, status, detail in results:
        counts[status] += 1
        if status == "fail":
            print("FAIL %s: %s" % (name, detail))
        elif status == "skip":
            print("SKIP %s: %s" % (name, detail))
            if detail.startswith("unsupported ops: "):
                for op in detail[len("unsupported ops: "):].split(", "):
                    skipped_ops[op] = skipped_ops.get(op, 0) + 1
        elif args.verbose:
            print("PASS %s %s" % (name, detail))
    if skipped_ops:
        print("skipped for unsupported ops: " + ", ".join("%s (%d)" % kv for kv in sorted(skipped_ops.items())))
    print("%d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
