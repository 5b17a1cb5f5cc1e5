"""nc.ir: contexts, modules, operations, values, types, attributes,
locations, regions and blocks, and insertion points for building IR (see
docs/tutorials/python.md). The C extension (_nc) holds the handles; this
module adds the pure-Python parts: the attribute mapping of an op and the
insertion-point stack the generated op classes (nc.dialects) build at."""
import threading
from collections.abc import MutableMapping

from ._nc import (Attribute, Block, Context, Location, Module, Operation, Region,  # noqa: F401
                  Type, Value)

__all__ = ["Attribute", "Block", "Context", "InsertionPoint", "Location", "Module", "OpAttributeMap",
           "Operation", "Region", "Type", "Value"]


class OpAttributeMap(MutableMapping):
    """op.attributes: names to typed Attribute objects, inherent attributes
    first. Assigning takes an Attribute or a Python value (bool, int -> i64,
    float -> f32, str -> string, list of ints -> array<i64: ...>, ...: see
    Attribute.get); `attr.value` gives the Python value back."""

    def __init__(self, operation):
        self.operation = operation

    def __getitem__(self, name):
        return self.operation._get_attribute(name)

    def __setitem__(self, name, value):
        self.operation._set_attribute(name, value)

    def __delitem__(self, name):
        self.operation._remove_attribute(name)

    def __iter__(self):
        return iter(self.operation._attribute_names())

    def __len__(self):
        return len(self.operation._attribute_names())

    def __contains__(self, name):
        return name in self.operation._attribute_names()

    def __repr__(self):
        return "{%s}" % ", ".join("%s = %s" % (k, v) for k, v in self.items())


class InsertionPoint:
    """Where new ops go: InsertionPoint(block) appends to the block,
    InsertionPoint(op) inserts in front of op, at_block_begin and
    at_block_terminator likewise. `with InsertionPoint(...):` makes it the
    place where nc.dialects op classes (and InsertionPoint.current) build;
    the stack is per thread."""

    _local = threading.local()

    def __init__(self, block_or_op):
        if isinstance(block_or_op, Block):
            self.block, self.ref_operation = block_or_op, None
        elif isinstance(block_or_op, Operation):
            block = block_or_op.block
            if block is None:
                raise ValueError("InsertionPoint: the top-level op is not in a block")
            self.block, self.ref_operation = block, block_or_op
        else:
            raise TypeError("InsertionPoint: expected a Block or an Operation, got %s" % type(block_or_op).__name__)

    @classmethod
    def at_block_begin(cls, block):
        """Inserts in front of the block's first op (appends if it is empty)."""
        ops = block.operations
        return cls(ops[0]) if ops else cls(block)

    @classmethod
    def at_block_terminator(cls, block):
        """Inserts in front of the block's last op (its terminator)."""
        ops = block.operations
        if not ops:
            raise ValueError("at_block_terminator: the block is empty")
        return cls(ops[-1])

    def insert(self, operation):
        """Moves an op of the same module to this insertion point."""
        if self.ref_operation is not None:
            operation.move_before(self.ref_operation)
        else:
            self.block.append(operation)

    def build(self, name, operands=(), attributes=None, result_types=None, location=None):
        """Creates op `name` here (see _nc.build_op) and returns it."""
        from . import _nc
        return _nc.build_op(name, list(operands), self.block, self.ref_operation, attributes, result_types,
                            location)

    @classmethod
    def _stack(cls):
        stack = getattr(cls._local, "stack", None)
        if stack is None:
            stack = cls._local.stack = []
        return stack

    @classmethod
    def current(cls):
        """The innermost `with InsertionPoint(...)` of this thread; ValueError if none."""
        stack = cls._stack()
        if not stack:
            raise ValueError("no insertion point: use `with InsertionPoint(...)` or pass before=/ip=")
        return stack[-1]

    def __enter__(self):
        self._stack().append(self)
        return self

    def __exit__(self, *exc):
        stack = self._stack()
        if not stack or stack[-1] is not self:
            raise RuntimeError("InsertionPoint contexts exited out of order")
        stack.pop()
        return False
