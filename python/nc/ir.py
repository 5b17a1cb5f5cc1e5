"""nc.ir: contexts, modules and operations (see docs/tutorials/python.md)."""
from ._nc import Context, Module, Operation, Value  # noqa: F401

__all__ = ["Context", "Module", "Operation", "Value"]
