"""run, compile and simulate on NumPy arrays.

run and compile drive nc's tools (nc-run, nc-compile) in a temporary
directory: the compile driver lives in utils/nc-compile, not yet in a
library the extension could call; simulate runs in-process through the
host runtime ABI (_nc.simulate, python/nc/runtime.c). Errors
(file:line:col diagnostics) raise nc.DiagnosticError.
"""
import json
import os
import subprocess
import tempfile

import numpy as np

from . import DiagnosticError, _nc
from ._paths import BIN_DIR


def _tool(name):
    path = os.path.join(BIN_DIR, name)
    if not os.access(path, os.X_OK):
        raise FileNotFoundError("nc tool not found: %s" % path)
    return path


def _check(proc):
    if proc.returncode != 0:
        text = proc.stderr.strip() or "%s failed" % proc.args[0]
        raise DiagnosticError(text, [("error", text)])


def _model_path(model, tmp):
    """A path for `model`: a path as is, bytes (ONNX) written to a file."""
    if isinstance(model, (bytes, bytearray)):
        path = os.path.join(tmp, "model.onnx")
        with open(path, "wb") as f:
            f.write(model)
        return path
    if isinstance(model, (str, os.PathLike)):
        return os.fspath(model)
    raise TypeError("model: expected a path or ONNX bytes, got %s" % type(model).__name__)


def _run_tool(model, inputs, extra, tmp):
    if isinstance(inputs, np.ndarray):
        inputs = [inputs]
    args = [_tool("nc-run"), model]
    for i, x in enumerate(inputs):
        if not isinstance(x, np.ndarray):
            raise TypeError("inputs[%d]: expected a numpy.ndarray, got %s" % (i, type(x).__name__))
        p = os.path.join(tmp, "in%d.npy" % i)
        np.save(p, np.ascontiguousarray(x))
        args += ["--input", p]
    # the first result only: nc-run has no way yet to say how many results
    # a model has before it runs (see the report's "left" list)
    out = os.path.join(tmp, "out0.npy")
    proc = subprocess.run(args + ["--output", out] + extra, capture_output=True, text=True)
    _check(proc)
    return [np.load(out)]


def run(model, inputs):
    """Runs `model` (a path to .onnx/.mlir, or ONNX bytes) in the reference
    interpreter on a list of NumPy arrays; returns the outputs as a list."""
    with tempfile.TemporaryDirectory() as tmp:
        return _run_tool(_model_path(model, tmp), inputs, [], tmp)


class CompileResult:
    """What nc.compile returns: the binary (bytes), the target and the
    compiler's reports (stderr text, e.g. timing)."""

    def __init__(self, binary, target, reports):
        self.binary = binary
        self.target = target
        self.reports = reports

    def save(self, path):
        """Writes the binary to `path`."""
        with open(path, "wb") as f:
            f.write(self.binary)


def _option_value(name, value, tmp):
    if isinstance(value, np.ndarray):
        p = os.path.join(tmp, "%s.npy" % name)
        np.save(p, np.ascontiguousarray(value, dtype=np.float32))
        return p
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def compile(model, target="northpole", emit="binary", timing=False, **target_options):
    """Compiles `model` (path or ONNX bytes) for `target`. Target options are
    keyword arguments with '_' for '-' (calibration=array or path,
    max_samples=..., ...). With emit="binary" returns a CompileResult; with
    an IR level (e.g. emit="quantized") returns the IR text."""
    with tempfile.TemporaryDirectory() as tmp:
        path = _model_path(model, tmp)
        out = os.path.join(tmp, "out.ncb" if emit == "binary" else "out.mlir")
        args = [_tool("nc-compile"), path, "--target=" + target, "--emit=" + emit, "-o", out]
        if timing:
            args.append("--mlir-timing")
        for k, v in target_options.items():
            args.append("--%s=%s" % (k.replace("_", "-"), _option_value(k, v, tmp)))
        proc = subprocess.run(args, capture_output=True, text=True)
        _check(proc)
        if emit != "binary":
            with open(out) as f:
                return f.read()
        with open(out, "rb") as f:
            return CompileResult(f.read(), target, proc.stderr)


def simulate(binary, inputs, trace=None, trace_max_events=0, **simulator_options):
    """Runs a target binary (CompileResult, bytes or a .ncb path) on its
    target's simulator, in this process (the GIL is released while it
    runs). Inputs are float32 arrays (others are converted) or int8 arrays
    (then the outputs are int8 too), with a leading dim N times the model's
    to run N inferences. Returns (outputs, stats) with stats the chip's
    figures as a dict (docs/targets/figures.md). trace="t.json" also writes
    the timeline (docs/reports.md); other keyword arguments are the
    simulator's options (as nc-run's --KEY=VALUE)."""
    if isinstance(binary, CompileResult):
        binary = binary.binary
    if isinstance(binary, (str, os.PathLike)):
        with open(binary, "rb") as f:
            binary = f.read()
    elif not isinstance(binary, (bytes, bytearray)):
        raise TypeError("binary: expected a CompileResult, bytes or a path, got %s" % type(binary).__name__)
    if isinstance(inputs, np.ndarray):
        inputs = [inputs]
    arrays = []
    for i, x in enumerate(inputs):
        if not isinstance(x, np.ndarray):
            raise TypeError("inputs[%d]: expected a numpy.ndarray, got %s" % (i, type(x).__name__))
        arrays.append(np.ascontiguousarray(x, dtype=np.int8 if x.dtype == np.int8 else np.float32))
    options = {k.replace("_", "-"): str(v) for k, v in simulator_options.items()}
    outs, stats = _nc.simulate(bytes(binary), arrays, options,
                               None if trace is None else os.fspath(trace), int(trace_max_events))
    int8 = bool(arrays) and all(a.dtype == np.int8 for a in arrays)
    outputs = [np.frombuffer(data, dtype=np.int8 if int8 else np.float32).reshape(shape) for data, shape in outs]
    return outputs, json.loads(stats)
