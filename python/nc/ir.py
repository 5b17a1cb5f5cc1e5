"""nc.ir: contexts, modules and operations (see docs/tutorials/python.md)."""
from ._nc import Context, Module, Operation  # noqa: F401

__all__ = ["Context", "Module", "Operation"]
