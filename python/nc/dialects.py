"""nc.dialects: one Python class per registered op, generated from nc's op
tables (the C nc_op_def entries, read through _nc.op_defs), so no op is
described twice: `nc.dialects.graph.ConvOp`, `nc.dialects.arith.AddiOp`, ...

    from nc.dialects import graph
    y = graph.AddOp(x, x, before=ret).result
    with InsertionPoint(ret):
        z = graph.ReluOp(y).result

Each class's docstring is the op's summary and description; operands are
Values, attributes keyword arguments (nc.ir.Attribute objects, Types for
type attributes, NumPy arrays for dense<...>, IR text, or Python int,
float, str, bool and lists of ints), `before` the op to insert
in front of, or `ip` an nc.ir.InsertionPoint, or neither inside
`with InsertionPoint(...)`; `loc` an nc.ir.Location (or `with Location`);
`result_types` (Types or type text) optional when the op infers them. An
op with regions gets them empty (fill them with Region.append_block) and is
verified with its module.
"""
import sys
import types

from . import _nc

__all__ = []


def attribute_text(value):
    """IR text for a Python value: int -> i64, float -> f32, bool, str ->
    string attribute, list/tuple of ints -> array<i64: ...>; a str starting
    with '#', '"', 'array<', 'dense' or a digit is taken as IR text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "%d : i64" % value
    if isinstance(value, float):
        return "%r : f32" % value
    if isinstance(value, (list, tuple)):
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise TypeError("only lists of ints convert to attributes (array<i64: ...>); pass IR text instead")
        return "array<i64: %s>" % ", ".join(str(v) for v in value) if value else "array<i64>"
    if isinstance(value, str):
        if value[:1] in ('#', '"') or value.startswith(("array<", "dense", "[", "{")) or value[:1].isdigit():
            return value
        return '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"')
    raise TypeError("cannot convert %s to an attribute" % type(value).__name__)


def class_name(op_name):
    """'graph.max_pool' -> 'MaxPoolOp'."""
    return "".join(p[:1].upper() + p[1:] for p in op_name.split(".", 1)[1].replace(".", "_").split("_")) + "Op"


class OpView:
    """Base of the generated op classes: creates the op and wraps the new
    nc.ir.Operation. The op goes in front of `before`, else at `ip` (an
    nc.ir.InsertionPoint), else at the innermost `with InsertionPoint(...)`;
    its location is `loc`, else the innermost `with Location`, else that of
    the op it is inserted in front of (or of the block's owner)."""
    OPERATION_NAME = None

    def __init__(self, *operands, before=None, result_types=None, ip=None, loc=None, **attributes):
        from .ir import Attribute, InsertionPoint, Type
        attrs = {k: v if isinstance(v, (Attribute, Type)) or hasattr(v, "__array_interface__") else attribute_text(v)
                 for k, v in attributes.items()}
        if before is not None:
            ip = InsertionPoint(before)
        elif ip is None:
            ip = InsertionPoint.current()
        elif not isinstance(ip, InsertionPoint):
            raise TypeError("ip: expected an InsertionPoint, got %s" % type(ip).__name__)
        self.operation = ip.build(self.OPERATION_NAME, operands, attrs or None, result_types, loc)

    @property
    def results(self):
        return self.operation.results

    @property
    def result(self):
        """The only result (ValueError if the op has another number)."""
        rs = self.operation.results
        if len(rs) != 1:
            raise ValueError("%s has %d results" % (self.OPERATION_NAME, len(rs)))
        return rs[0]


def _doc(d):
    lines = [d["summary"] or d["name"], ""]
    if d["description"]:
        lines += [d["description"].strip(), ""]
    lines.append("Operands: " + (", ".join(d["operands"]) or "none"))
    lines.append("Results: " + (", ".join(d["results"]) or "none") +
                 ("" if d["infers_types"] else " (pass result_types)"))
    lines.append("Attributes: " + (", ".join(d["attributes"]) or "none"))
    return "\n".join(lines)


def _build():
    modules = {}
    for d in _nc.op_defs(_nc.Context()):
        mod = modules.get(d["dialect"])
        if mod is None:
            mod = types.ModuleType(__name__ + "." + d["dialect"], "Ops of nc's %s dialect." % d["dialect"])
            mod.__all__ = []
            modules[d["dialect"]] = mod
        cls = type(class_name(d["name"]), (OpView,), {"OPERATION_NAME": d["name"], "__doc__": _doc(d),
                                                      "OPERANDS": tuple(d["operands"]),
                                                      "ATTRIBUTES": tuple(d["attributes"]),
                                                      "__module__": mod.__name__})
        setattr(mod, cls.__name__, cls)
        mod.__all__.append(cls.__name__)
    for name, mod in modules.items():
        sys.modules[mod.__name__] = mod
        globals()[name] = mod
        __all__.append(name)


_build()
