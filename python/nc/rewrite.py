"""nc.rewrite: rewrite patterns written in Python, applied by nc's greedy
driver (the one behind canonicalize: patterns, folding, dead-op removal and
constant hoisting to a fixpoint).

    class ForwardIdentity(RewritePattern):
        root = "graph.identity"
        def match_and_rewrite(self, op, rewriter):
            rewriter.replace_op(op, op.operands)
            return True

    apply_patterns_greedily(func_op, [ForwardIdentity()])

match_and_rewrite returns True if it changed the IR, which it must change
only through `rewriter` (nc._nc.Rewriter: create, replace_op, erase_op,
replace_all_uses_with, set_operand, modified), so the driver revisits what
changed. Operation handles made during one call go stale at the next (the
driver may erase ops in between); the op the driver runs on stays valid.
"""
import collections

from . import _nc
from ._nc import Rewriter  # noqa: F401

__all__ = ["RewritePattern", "Rewriter", "GreedyResult", "apply_patterns_greedily"]


class RewritePattern:
    """Base class of patterns: `root` is the op name the pattern is tried on
    (None: every op), `benefit` orders the patterns of one op (higher
    first), match_and_rewrite(op, rewriter) -> bool does the work."""

    root = None
    benefit = 1

    def match_and_rewrite(self, op, rewriter):
        raise NotImplementedError("a pattern defines match_and_rewrite(self, op, rewriter)")


GreedyResult = collections.namedtuple("GreedyResult", "converged rewrites folds erased")
GreedyResult.__doc__ = """What apply_patterns_greedily returns: whether a fixpoint was reached,
and how many patterns were applied, ops folded and dead ops erased."""


def apply_patterns_greedily(op, patterns, max_iterations=10, max_num_rewrites=-1, top_down=True, fold=True):
    """Applies `patterns` (RewritePattern objects, or any objects with
    root, benefit and match_and_rewrite) and folding to the ops nested in
    `op` until nothing changes (or max_iterations sweeps / max_num_rewrites
    rewrites, -1: no limit). Returns a GreedyResult. An exception raised by
    a pattern stops the rewriting and propagates."""
    return GreedyResult(*_nc.apply_patterns_greedily(op, list(patterns), max_iterations=max_iterations,
                                                     max_num_rewrites=max_num_rewrites, top_down=top_down,
                                                     fold=fold))
