"""A pass written in Python that reports an error at an op, with a note."""
import nc
from nc.passmanager import Pass, register_pass


@register_pass
class RejectAdds(Pass):
    argument = "py-reject-adds"
    anchor = "func.func"

    def run(self, func):
        adds = [op for op in func.walk() if op.name == "graph.add"]
        if adds:
            raise nc.DiagnosticError.at(adds[0], "graph.add is not supported here",
                                        notes=[(func, "in this function")])
