"""nc.passmanager: pass pipelines in MLIR's textual syntax."""
from ._nc import PassManager  # noqa: F401

__all__ = ["PassManager"]
