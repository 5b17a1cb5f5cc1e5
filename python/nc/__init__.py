"""nc: Python bindings of the nc neural-network compiler.

    import nc
    outputs = nc.run("model.onnx", [x])          # the reference interpreter

nc.ir (Context, Module, Operation) and nc.passmanager (PassManager) wrap the
C API through the extension nc._nc; run/compile/simulate drive nc's tools
(nc-run, nc-compile) on NumPy arrays.
"""


class DiagnosticError(Exception):
    """An error reported through nc's diagnostics.

    str(e) is the diagnostics as nc prints them (file:line:col: error: ...,
    with notes); e.diagnostics is the list of (severity, text) pairs."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)

    @property
    def severity(self):
        """The severity of the first diagnostic ("error" if none)."""
        return self.diagnostics[0][0] if self.diagnostics else "error"


from . import _nc  # noqa: E402

_nc._set_diagnostic_error(DiagnosticError)

from .driver import run, compile, simulate, CompileResult  # noqa: E402,F401
from . import ir, passmanager  # noqa: E402,F401
