"""Tests of what Python code adds to nc's compiler: passes written in Python
(typed options parsed from the pipeline string, statistics in the report,
errors with locations and notes), rewrite patterns applied by the greedy
driver (nc.rewrite), diagnostics (nc.Diagnostic records, capture handlers,
emit_*), and the error path of each. Run by python_passes.test (lit), also
under ASan."""
import os
import threading
import unittest

import nc
from nc.ir import Context, Module
from nc.passmanager import ListOption, Option, Pass, PassManager, Statistic, register_pass
from nc.rewrite import RewritePattern, apply_patterns_greedily

from leaks import assert_no_leaks
from test_bindings import IDENTITY_INPUT  # the module CSE and canonicalize both change

ADDI_INPUT = """func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %b, %b : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
"""


def names(module):
    return [op.name for op in module.operations]


class Seen:
    options = None


@register_pass
class OptionsPass(Pass):
    """Records its option values (for the test to check)."""
    argument = "test-py-options"
    summary = "Records its option values"
    limit = Option(int, -1, "a limit", min=-1, max=100)
    verbose = Option(bool, False, "say more")
    scale = Option(float, 1.5, "a factor")
    mode = Option(str, "fast", "how", choices=["fast", "exact"])
    label = Option(str, "", "a label")
    ids = ListOption(int, [1, 2], "some ids")
    tags = ListOption(str, (), "some tags")

    def run(self, op):
        Seen.options = dict(limit=self.limit, verbose=self.verbose, scale=self.scale, mode=self.mode,
                            label=self.label, ids=self.ids, tags=self.tags)


@register_pass
class ForwardIdentity(Pass):
    argument = "test-py-forward"
    anchor = "func.func"
    max_forwards = Option(int, -1, "forward at most this many per function (-1: all)")
    num_forwarded = Statistic("Number of graph.identity ops forwarded")
    num_seen = Statistic("Number of ops looked at", name="num-ops-seen")

    def run(self, func):
        for op in func.walk():
            self.num_seen += 1
            if op.name == "graph.identity" and self.max_forwards != 0:
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()
                self.num_forwarded += 1
                self.max_forwards -= 1


@register_pass
class ErrorAtOp(Pass):
    argument = "test-py-error-at"

    def run(self, op):
        adds = [o for o in op.walk() if o.name == "graph.add"]
        raise nc.DiagnosticError.at(adds[0], "this add is not allowed", notes=[(adds[1], "nor this one"),
                                                                                 (None, "a note without location")])


@register_pass
class EmitsThenFails(Pass):
    argument = "test-py-emit-fail"

    def run(self, op):
        nc.emit_warning(op, "about to fail")
        nc.emit_error(op, "failed on purpose")
        return False


@register_pass
class CountsDown(Pass):
    argument = "test-py-count-down"
    n = Statistic("a counter")

    def run(self, op):
        self.n += 2
        self.n = 1  # statistics only count up: raises ValueError


@register_pass
class WaitsForTheTest(Pass):
    """Holds the pipeline until the test says go (test_module_in_use_while_a_pipeline_runs)."""
    argument = "test-py-wait"
    started = threading.Event()
    proceed = threading.Event()

    def run(self, op):
        WaitsForTheTest.started.set()
        WaitsForTheTest.proceed.wait(30)


class PassTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_typed_options_from_the_pipeline(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        PassManager.parse("builtin.module(test-py-options)", self.ctx).run(m)
        self.assertEqual(Seen.options, dict(limit=-1, verbose=False, scale=1.5, mode="fast", label="", ids=[1, 2],
                                            tags=[]))
        pm = PassManager.parse("builtin.module(test-py-options{limit=7 verbose=true scale=0.25 mode=exact "
                               "label=hi ids=3,4,5 tags=a,b})", self.ctx)
        pm.run(m)
        self.assertEqual(Seen.options, dict(limit=7, verbose=True, scale=0.25, mode="exact", label="hi",
                                            ids=[3, 4, 5], tags=["a", "b"]))
        self.assertIsInstance(Seen.options["scale"], float)
        # the pipeline prints back with every option, and parses again
        text = str(pm)
        self.assertIn("limit=7", text)
        self.assertIn("mode=exact", text)
        self.assertEqual(str(PassManager.parse(text, self.ctx)), text)

    def test_module_in_use_while_a_pipeline_runs(self):
        # the pipeline runs without the GIL: another thread must not destroy or read the module meanwhile
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        pm = PassManager.parse("builtin.module(test-py-wait)", self.ctx)
        WaitsForTheTest.started.clear()
        WaitsForTheTest.proceed.clear()
        worker = threading.Thread(target=pm.run, args=(m,))
        worker.start()
        try:
            self.assertTrue(WaitsForTheTest.started.wait(30))
            with self.assertRaisesRegex(RuntimeError, "pipeline runs on this module"):
                m.destroy()
            with self.assertRaisesRegex(RuntimeError, "in use"):
                m.operation
            with self.assertRaisesRegex(RuntimeError, "in use"):
                pm.run(m)
        finally:
            WaitsForTheTest.proceed.set()
            worker.join()
        self.assertEqual(m.operation.name, "builtin.module")
        m.destroy()

    def test_bad_option_values(self):
        for options, message in [("limit=x", "limit"), ("limit=101", "limit"), ("mode=slow", "slow"),
                                 ("scale=abc", "expects a number"), ("nosuch=1", "nosuch"),
                                 ("ids=1,x", "ids")]:
            with self.subTest(options=options):
                with self.assertRaises(nc.DiagnosticError) as cm:
                    PassManager.parse("builtin.module(test-py-options{%s})" % options, self.ctx)
                self.assertIn(message, str(cm.exception))
                self.assertEqual(cm.exception.severity, "error")

    def test_statistics_and_cse(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        pm = PassManager.parse("builtin.module(func.func(test-py-forward,cse))", self.ctx)
        report = pm.run(m, statistics=True)
        self.assertIn("ForwardIdentity", report)
        self.assertIn("2 num-forwarded - Number of graph.identity ops forwarded", report)
        self.assertIn("7 num-ops-seen  - Number of ops looked at", report)
        self.assertIn("1 num-cse'd", report)
        self.assertEqual(names(m), ["builtin.module", "func.func", "graph.add", "graph.mul", "func.return"])

    def test_subclass_adds_a_statistic(self):
        # inherited options and statistics keep working; each class numbers its own
        @register_pass
        class CountingForward(ForwardIdentity):
            argument = "test-py-forward-counting"
            num_runs = Statistic("Number of runs")

            def run(self, func):
                self.num_runs += 1
                super().run(func)
                assert self.num_runs == 1  # reading gives this run's count

        m = Module.parse(IDENTITY_INPUT + IDENTITY_INPUT.replace("@f", "@g"), self.ctx)
        report = PassManager.parse("builtin.module(func.func(test-py-forward-counting{max-forwards=1}))",
                                   self.ctx).run(m, statistics=True)
        self.assertIn("2 num-runs", report)
        self.assertIn("2 num-forwarded", report)
        report = PassManager.parse("builtin.module(func.func(test-py-forward))", self.ctx).run(
            Module.parse(IDENTITY_INPUT, self.ctx), statistics=True)
        self.assertIn("2 num-forwarded", report)  # the base class's numbering is unchanged

    def test_option_changes_the_rewrite(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        report = PassManager.parse("builtin.module(func.func(test-py-forward{max-forwards=1}))", self.ctx).run(
            m, statistics=True)
        self.assertIn("1 num-forwarded", report)
        self.assertEqual(names(m).count("graph.identity"), 1)

    def test_parallel_functions(self):
        # a pipeline nested on func.func runs on worker threads: the pass takes the GIL
        text = "\n".join(IDENTITY_INPUT.replace("@f", "@f%d" % i) for i in range(8))
        m = Module.parse(text, self.ctx)
        report = PassManager.parse("builtin.module(func.func(test-py-forward,cse))", self.ctx).run(
            m, statistics=True)
        self.assertIn("16 num-forwarded", report)
        self.assertNotIn("graph.identity", names(m))

    def test_error_at_op_with_notes(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx, filename="in.mlir")
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(test-py-error-at)", self.ctx).run(m)
        e = cm.exception
        self.assertEqual(e.severity, "error")
        self.assertEqual(e.location, ("in.mlir", 4, 8))
        d = e.diagnostics[0]
        self.assertEqual((d.file, d.line, d.col, d.message), ("in.mlir", 4, 8, "this add is not allowed"))
        self.assertEqual([(n.severity, n.line, n.message) for n in e.notes],
                         [("note", 5, "nor this one"), ("note", 0, "a note without location")])
        self.assertIn("in.mlir:4:8: error: this add is not allowed", str(e))
        self.assertIn("in.mlir:5:8: note: nor this one", str(e))

    def test_emitted_error_and_warning(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx, filename="w.mlir")
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(test-py-emit-fail)", self.ctx).run(m)
        severities = [d.severity for d in cm.exception.diagnostics]
        self.assertEqual(severities, ["warning", "error"])
        self.assertNotIn("returned failure", str(cm.exception))  # the pass said why itself
        self.assertIn("w.mlir:1:1: error: failed on purpose", str(cm.exception))

    def test_statistics_only_count_up(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(test-py-count-down)", self.ctx).run(m)
        self.assertIn("raised ValueError: statistic 'n' only counts up", str(cm.exception))

    def test_statistic_outside_a_run(self):
        p = ForwardIdentity()
        with self.assertRaises(AttributeError):  # no run going on: no handle
            p.num_forwarded
        self.assertIsInstance(ForwardIdentity.num_forwarded, Statistic)
        self.assertEqual(ForwardIdentity.max_forwards.default, -1)
        self.assertEqual(p.max_forwards, -1)  # an option outside a run reads as its default

    def test_declaration_errors(self):
        with self.assertRaises(TypeError):
            Option(list, [])
        with self.assertRaises(TypeError):
            Option(int, "3")
        with self.assertRaises(TypeError):
            Option(int, True)
        with self.assertRaises(ValueError):
            Option(str, "c", choices=["a", "b"])
        with self.assertRaises(TypeError):
            Option(int, 1, choices=["a"])
        with self.assertRaises(TypeError):
            Option(str, "a", min=1)
        with self.assertRaises(TypeError):
            ListOption(float, [])
        with self.assertRaises(TypeError):
            ListOption(int, ["a"])

    def test_register_errors(self):
        with self.assertRaises(TypeError):
            register_pass(42)

        class NoRun(Pass):
            argument = "test-py-norun"
        with self.assertRaises(TypeError):
            register_pass(NoRun)

        class EmptyArgument(Pass):
            argument = ""

            def run(self, op):
                pass
        with self.assertRaises(TypeError):
            register_pass(EmptyArgument)

        class Duplicate(Pass):
            argument = "test-py-options"

            def run(self, op):
                pass
        with self.assertRaises(ValueError):
            register_pass(Duplicate)

        with self.assertRaises(ValueError):  # a C pass's name
            register_pass(type("Cse", (Pass,), {"argument": "cse", "run": lambda self, op: None}))

    def test_concurrent_registration_and_parsing(self):
        # the registry's lock: threads register passes while others parse pipelines
        errors = []

        def register(i):
            try:
                register_pass(type("T%d" % i, (Pass,), {"argument": "test-py-thread-%d" % i,
                                                        "run": lambda self, op: None}))
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        def parse():
            try:
                for _ in range(20):
                    PassManager.parse("builtin.module(cse,test-py-options)", Context())
            except Exception as e:  # noqa: BLE001
                errors.append(e)
        threads = [threading.Thread(target=register, args=(i,)) for i in range(8)] + \
            [threading.Thread(target=parse) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        PassManager.parse("builtin.module(%s)" % ",".join("test-py-thread-%d" % i for i in range(8)), self.ctx)


class ForwardIdentityPattern(RewritePattern):
    root = "graph.identity"

    def match_and_rewrite(self, op, rewriter):
        rewriter.replace_op(op, op.operands)
        return True


class AddSelfToMulTwo(RewritePattern):
    """arith.addi %a, %a -> arith.muli %a, 2 (creates a constant; the
    input only adds values to themselves)."""
    root = "arith.addi"

    def match_and_rewrite(self, op, rewriter):
        a = op.operands[0]
        two = rewriter.create("arith.constant", [], attributes={"value": "2 : i32"}, result_types=["i32"])
        mul = rewriter.create("arith.muli", [a, two.results[0]], result_types=["i32"])
        rewriter.replace_op(op, mul)
        return True


class Never(RewritePattern):
    root = "arith.addi"
    benefit = 5
    calls = 0

    def match_and_rewrite(self, op, rewriter):
        Never.calls += 1
        return False


class RewriteTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_forward_identity(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        func = m.operations[1]
        # fold=False: graph.identity's folder would forward it before any pattern
        r = apply_patterns_greedily(func, [ForwardIdentityPattern()], fold=False)
        self.assertTrue(r.converged)
        self.assertEqual(r.rewrites, 2)
        self.assertNotIn("graph.identity", names(m))
        self.assertEqual(func.name, "func.func")  # the root stays valid
        m.verify()

    def test_create_and_benefit_order(self):
        m = Module.parse(ADDI_INPUT, self.ctx)
        Never.calls = 0
        r = apply_patterns_greedily(m.operation, [AddSelfToMulTwo(), Never()])
        self.assertEqual(r.rewrites, 2)
        self.assertGreaterEqual(Never.calls, 2)  # the higher benefit is tried first
        m.verify()
        self.assertNotIn("arith.addi", names(m))
        # the driver deduplicates and hoists the two constants
        self.assertEqual(names(m).count("arith.constant"), 1)
        self.assertEqual(names(m).count("arith.muli"), 3)

    def test_patterns_in_a_python_pass_then_cse(self):
        @register_pass
        class Canon(Pass):
            argument = "test-py-patterns"
            anchor = "func.func"
            num_rewrites = Statistic("Number of rewrites")

            def run(self, func):
                self.num_rewrites += apply_patterns_greedily(func, [ForwardIdentityPattern()], fold=False).rewrites

        m = Module.parse(IDENTITY_INPUT, self.ctx)
        report = PassManager.parse("builtin.module(func.func(test-py-patterns,cse))", self.ctx).run(
            m, statistics=True)
        self.assertIn("2 num-rewrites", report)
        self.assertEqual(names(m), ["builtin.module", "func.func", "graph.add", "graph.mul", "func.return"])

    def test_handles_go_stale(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        ident = m.operations[2]
        kept = []

        class Keep(RewritePattern):
            root = "graph.identity"

            def match_and_rewrite(self, op, rewriter):
                kept.append((op, rewriter))
                return False
        apply_patterns_greedily(m.operation, [Keep()], fold=False)
        with self.assertRaises(RuntimeError):
            ident.name  # made before the driver ran
        with self.assertRaises(RuntimeError):
            kept[0][0].name  # made during a call
        with self.assertRaises(RuntimeError):
            kept[0][1].erase_op(m.operations[2])  # the rewriter outlived its call

    def test_pattern_errors(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        with self.assertRaises(TypeError):
            apply_patterns_greedily(m.operation, [object()])
        with self.assertRaises(TypeError):
            apply_patterns_greedily(m.operation, 3)
        with self.assertRaises(TypeError):
            apply_patterns_greedily(m.operation, [type("P", (RewritePattern,), {"root": 3})()])
        with self.assertRaises(ValueError):
            apply_patterns_greedily(m.operation, [type("P", (RewritePattern,), {"benefit": -1})()])
        with self.assertRaises(NotImplementedError):
            apply_patterns_greedily(m.operation, [type("P", (RewritePattern,), {"root": "graph.add"})()])

        def pattern(fn, root="graph.identity"):
            return type("P", (RewritePattern,), {"root": root, "match_and_rewrite": fn})()

        cases = [
            (lambda self, op, rw: rw.erase_op(op), ValueError),                          # still used
            (lambda self, op, rw: rw.erase_op(op.parent), ValueError),                   # the root itself
            (lambda self, op, rw: rw.replace_op(op, []), ValueError),                    # wrong count
            (lambda self, op, rw: rw.replace_op(op, op.results), ValueError),            # its own results
            (lambda self, op, rw: rw.replace_op(op, ["x"]), TypeError),
            (lambda self, op, rw: rw.set_operand(op, 3, op.operands[0]), IndexError),
            (lambda self, op, rw: rw.create("graph.nosuch", [op.operands[0]]), ValueError),
            (lambda self, op, rw: rw.modified("op"), TypeError),
            (lambda self, op, rw: 1 / 0, ZeroDivisionError),
            # changes behind the driver's back are refused
            (lambda self, op, rw: [o for o in op.parent.walk() if o.name == "graph.mul"][0].erase(), RuntimeError),
            (lambda self, op, rw: PassManager.parse("builtin.module(cse)", self_ctx[0]).run(module_of[0]),
             RuntimeError),
            (lambda self, op, rw: apply_patterns_greedily(op.parent, []), RuntimeError),
            (lambda self, op, rw: module_of[0].destroy(), RuntimeError),
        ]
        self_ctx, module_of = [self.ctx], [None]
        for fn, exc in cases:
            with self.subTest(exc=exc):
                m = module_of[0] = Module.parse(IDENTITY_INPUT, self.ctx)
                with self.assertRaises(exc):
                    apply_patterns_greedily(m.operations[1], [pattern(fn)], fold=False)
                m.verify()  # a failed rewrite leaves valid IR
        other = Module.parse(IDENTITY_INPUT, self.ctx)
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        with self.assertRaises(ValueError):
            apply_patterns_greedily(m.operations[1], [pattern(
                lambda self, op, rw: rw.replace_op(op, [other.operations[2].results[0]]))], fold=False)
        mixed = Module.parse("func.func @g(%a: i32, %x: tensor<4xf32>) -> (i32, tensor<4xf32>) {\n"
                             "  %0 = arith.addi %a, %a : i32\n"
                             "  %1 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>\n"
                             "  return %0, %1 : i32, tensor<4xf32>\n}\n", self.ctx)
        for fn in [lambda self, op, rw: rw.set_operand(op, 0, op.parent.arguments[0]),
                   lambda self, op, rw: rw.replace_all_uses_with(op.results[0], op.parent.arguments[0]),
                   lambda self, op, rw: rw.replace_op(op, [op.parent.arguments[0]])]:
            with self.assertRaises(TypeError):  # an i32 for a tensor
                apply_patterns_greedily(mixed.operations[1], [pattern(fn)], fold=False)

    def test_rewriter_edits(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)

        class UseX(RewritePattern):
            """graph.add %0, %1 (identities of %x) -> graph.add %x, %x via set_operand."""
            root = "graph.add"

            def match_and_rewrite(self, op, rw):
                if "graph.identity" not in [o.name for o in op.parent.walk()] or op.operands[0].num_uses != 1:
                    return False  # the second add (of %x, %x) uses %x twice
                x = op.parent.arguments[0]
                rw.set_operand(op, 0, x)
                rw.set_operand(op, 1, x)
                rw.modified(op)
                return True
        r = apply_patterns_greedily(m.operations[1], [UseX()], fold=False)
        self.assertGreaterEqual(r.rewrites, 1)
        self.assertNotIn("graph.identity", names(m))  # dead identities erased by the driver
        self.assertEqual(r.erased, 2)
        m.verify()


class DiagnosticTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_handler_captures_and_consumes(self):
        seen = []
        with self.ctx.diagnostic_handler(lambda d: seen.append(d) or True):
            with self.assertRaises(nc.DiagnosticError) as cm:  # consumed: the error has no text
                Module.parse("func.func @f() {\n  %0 = graph.bogus\n}\n", self.ctx, filename="bad.mlir")
        self.assertEqual(cm.exception.diagnostics, [])
        self.assertEqual(len(seen), 1)
        d = seen[0]
        self.assertIsInstance(d, nc.Diagnostic)
        self.assertEqual((d.severity, d.file, d.line, d.col), ("error", "bad.mlir", 2, 8))
        self.assertTrue(str(d).startswith("bad.mlir:2:8: error:"))
        self.assertEqual(d[0], "error")  # still a (severity, text) pair

    def test_handler_that_passes_on(self):
        seen = []
        m = Module.parse(IDENTITY_INPUT, self.ctx, filename="p.mlir")
        with self.ctx.diagnostic_handler(lambda d: seen.append(d.severity)):
            with self.assertRaises(nc.DiagnosticError) as cm:
                PassManager.parse("builtin.module(test-py-emit-fail)", self.ctx).run(m)
            nc.emit_remark(m.operation, "a remark")
        self.assertEqual(seen, ["warning", "error", "remark"])
        self.assertEqual([d.severity for d in cm.exception.diagnostics], ["warning", "error"])
        self.assertEqual([d.message for d in self.ctx.take_diagnostics()], ["a remark"])

    def test_handler_errors(self):
        with self.assertRaises(TypeError):
            self.ctx.diagnostic_handler(3)
        import nc._nc as ext
        with self.assertRaises(ValueError):
            ext.pop_diagnostic_handler(self.ctx, 12345)
        with self.assertRaises(TypeError):
            ext.push_diagnostic_handler("not a context", print)
        h = self.ctx.diagnostic_handler(lambda d: 1 / 0)
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        with h:
            with self.assertRaises(RuntimeError):
                h.__enter__()
            nc.emit_warning(m.operation, "w")  # the handler raises: reported as unraisable, not consumed
        self.assertEqual([d.message for d in self.ctx.take_diagnostics()], ["w"])

    def test_emit_errors(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        with self.assertRaises(ValueError):
            nc._nc.emit_diagnostic(m.operation, "fatal", "x", [])
        with self.assertRaises(TypeError):
            nc.emit_error(m.operation, "x", notes=["not a pair"])
        with self.assertRaises(TypeError):
            nc.emit_error("op", "x")
        with self.assertRaises(TypeError):
            nc.emit_error(m.operation, "x", notes=[(3, "bad op")])
        self.assertEqual(self.ctx.take_diagnostics(), [])  # nothing half-emitted

    def test_diagnostic_error_from_parse(self):
        with self.assertRaises(nc.DiagnosticError) as cm:
            Module.parse("func.func @f() {\n  %0 = graph.bogus\n}\n", self.ctx, filename="bad.mlir")
        self.assertEqual(cm.exception.location, ("bad.mlir", 2, 8))
        self.assertEqual(cm.exception.notes, [])
        self.assertIsNone(nc.DiagnosticError("plain").location)


class LeakTest(unittest.TestCase):
    def test_no_reference_leaks(self):
        # Python passes, patterns, diagnostics and handlers release what they make
        ctx = Context()
        pattern = ForwardIdentityPattern()
        pm = PassManager.parse("builtin.module(func.func(test-py-forward,cse),test-py-options{ids=4})", ctx)

        def once():
            m = Module.parse(IDENTITY_INPUT, ctx, filename="leak.mlir")
            pm.run(m, statistics=True)
            m = Module.parse(IDENTITY_INPUT, ctx)
            apply_patterns_greedily(m.operation, [pattern], fold=False)
            try:
                PassManager.parse("builtin.module(test-py-error-at)", ctx).run(m)
            except nc.DiagnosticError:
                pass
            with ctx.diagnostic_handler(lambda d: True):
                nc.emit_warning(m.operation, "w", notes=[(m.operation, "n")])
        assert_no_leaks(self, once, keep=[ctx, pattern])


if __name__ == "__main__":
    unittest.main()
