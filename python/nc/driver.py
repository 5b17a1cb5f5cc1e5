"""run, compile and simulate on NumPy arrays; ONNX import and export.

run (the reference interpreter), simulate (a target binary on its
simulator, through the host runtime ABI: python/nc/runtime.c) and the ONNX
importer/exporter run in this process (python/nc/interp.c), with the GIL
released while they work. compile still drives the nc-compile tool in a
temporary directory: the compile driver lives in utils/nc-compile, not yet
in a library below python/. Errors (file:line:col diagnostics) raise
nc.DiagnosticError.
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


def _onnx_bytes(model):
    """The serialized model of an onnx.ModelProto (or anything with
    SerializeToString), bytes as they are, else None."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model)
    serialize = getattr(model, "SerializeToString", None)
    return serialize() if callable(serialize) else None


def _model_path(model, tmp):
    """A path for `model`: a path as is, ONNX (bytes or ModelProto) written to a file."""
    data = _onnx_bytes(model)
    if data is not None:
        path = os.path.join(tmp, "model.onnx")
        with open(path, "wb") as f:
            f.write(data)
        return path
    if isinstance(model, (str, os.PathLike)):
        return os.fspath(model)
    raise TypeError("model: expected a path, ONNX bytes or an onnx.ModelProto, got %s" % type(model).__name__)


def import_onnx(model, context=None):
    """Imports an ONNX model (a path, bytes or an onnx.ModelProto) into
    `context` (default: a new Context) as a verified graph-dialect
    nc.ir.Module. Raises nc.DiagnosticError on a bad model."""
    from .ir import Context
    context = Context() if context is None else context
    data = _onnx_bytes(model)
    if data is not None:
        return _nc.import_onnx(context, data, "<memory>")
    if not isinstance(model, (str, os.PathLike)):
        raise TypeError("import_onnx: expected a path, bytes or an onnx.ModelProto, got %s" % type(model).__name__)
    return _nc.import_onnx(context, os.fspath(model), os.fspath(model))


def export_onnx(module, path=None, function=None, opset=0):
    """Exports the graph-dialect function of `module` (an nc.ir.Module; its
    only function, or `function`) as ONNX (opset 13 or 17; 0: 17). Returns
    the serialized ModelProto (bytes; onnx.load_from_string reads it), and
    writes it to `path` if given. Raises nc.DiagnosticError for an op ONNX
    cannot express."""
    data = _nc.export_onnx(module, module.context, function, int(opset))
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return data


def _load(model, context):
    from .ir import Module
    if isinstance(model, Module):
        return model
    if isinstance(model, (str, os.PathLike)) and os.fspath(model).endswith(".mlir"):
        module = Module.parse_file(os.fspath(model), context)
        module.verify()
        return module
    if isinstance(model, (str, os.PathLike)) and not os.fspath(model).endswith(".onnx"):
        raise ValueError("run: unknown model format '%s' (expected .mlir or .onnx)" % os.fspath(model))
    return import_onnx(model, context)


def _as_array(t):
    a = np.asarray(t)  # a view of the interpreter's buffer: no copy
    return a.view(np.uint16).astype(np.uint32).__lshift__(16).view(np.float32) if t.dtype == "bf16" else a


def run(model, inputs, function=None):
    """Runs `model` in the reference interpreter, in this process, on NumPy
    arrays; returns every output as a NumPy array. `model` is a path (.onnx
    or .mlir), ONNX bytes, an onnx.ModelProto or an nc.ir.Module (its only
    function, `main`, or `function`). Inputs are used in place when
    C-contiguous (others are copied); outputs view the interpreter's
    buffers. A leading dim N times the model's runs N inferences. Raises
    nc.DiagnosticError (e.g. a wrong input shape, at the argument)."""
    from .ir import Context
    if isinstance(inputs, np.ndarray):
        inputs = [inputs]
    arrays = []
    for i, x in enumerate(inputs):
        if not isinstance(x, np.ndarray):
            raise TypeError("inputs[%d]: expected a numpy.ndarray, got %s" % (i, type(x).__name__))
        arrays.append(np.ascontiguousarray(x))
    module = _load(model, getattr(model, "context", None) or Context())
    return [_as_array(t) for t in _nc.interpret(module, module.context, arrays, function)]


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
