"""nc: Python bindings of the nc neural-network compiler.

    import nc
    outputs = nc.run("model.onnx", [x])          # the reference interpreter

nc.ir (Context, Module, Operation) and nc.passmanager (PassManager, passes
written in Python) and nc.rewrite (rewrite patterns in Python) wrap the C
API through the extension nc._nc; run (the reference interpreter),
compile and simulate run in-process on NumPy arrays.
"""


import collections as _collections


class Diagnostic(_collections.namedtuple("Diagnostic", "severity text file line col message notes")):
    """One diagnostic: severity ("error", "warning", "note", "remark"), text
    (as nc prints it: file:line:col: severity: message, the source line, a
    caret, the notes), file, line and col (None, 0, 0 when it has no file
    location), message (without location) and notes (Diagnostics). It is a
    tuple whose first two items are (severity, text)."""

    __slots__ = ()

    def __new__(cls, severity, text, file=None, line=0, col=0, message=None, notes=()):
        return super().__new__(cls, severity, text, file, line, col, text if message is None else message,
                               list(notes))

    def __str__(self):
        return self.text.rstrip("\n")


class DiagnosticError(Exception):
    """An error reported through nc's diagnostics.

    str(e) is the diagnostics as nc prints them (file:line:col: error: ...,
    with notes); e.diagnostics is the list of nc.Diagnostic records (each
    also a (severity, text) pair), with their file, line, col and notes.

    In a pass written in Python, `raise DiagnosticError.at(op, "message",
    notes=[(other_op, "note")])` reports the error at op's location (with
    the notes at theirs), exactly as a C pass's nc_op_emit_error."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = [d if isinstance(d, Diagnostic) else Diagnostic(*d) for d in diagnostics]

    @classmethod
    def at(cls, op, message, notes=(), severity="error"):
        """An error to raise from a pass written in Python: the pass manager
        reports it at `op` (an Operation) with `notes`, a list of (Operation
        or None, text)."""
        e = cls(message, [Diagnostic(severity, message)])
        e._at = (op, severity, message, list(notes))
        return e

    def _emit(self):
        op, severity, message, notes = self._at
        _nc.emit_diagnostic(op, severity, message, notes)

    @property
    def severity(self):
        """The severity of the first diagnostic ("error" if none)."""
        return self.diagnostics[0].severity if self.diagnostics else "error"

    @property
    def location(self):
        """(file, line, col) of the first diagnostic, or None."""
        d = self.diagnostics[0] if self.diagnostics else None
        return (d.file, d.line, d.col) if d is not None and d.file is not None else None

    @property
    def notes(self):
        """The notes of the first diagnostic."""
        return self.diagnostics[0].notes if self.diagnostics else []


from . import _nc  # noqa: E402

_nc._set_diagnostic_error(DiagnosticError)
_nc._set_diagnostic_class(Diagnostic)


class _DiagnosticHandler:
    """What Context.diagnostic_handler(fn) returns: inside `with`, fn(d)
    is called with every nc.Diagnostic the context emits (from any thread,
    holding the GIL) before nc's own handling; returning True consumes it
    (it is then neither printed nor raised)."""

    def __init__(self, context, fn):
        if not callable(fn):
            raise TypeError("diagnostic_handler: expected a callable fn(diagnostic)")
        self.context, self.fn, self.id = context, fn, None

    def __enter__(self):
        if self.id is not None:
            raise RuntimeError("diagnostic_handler: already active")
        self.id = _nc.push_diagnostic_handler(self.context, self.fn)
        return self

    def __exit__(self, *exc):
        _nc.pop_diagnostic_handler(self.context, self.id)
        self.id = None
        return False


def emit_error(op, message, notes=()):
    """Emits an error at `op`'s location, with notes [(Operation or None,
    text)]: it goes to the context's handlers, and from a pass makes the
    pipeline raise DiagnosticError with it."""
    _nc.emit_diagnostic(op, "error", message, list(notes))


def emit_warning(op, message, notes=()):
    """Emits a warning at `op`'s location (see emit_error)."""
    _nc.emit_diagnostic(op, "warning", message, list(notes))


def emit_remark(op, message, notes=()):
    """Emits a remark at `op`'s location (see emit_error)."""
    _nc.emit_diagnostic(op, "remark", message, list(notes))

from .driver import run, compile, simulate, CompileResult, import_onnx, export_onnx  # noqa: E402,F401
from . import ir, passmanager, rewrite  # noqa: E402,F401
