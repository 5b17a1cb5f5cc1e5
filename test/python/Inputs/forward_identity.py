"""A pass written in Python for nc-opt --load-python-pass (see
load-python-pass.mlir): forwards graph.identity ops to their operand."""
from nc.passmanager import Option, Pass, Statistic, register_pass


@register_pass
class ForwardIdentity(Pass):
    """Replaces each graph.identity by its operand."""
    argument = "py-forward-identity"
    summary = "Forward graph.identity operands to their uses (written in Python)"
    anchor = "func.func"
    max_forwards = Option(int, -1, "Forward at most this many per function (-1: all)", min=-1)
    num_forwarded = Statistic("Number of graph.identity ops forwarded")

    def run(self, func):
        for op in func.walk():
            if op.name == "graph.identity" and self.max_forwards != 0:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
                self.num_forwarded += 1
                self.max_forwards -= 1
