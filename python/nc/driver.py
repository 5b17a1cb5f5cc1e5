"""run, compile and simulate on NumPy arrays; ONNX import and export.

Everything runs in this process, with the GIL released while C works: run
(the reference interpreter) and the ONNX importer/exporter
(python/nc/interp.c), compile (the target API, as nc-compile drives it:
python/nc/compile.c), simulate (a target binary on its simulator, through
the host runtime ABI: python/nc/runtime.c). Errors (file:line:col
diagnostics) raise nc.DiagnosticError.
"""
import json
import os
import tempfile

import numpy as np

from . import _nc


def _onnx_bytes(model):
    """The serialized model of an onnx.ModelProto (or anything with
    SerializeToString), bytes as they are, else None."""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return bytes(model)
    serialize = getattr(model, "SerializeToString", None)
    return serialize() if callable(serialize) else None


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


def export_onnx(module, path=None, function=None, opset=0, proto=False):
    """Exports the graph-dialect function of `module` (an nc.ir.Module; its
    only function, or `function`) as ONNX (opset 13, 17 or 19; 0: 17, or 19 for a wrap pad). Returns
    the serialized ModelProto (bytes), or with proto=True an
    onnx.ModelProto (the onnx package parses the bytes), and writes it to
    `path` if given. Raises nc.DiagnosticError for an op ONNX cannot
    express."""
    data = _nc.export_onnx(module, module.context, function, int(opset))
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    if proto:
        import onnx
        return onnx.load_from_string(data)
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


def _input_arrays(inputs, dtype_of):
    """inputs (one array or a sequence of them) as a list of C-contiguous
    arrays, each of dtype_of(x) (converted, or the array itself when it
    already is); a TypeError names the first that is not an array."""
    if isinstance(inputs, np.ndarray):
        inputs = [inputs]
    arrays = []
    for i, x in enumerate(inputs):
        if not isinstance(x, np.ndarray):
            raise TypeError("inputs[%d]: expected a numpy.ndarray, got %s" % (i, type(x).__name__))
        arrays.append(np.ascontiguousarray(x, dtype=dtype_of(x)))
    return arrays


def run(model, inputs, function=None):
    """Runs `model` in the reference interpreter, in this process, on NumPy
    arrays; returns every output as a NumPy array. `model` is a path (.onnx
    or .mlir), ONNX bytes, an onnx.ModelProto or an nc.ir.Module (its only
    function, `main`, or `function`). Inputs are used in place when
    C-contiguous (others are copied); outputs view the interpreter's
    buffers. A leading dim N times the model's runs N inferences. Raises
    nc.DiagnosticError (e.g. a wrong input shape, at the argument)."""
    from .ir import Context
    arrays = _input_arrays(inputs, lambda x: x.dtype)
    module = _load(model, getattr(model, "context", None) or Context())
    return [_as_array(t) for t in _nc.interpret(module, module.context, arrays, function)]


class CompileResult:
    """What nc.compile returns: the binary (bytes), the target and the
    compiler's reports (text, "" when there is none): what its passes print
    (precision="mixed": the table of chosen widths, as nc-compile prints it
    on stderr), then the timing report with timing=True."""

    def __init__(self, binary, target, reports):
        self.binary = binary
        self.target = target
        self.reports = reports

    def save(self, path):
        """Writes the binary to `path`."""
        with open(path, "wb") as f:
            f.write(self.binary)


def _option_value(name, value, tmp):
    if isinstance(value, np.ndarray):  # options read arrays from .npy files (e.g. calibration)
        p = os.path.join(tmp, "%s.npy" % name)
        np.save(p, np.ascontiguousarray(value, dtype=np.float32))
        return p
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def compile(model, target="northpole", emit="binary", timing=False, input_shape=None, **target_options):
    """Compiles `model` (a path to .onnx or .mlir, ONNX bytes, an
    onnx.ModelProto or an nc.ir.Module, which is left as it is) for
    `target`, in this process (the GIL is released while the pipeline
    runs). Target options are keyword arguments with '_' for '-'
    (calibration=array or path, max_samples=..., ...; arrays are written
    to a temporary .npy file); input_shape="name:1x1x28x28" fixes dynamic
    input dims. With emit="binary" returns a CompileResult (its `reports`
    holds the mixed-precision table and, with timing=True, the timing
    report; neither is written to stderr); with an IR level (e.g.
    emit="quantized") or one of the target's own outputs, the text. Raises
    nc.DiagnosticError."""
    from .ir import Context
    with tempfile.TemporaryDirectory() as tmp:
        options = [(k.replace("_", "-"), _option_value(k, v, tmp)) for k, v in target_options.items()]
        module = _load(model, getattr(model, "context", None) or Context())
        kind, data, target_name, report = _nc.compile_module(module, module.context, target, emit, options,
                                                             input_shape, bool(timing))
    if kind != "binary":
        return data
    return CompileResult(data, target_name, report or "")


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
    arrays = _input_arrays(inputs, lambda x: np.int8 if x.dtype == np.int8 else np.float32)
    options = {k.replace("_", "-"): str(v) for k, v in simulator_options.items()}
    outs, stats = _nc.simulate(bytes(binary), arrays, options,
                               None if trace is None else os.fspath(trace), int(trace_max_events))
    int8 = bool(arrays) and all(a.dtype == np.int8 for a in arrays)
    outputs = [np.frombuffer(data, dtype=np.int8 if int8 else np.float32).reshape(shape) for data, shape in outs]
    return outputs, json.loads(stats)
