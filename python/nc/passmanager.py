"""nc.passmanager: pass pipelines in MLIR's textual syntax, and passes
written in Python.

A Python pass is a class registered with @register_pass: `argument` (its
name in pipelines), optional `summary`, `anchor` (the op it runs on, e.g.
"func.func"; None: any op) and a docstring (its description), typed
options and statistics declared as class attributes, and run(self, op):

    @register_pass
    class CountAdds(Pass):
        argument = "count-adds"
        anchor = "func.func"
        limit = Option(int, -1, "stop after this many (-1: no limit)")
        num_adds = Statistic("Number of graph.add ops seen")

        def run(self, func):
            for op in func.walk():
                if op.name == "graph.add":
                    self.num_adds += 1

It joins nc's pass registry next to the C passes: PassManager.parse(
"builtin.module(func.func(count-adds{limit=3},cse))") parses and checks its
options (with diagnostics pointing into the pipeline text), and
run(statistics=True) reports its statistics as it does C passes'. run
returns None or True on success, False on failure (after emit_error or not),
or raises: DiagnosticError.at(op, ...) reports at op's location, any other
exception as "python pass 'x' raised T: message".
"""
from ._nc import PassManager, register_pass as _register_pass  # noqa: F401

__all__ = ["PassManager", "Pass", "Option", "ListOption", "Statistic", "register_pass"]

_KINDS = {bool: "bool", int: "int", str: "str", float: "float"}


def _text(kind, value):
    if kind == "bool":
        return "true" if value else "false"
    if kind in ("int-list", "str-list"):
        return ",".join(str(v) for v in value)
    return str(value)


class Option:
    """A pass option: `Option(type, default, summary, choices=None, min=None,
    max=None, name=None)`, with type bool, int, float or str (with choices:
    one of them). Its pipeline name is the attribute's with '_' -> '-'
    (or `name`); in run() self.<attribute> is the value, of that type."""

    def __init__(self, type, default, summary="", choices=None, min=None, max=None, name=None):
        if type not in _KINDS:
            raise TypeError("Option: type must be bool, int, float or str, not %r" % (type,))
        self.kind = "enum" if choices is not None else _KINDS[type]
        if choices is not None:
            if type is not str or not choices or not all(isinstance(c, str) for c in choices):
                raise TypeError("Option: choices must be a non-empty list of str (with type str)")
            if default not in choices:
                raise ValueError("Option: the default %r is not one of the choices" % (default,))
        if (min is not None or max is not None) and type is not int:
            raise TypeError("Option: min and max apply to int options")
        if not isinstance(default, type) or (type is int and isinstance(default, bool)):
            raise TypeError("Option: the default %r is not a %s" % (default, type.__name__))
        self.type, self.default, self.summary, self.name = type, default, summary, name
        self.choices = tuple(choices) if choices is not None else None
        self.min, self.max = min, max
        self.attribute = None

    def __set_name__(self, owner, attribute):
        self.attribute = attribute
        if self.name is None:
            self.name = attribute.replace("_", "-")

    def __get__(self, instance, owner):
        return self if instance is None else self.default

    def _spec(self):
        lo, hi = (self.min, self.max) if self.min is not None or self.max is not None else (0, 0)
        lo = -(2 ** 63) if lo is None else lo
        hi = 2 ** 63 - 1 if hi is None else hi
        return (self.name, self.attribute, self.kind, _text(self.kind, self.default), self.summary, self.choices,
                lo, hi)


class ListOption(Option):
    """A comma-separated list option: `ListOption(int or str, default=(),
    summary="")`; in run() the value is a list."""

    def __init__(self, type, default=(), summary="", name=None):
        if type not in (int, str):
            raise TypeError("ListOption: type must be int or str, not %r" % (type,))
        if not all(isinstance(v, type) for v in default):
            raise TypeError("ListOption: the default must be a sequence of %s" % type.__name__)
        self.kind = "int-list" if type is int else "str-list"
        self.type, self.default, self.summary, self.name = type, list(default), summary, name
        self.choices, self.min, self.max, self.attribute = None, None, None, None


class Statistic:
    """A pass statistic (a counter): `Statistic(summary, name=None)`. In
    run(), `self.<attribute> += n` counts; reading it gives this run's
    count, and the statistics report sums the runs (over the ops and
    threads a pipeline runs the pass on). Its name in reports is the
    attribute's with '_' -> '-' (or `name`)."""

    def __init__(self, summary, name=None):
        self.summary, self.name, self.attribute = summary, name, None

    def __set_name__(self, owner, attribute):
        self.attribute = attribute
        if self.name is None:
            self.name = attribute.replace("_", "-")

    def __get__(self, instance, owner):
        if instance is None:
            return self
        instance._nc_pass  # AttributeError outside a run
        return instance.__dict__.get("_nc_stat_" + self.attribute, 0)

    def __set__(self, instance, value):
        current = self.__get__(instance, type(instance))
        if not isinstance(value, int) or value < current:
            raise ValueError("statistic '%s' only counts up (got %r after %d)" % (self.name, value, current))
        instance._nc_pass.stat_add(type(instance)._nc_stat_index[self.attribute], value - current)
        instance.__dict__["_nc_stat_" + self.attribute] = value


class Pass:
    """Optional base class of passes written in Python (register_pass also
    takes a plain class with `argument` and run)."""

    argument = None
    summary = ""
    anchor = None

    def run(self, op):
        raise NotImplementedError("a pass defines run(self, op)")


def _declared(cls, kind):
    seen, found = set(), []
    for klass in reversed(cls.__mro__):
        for attribute, value in vars(klass).items():
            if isinstance(value, kind) and attribute not in seen:
                seen.add(attribute)
                found.append(value)
    return found


def register_pass(cls):
    """Registers a pass written in Python (see the module's docstring) under
    cls.argument; returns cls (usable as a decorator). Raises TypeError or
    ValueError for a malformed class or a name already taken."""
    if not isinstance(cls, type):
        raise TypeError("register_pass: expected a class with `argument` and run(self, op), got %s"
                        % type(cls).__name__)
    if not callable(getattr(cls, "run", None)) or getattr(cls, "run") is Pass.run:
        raise TypeError("register_pass: %s has no run(self, op) method" % cls.__name__)
    argument = cls.argument  # AttributeError when missing, as for any class attribute
    if not isinstance(argument, str) or not argument:
        raise TypeError("register_pass: %s.argument must be a non-empty str" % cls.__name__)
    options = _declared(cls, Option)
    statistics = _declared(cls, Statistic)
    cls._nc_stat_index = {s.attribute: i for i, s in enumerate(statistics)}
    doc = cls.__doc__ if cls.__doc__ is not Pass.__doc__ else None
    return _register_pass(cls, argument, cls.__name__, getattr(cls, "summary", "") or "",
                          (doc or "").strip() or None, getattr(cls, "anchor", None),
                          tuple(o._spec() for o in options), tuple((s.name, s.summary) for s in statistics))
