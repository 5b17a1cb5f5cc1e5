"""nc.passmanager: pass pipelines in MLIR's textual syntax."""
from ._nc import PassManager  # noqa: F401

__all__ = ["PassManager"]

from ._nc import register_pass  # noqa: E402,F401

__all__.append("register_pass")
