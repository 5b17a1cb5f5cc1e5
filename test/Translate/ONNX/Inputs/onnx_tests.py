#!/usr/bin/python3
"""Imports ONNX's own backend test models with nc-translate.

Usage: onnx_tests.py NC_TRANSLATE ONNX_TESTS_DIR [NC_RUN]

Every model whose operators are all ones nc imports (SUPPORTED below, read from graph_ops.def; any
opset from 1 to 21) must import and verify; every other model must be
refused with an "is not supported" error (exit status 1), never a crash.
With NC_RUN, each imported model also runs on its test_data_set_0 inputs
with the reference interpreter, and must give ONNX's expected outputs (to
float32 rounding): the check that legacy forms (opset 6 broadcasting,
per-channel PRelu, 2-D Softmax) were imported as their authors meant.
Prints one line per refused model and a summary line.
"""
import glob
import os
import re
import subprocess
import sys

import onnx

# The ONNX operators of the graph dialect's ops (the ONNX column of
# dialects/graph/graph_ops.def), and the inference no-op the importer removes.
GRAPH_OPS_DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../dialects/graph/graph_ops.def")
with open(GRAPH_OPS_DEF) as f:
    SUPPORTED = set(re.findall(r'\bONNX\("(\w+)"', f.read())) | {"Dropout"}


def run_matches(nc_run, path, m, work):
    """Runs nc-run on the model's first test data set; None if it matches."""
    import numpy as np
    from onnx import numpy_helper
    data = os.path.join(os.path.dirname(path), "test_data_set_0")
    inits = {t.name for t in m.graph.initializer}
    n_in = len([i for i in m.graph.input if i.name not in inits])
    ins = sorted(glob.glob(os.path.join(data, "input_*.pb")))[:n_in]
    wants = sorted(glob.glob(os.path.join(data, "output_*.pb")))
    outs = [os.path.join(work, "out_%d.npy" % k) for k in range(len(wants))]
    r = subprocess.run([nc_run, path] + sum([["--input", i] for i in ins], []) + sum([["--output", o] for o in outs], []),
                       capture_output=True, text=True)
    if r.returncode:
        return "nc-run failed: " + r.stderr.strip()
    for o, w in zip(outs, wants):
        got, want = np.load(o), numpy_helper.to_array(onnx.load_tensor(w))
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-3, atol=1e-5, equal_nan=True):
            return "output %s differs" % os.path.basename(w)
    return None


def main():
    tool, root = sys.argv[1:3]
    nc_run = sys.argv[3] if len(sys.argv) > 3 else None
    work = os.environ.get("TMPDIR", "/tmp")
    matched = 0
    paths = sorted(glob.glob(os.path.join(root, "*", "*", "model.onnx")))
    if not paths:
        print("skipped: no models under " + root)
        sys.exit(0)
    imported = refused = failures = 0
    for path in paths:
        name = os.path.basename(os.path.dirname(path))
        m = onnx.load(path)
        ops = {n.op_type for n in m.graph.node if n.domain in ("", "ai.onnx")}
        foreign = [n for n in m.graph.node if n.domain not in ("", "ai.onnx")]
        inputs_ok = all(i.type.tensor_type.elem_type not in (0, onnx.TensorProto.STRING) for i in m.graph.input)
        expect_ok = ops <= SUPPORTED and not foreign and inputs_ok
        r = subprocess.run([tool, "--import-onnx", path], capture_output=True, text=True)
        if r.returncode < 0 or r.returncode > 1 or "Sanitizer" in r.stderr:
            failures += 1
            print("CRASHED:", name, r.returncode)
        elif expect_ok and r.returncode:
            failures += 1
            print("FAILED:", name, r.stderr.strip().splitlines()[0] if r.stderr else "")
        elif expect_ok and "func.func" not in r.stdout:
            failures += 1
            print("NO FUNCTION:", name)
        elif not expect_ok and not r.returncode:
            imported += 1  # a fold-only op (Gather, Expand, ...) with known inputs
        elif not expect_ok and ("is not supported" not in r.stderr and "does not support" not in r.stderr):
            failures += 1
            print("UNCLEAR REFUSAL:", name, r.stderr.strip())
        elif not expect_ok:
            refused += 1
            print("refused:", name, "-", r.stderr.strip().splitlines()[0].split("error: ", 1)[-1])
        else:
            imported += 1
            problem = run_matches(nc_run, path, m, work) if nc_run else None
            if problem:
                failures += 1
                print("WRONG RESULT:", name, problem)
            elif nc_run:
                matched += 1
    print("onnx-tests: %d models, %d imported, %d refused, %d failures" % (len(paths), imported, refused, failures))
    if nc_run:
        print("onnx-tests: %d imported models compute ONNX's expected outputs" % matched)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
