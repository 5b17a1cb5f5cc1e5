"""Tests of the nc Python package (python/): nc.ir, nc.passmanager,
DiagnosticError, run/compile/simulate, and the error paths of each.
Run by bindings.test (lit) with PYTHONPATH=build/python."""
import gc
import json
import os
import tempfile
import unittest

import numpy as np

import nc
from nc.ir import Context, Module, Operation
from nc.passmanager import PassManager, register_pass

from leaks import assert_no_leaks

SRC = os.environ.get("NC_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
DIGITS = os.path.join(SRC, "examples", "digits")

CSE_INPUT = """func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
"""


class IrTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_parse_and_print(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        text = str(m)
        self.assertIn("func.func @f(%arg0: i32) -> i32", text)
        self.assertEqual(text, m.print())
        self.assertIn('"arith.addi"', m.print(generic=True))
        self.assertIn("loc(", m.print(debuginfo=True))
        # printed IR parses back to the same text
        self.assertEqual(str(Module.parse(text, self.ctx)), text)
        self.assertIs(m.context, self.ctx)

    def test_parse_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(CSE_INPUT)
        try:
            m = Module.parse_file(f.name, self.ctx)
            self.assertEqual(m.operation.name, "builtin.module")
        finally:
            os.unlink(f.name)
        with self.assertRaises(nc.DiagnosticError):
            Module.parse_file("/nonexistent/x.mlir", self.ctx)

    def test_walk_operations(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        names = [op.name for op in m.operations]
        self.assertEqual(names, ["builtin.module", "func.func", "arith.addi", "arith.addi", "arith.muli",
                                 "func.return"])
        muli = m.operations[4]
        self.assertIsInstance(muli, Operation)
        self.assertEqual((muli.num_operands, muli.num_results), (2, 1))
        self.assertEqual(muli.parent.name, "func.func")
        self.assertIsNone(m.operation.parent)
        self.assertIn("arith.muli", str(muli))

    def test_parse_error_has_location(self):
        with self.assertRaises(nc.DiagnosticError) as cm:
            Module.parse("func.func @f() {\n  %0 = arith.bogus\n}\n", self.ctx, filename="bad.mlir")
        e = cm.exception
        self.assertTrue(str(e).startswith("bad.mlir:2:8: error: custom op 'arith.bogus' is unknown"), str(e))
        self.assertEqual(e.severity, "error")
        self.assertEqual(e.diagnostics[0][0], "error")
        # the diagnostics were taken: none are left behind in the context
        self.assertEqual(self.ctx.take_diagnostics(), [])

    def test_verify(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        self.assertTrue(m.verify())
        ctx = Context(allow_unregistered_dialects=True)
        bad = Module.parse('"test.op"() : () -> ()\n', ctx)
        self.assertTrue(bad.verify())

    def test_use_after_destroy_raises(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        ops = m.operations
        m.destroy()
        with self.assertRaises(RuntimeError):
            ops[2].name
        with self.assertRaises(RuntimeError):
            str(m)
        with self.assertRaises(RuntimeError):
            m.operations
        m.destroy()  # twice is harmless

    def test_op_keeps_module_alive(self):
        op = Module.parse(CSE_INPUT, Context()).operations[4]
        gc.collect()
        self.assertEqual(op.name, "arith.muli")
        self.assertEqual(op.parent.parent.name, "builtin.module")

    def test_wrong_types_raise(self):
        with self.assertRaises(TypeError):
            Module.parse(CSE_INPUT, "not a context")
        with self.assertRaises(TypeError):
            Module.parse(42, self.ctx)
        with self.assertRaises(TypeError):
            Operation()


class PassManagerTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_cse(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        pm = PassManager.parse("builtin.module(func.func(cse))", self.ctx)
        self.assertEqual(str(pm), "builtin.module(func.func(cse))")
        pm.run(m)
        self.assertEqual([op.name for op in m.operations].count("arith.addi"), 1)

    def test_handles_go_stale_after_run(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        ops = m.operations
        PassManager.parse("builtin.module(func.func(cse))", self.ctx).run(m)
        with self.assertRaises(RuntimeError):
            ops[3].name

    def test_options_and_instrumentation(self):
        m = Module.parse(CSE_INPUT, self.ctx)
        pm = PassManager.parse("builtin.module(func.func(canonicalize{max-iterations=3},cse))", self.ctx)
        self.assertIn("max-iterations=3", str(pm))
        report = pm.run(m, statistics=True)
        self.assertIn("1 num-cse'd", report)
        m2 = Module.parse(CSE_INPUT, self.ctx)
        self.assertIn("// -----// IR Dump After", pm.run(m2, print_after_all=True))

    def test_bad_pipeline(self):
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(func.func(cs))", self.ctx)
        self.assertIn("cs", str(cm.exception))
        self.assertIn("did you mean 'cse'", str(cm.exception))

    def test_other_context(self):
        m = Module.parse(CSE_INPUT, Context())
        with self.assertRaises(ValueError):
            PassManager.parse("builtin.module(func.func(cse))", self.ctx).run(m)

    def test_failing_pass_raises(self):
        # graph-quantize without calibration data fails with a diagnostic
        m = Module.parse(nc.compile(os.path.join(DIGITS, "digits_cnn.onnx"), emit="graph"), self.ctx, filename="g.mlir")
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(graph-quantize{calibration=/nonexistent.npy})", self.ctx).run(m)
        self.assertEqual(cm.exception.severity, "error")
        self.assertIn("error:", str(cm.exception))


IDENTITY_INPUT = """func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.add %0, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.mul %2, %3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
"""


@register_pass
class ForwardIdentity:
    argument = "test-py-forward-identity"
    summary = "Forwards graph.identity operands to their uses"
    anchor = "func.func"

    def run(self, func):
        for op in func.walk():
            if op.name == "graph.identity":
                op.results[0].replace_all_uses_with(op.operands[0])
                op.erase()


@register_pass
class Raising:
    argument = "test-py-raise"

    def run(self, op):
        raise ValueError("boom")


@register_pass
class Failing:
    argument = "test-py-fail"

    def run(self, op):
        return False


class KeepHandle:
    kept = None


@register_pass
class Keeping:
    argument = "test-py-keep"

    def run(self, op):
        KeepHandle.kept = op


class RewriteTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_values(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        add = m.operations[4]
        self.assertEqual(add.name, "graph.add")
        self.assertEqual([v.type for v in add.operands], ["tensor<4xf32>"] * 2)
        self.assertEqual(add.results[0].num_uses, 1)
        self.assertEqual(m.operations[2].results[0].num_uses, 1)

    def test_rewrite_by_hand(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        ident = m.operations[2]
        with self.assertRaises(ValueError):  # still used
            ident.erase()
        ident.results[0].replace_all_uses_with(ident.operands[0])
        ident.erase()
        with self.assertRaises(RuntimeError):
            ident.name
        self.assertTrue(m.verify())
        self.assertEqual([op.name for op in m.operations].count("graph.identity"), 1)
        with self.assertRaises(ValueError):
            m.operation.erase()

    def test_replace_errors(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        other = Module.parse(IDENTITY_INPUT, self.ctx)
        v = m.operations[2].results[0]
        with self.assertRaises(TypeError):
            v.replace_all_uses_with("x")
        with self.assertRaises(ValueError):
            v.replace_all_uses_with(other.operations[2].results[0])
        i32 = Module.parse(CSE_INPUT, self.ctx)
        with self.assertRaises(ValueError):
            v.replace_all_uses_with(i32.operations[2].results[0])
        mixed = Module.parse("func.func @g(%a: i32, %x: tensor<4xf32>) -> (i32, tensor<4xf32>) {\n"
                             "  %0 = arith.addi %a, %a : i32\n"
                             "  %1 = graph.identity %x : (tensor<4xf32>) -> tensor<4xf32>\n"
                             "  return %0, %1 : i32, tensor<4xf32>\n}\n", self.ctx)
        addi, ident = mixed.operations[2], mixed.operations[3]
        with self.assertRaises(TypeError):  # different types in one module
            ident.results[0].replace_all_uses_with(addi.results[0])

    def test_walk_with_callback(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        seen = []
        self.assertIsNone(m.operation.walk(lambda op: seen.append(op.name)))
        self.assertEqual(seen, [op.name for op in m.operations])
        with self.assertRaises(TypeError):
            m.operation.walk(3)
        with self.assertRaises(ZeroDivisionError):
            m.operation.walk(lambda op: 1 / 0)

    def test_python_pass_in_pipeline_with_cse(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        pm = PassManager.parse("builtin.module(func.func(test-py-forward-identity,cse))", self.ctx)
        report = pm.run(m, statistics=True)
        self.assertIn("ForwardIdentity", report)
        self.assertIn("1 num-cse'd", report)
        self.assertEqual([op.name for op in m.operations],
                         ["builtin.module", "func.func", "graph.add", "graph.mul", "func.return"])

    def test_python_pass_errors(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx, filename="id.mlir")
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(test-py-raise)", self.ctx).run(m)
        self.assertIn("id.mlir:1:1: error: 'builtin.module' op python pass 'test-py-raise' raised ValueError: boom",
                      str(cm.exception))
        with self.assertRaises(nc.DiagnosticError) as cm:
            PassManager.parse("builtin.module(test-py-fail)", self.ctx).run(m)
        self.assertIn("returned failure", str(cm.exception))

    def test_handle_kept_by_a_pass_goes_stale(self):
        m = Module.parse(IDENTITY_INPUT, self.ctx)
        PassManager.parse("builtin.module(test-py-keep)", self.ctx).run(m)
        with self.assertRaises(RuntimeError):
            KeepHandle.kept.name
        with self.assertRaises(RuntimeError):
            str(KeepHandle.kept)

    def test_register_errors(self):
        with self.assertRaises(TypeError):
            register_pass(42)

        class NoRun:
            argument = "test-py-norun"
        with self.assertRaises(TypeError):
            register_pass(NoRun)

        class NoArgument:
            def run(self, op):
                pass
        with self.assertRaises(AttributeError):
            register_pass(NoArgument)

        class Duplicate:
            argument = "cse"

            def run(self, op):
                pass
        with self.assertRaises(ValueError):
            register_pass(Duplicate)


GRAPH_SKELETON = """func.func @main(%x: tensor<1x1x8x8xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<1xf32>) -> tensor<1x1x8x8xf32> {
  return %x : tensor<1x1x8x8xf32>
}
"""


class BuilderTest(unittest.TestCase):
    def setUp(self):
        from nc import dialects
        self.dialects = dialects
        self.ctx = Context()
        self.m = Module.parse(GRAPH_SKELETON, self.ctx)
        self.func, self.ret = self.m.operations[1], self.m.operations[-1]

    def test_generated_classes(self):
        from nc.dialects import graph, arith
        import nc.dialects.graph as g2
        self.assertIs(g2, graph)
        self.assertEqual(graph.ConvOp.OPERATION_NAME, "graph.conv")
        self.assertEqual(graph.ConvOp.OPERANDS, ("x", "w", "b"))
        self.assertIn("pads", graph.ConvOp.ATTRIBUTES)
        self.assertTrue(graph.ConvOp.__doc__.startswith("Convolution"))
        self.assertEqual(graph.MaxPoolOp.OPERATION_NAME, "graph.max_pool")
        self.assertEqual(arith.AddiOp.OPERATION_NAME, "arith.addi")
        # every registered op has a class
        n = sum(len(getattr(self.dialects, d).__all__) for d in self.dialects.__all__)
        self.assertEqual(n, len(nc._nc.op_defs(self.ctx)))
        self.assertEqual(self.dialects.class_name("graph.max_pool"), "MaxPoolOp")

    def test_build_and_run(self):
        from nc.dialects import graph
        x, w, b = self.func.arguments
        self.assertEqual(x.type, "tensor<1x1x8x8xf32>")
        conv = graph.ConvOp(x, w, b, pads=[1, 1, 1, 1], before=self.ret)
        self.assertEqual(conv.result.type, "tensor<1x1x8x8xf32>")
        relu = graph.ReluOp(conv.result, before=self.ret)
        self.ret.set_operand(0, relu.result)
        self.assertTrue(self.m.verify())
        self.assertEqual([op.name for op in self.m.operations],
                         ["builtin.module", "func.func", "graph.conv", "graph.relu", "func.return"])
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "g.mlir")
            with open(path, "w") as f:
                f.write(str(self.m))
            xs = np.random.default_rng(1).standard_normal((1, 1, 8, 8)).astype(np.float32)
            ws = np.zeros((1, 1, 3, 3), np.float32)
            ws[0, 0, 1, 1] = 2
            (y,) = nc.run(path, [xs, ws, np.array([0.25], np.float32)])
        np.testing.assert_allclose(y, np.maximum(2 * xs + 0.25, 0), rtol=1e-6)

    def test_attribute_text(self):
        t = self.dialects.attribute_text
        self.assertEqual(t(3), "3 : i64")
        self.assertEqual(t(True), "true")
        self.assertEqual(t([1, 2]), "array<i64: 1, 2>")
        self.assertEqual(t([]), "array<i64>")
        self.assertEqual(t("relu"), '"relu"')
        self.assertEqual(t("array<i64: 1>"), "array<i64: 1>")
        with self.assertRaises(TypeError):
            t([1.5])
        with self.assertRaises(TypeError):
            t(object())

    def test_builder_errors(self):
        from nc.dialects import graph
        x, w, b = self.func.arguments
        with self.assertRaises(TypeError):
            graph.ReluOp("x", before=self.ret)
        with self.assertRaises(TypeError):
            graph.ReluOp(x, before="here")
        with self.assertRaises(ValueError):
            nc._nc.Operation.create("graph.nosuch", [x], self.ret)
        with self.assertRaises(nc.DiagnosticError):  # wrong operand count / types: inference fails
            graph.ConvOp(x, before=self.ret)
        with self.assertRaises(nc.DiagnosticError):
            graph.ConvOp(x, w, b, pads="array<i64: bogus", before=self.ret)
        other = Module.parse(GRAPH_SKELETON, self.ctx)
        with self.assertRaises(ValueError):
            graph.ReluOp(other.operations[1].arguments[0], before=self.ret)
        with self.assertRaises(ValueError):
            graph.ReluOp(x, before=self.m.operation)  # not in a block
        with self.assertRaises(IndexError):
            self.ret.set_operand(5, x)
        with self.assertRaises(ValueError):
            self.ret.arguments
        # nothing was inserted by the failed attempts
        self.assertEqual([op.name for op in self.m.operations], ["builtin.module", "func.func", "func.return"])


class DriverTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.x = np.load(os.path.join(DIGITS, "test_x.npy"))[:4]
        cls.model = os.path.join(DIGITS, "digits_cnn.onnx")

    def test_run(self):
        (y,) = nc.run(self.model, [self.x])
        self.assertEqual(y.shape, (4, 10))
        ref = np.load(os.path.join(DIGITS, "reference_logits.npy"))[:4]
        self.assertLess(float(np.abs(y - ref).max()), 1e-3)
        with open(self.model, "rb") as f:
            (y2,) = nc.run(f.read(), self.x)
        np.testing.assert_array_equal(y, y2)

    def test_compile_and_simulate_match_int8_interpreter(self):
        calib = np.load(os.path.join(DIGITS, "train_x.npy"))[:32]
        r = nc.compile(self.model, target="northpole", calibration=calib)
        self.assertIsInstance(r.binary, bytes)
        self.assertGreater(len(r.binary), 1000)
        outputs, stats = nc.simulate(r, [self.x])
        self.assertEqual(stats["target"], "northpole")
        self.assertEqual(stats["inferences"], 4)
        int8_ir = nc.compile(self.model, emit="quantized", calibration=calib)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(int8_ir)
        try:
            (ref,) = nc.run(f.name, [self.x])
        finally:
            os.unlink(f.name)
        np.testing.assert_array_equal(outputs[0], ref)

    def test_compile_reports_mixed_precision_table(self):
        # precision="mixed" prints its table of chosen widths into CompileResult.reports (nc-compile: on
        # stderr); the widths listed are the binary's: the same widths as overrides give the same binary
        calib = np.load(os.path.join(DIGITS, "train_x.npy"))[:64]
        r = nc.compile(self.model, calibration=calib, precision="mixed", min_sqnr=26, max_samples=64)
        self.assertIn("mixed precision (64 calibration samples; budget: output SQNR at least 26 dB;", r.reports)
        widths = {}
        for line in r.reports.splitlines():
            f = line.split()
            if len(f) >= 3 and f[0].startswith("/") and f[1].isdigit():
                widths[f[0]] = int(f[1])
        self.assertEqual(sorted(widths), ["/conv1/Conv", "/conv2/Conv", "/conv3/Conv", "/fc/Gemm"])
        self.assertIn(4, widths.values())
        overrides = ",".join("%s:%d" % (k, v) for k, v in widths.items() if v != 8)
        same = nc.compile(self.model, calibration=calib, precision_overrides=overrides, max_samples=64)
        self.assertEqual(same.binary, r.binary)
        self.assertNotIn("mixed precision", same.reports)
        timed = nc.compile(self.model, calibration=calib, precision="mixed", min_sqnr=26, max_samples=64,
                           timing=True)
        self.assertLess(timed.reports.index("mixed precision"), timed.reports.index("Total Execution Time"))

    def test_simulate_trace(self):
        # trace=PATH writes the timeline (docs/reports.md), as nc-run --trace does
        calib = np.load(os.path.join(DIGITS, "train_x.npy"))[:32]
        r = nc.compile(self.model, target="northpole", calibration=calib)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.json")
            _, stats = nc.simulate(r, [self.x], trace=path)
            with open(path) as f:
                trace = json.load(f)
        spans = [e for e in trace["traceEvents"] if e["ph"] == "X" and e["cat"] == "compute"]
        self.assertEqual(sum(e["args"]["cycles"] for e in spans), sum(c["busy_cycles"] for c in stats["cores"]))

    def test_errors(self):
        with self.assertRaises(nc.DiagnosticError):
            nc.run("/nonexistent.onnx", [self.x])
        with self.assertRaises(TypeError):
            nc.run(self.model, [[1, 2, 3]])
        with self.assertRaises(TypeError):
            nc.run(12, [self.x])
        with self.assertRaises(nc.DiagnosticError):
            nc.compile(self.model, target="nosuchchip")
        with self.assertRaises(nc.DiagnosticError):
            nc.compile(self.model, no_such_option=1)
        with self.assertRaises(TypeError):
            nc.simulate(3.5, [self.x])
        with self.assertRaises(nc.DiagnosticError):
            nc.simulate(b"not a binary", [self.x])


class SimulateInProcessTest(unittest.TestCase):
    """nc.simulate runs the binary inside this process (python/nc/runtime.c)."""

    @classmethod
    def setUpClass(cls):
        cls.x = np.load(os.path.join(DIGITS, "test_x.npy"))[:4]
        calib = np.load(os.path.join(DIGITS, "train_x.npy"))[:32]
        cls.binary = nc.compile(os.path.join(DIGITS, "digits_cnn.onnx"), target="northpole",
                                calibration=calib).binary

    def test_no_tool_needed(self):
        # compile, run and simulate all work in-process: spawning a tool fails the test
        import subprocess
        saved = subprocess.Popen.__init__

        def refuse(popen, args, *rest, **kw):
            self.fail("spawned %s" % (args,))
        subprocess.Popen.__init__ = refuse
        try:
            nc.run(os.path.join(DIGITS, "digits_cnn.onnx"), [self.x])
            calib = np.load(os.path.join(DIGITS, "train_x.npy"))[:32]
            nc.compile(os.path.join(DIGITS, "digits_cnn.onnx"), calibration=calib, emit="quantized")
            outputs, stats = nc.simulate(self.binary, [self.x])
        finally:
            subprocess.Popen.__init__ = saved
        self.assertEqual(outputs[0].shape, (4, 10))
        self.assertEqual(outputs[0].dtype, np.float32)
        self.assertTrue(outputs[0].flags.writeable)
        self.assertEqual(stats["inferences"], 4)

    def test_path_batches_and_layouts_agree(self):
        with tempfile.NamedTemporaryFile(suffix=".ncb", delete=False) as f:
            f.write(self.binary)
        try:
            (a,), _ = nc.simulate(f.name, [self.x])
        finally:
            os.unlink(f.name)
        (b,), _ = nc.simulate(self.binary, [np.asfortranarray(self.x.astype(np.float64))])
        np.testing.assert_array_equal(a, b)
        (one,), stats = nc.simulate(self.binary, self.x[1:2])
        self.assertEqual(stats["inferences"], 1)
        np.testing.assert_array_equal(one[0], a[1])

    def test_int8_in_int8_out(self):
        (y,), _ = nc.simulate(self.binary, [np.zeros((2,) + self.x.shape[1:], np.int8)])
        self.assertEqual((y.dtype, y.shape), (np.int8, (2, 10)))

    def test_threads_run_concurrently_and_agree(self):
        import threading
        results = [None] * 3

        def work(i):
            results[i] = nc.simulate(self.binary, [self.x])[0][0]

        threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for r in results[1:]:
            np.testing.assert_array_equal(r, results[0])

    def test_errors(self):
        with self.assertRaisesRegex(nc.DiagnosticError, r"inputs\[0\]: error: 'input' must be float32 or int8 of shape \(1, 1, 8, 8\)"):
            nc.simulate(self.binary, [self.x[:, :, :4]])
        with self.assertRaisesRegex(nc.DiagnosticError, "takes 1 input"):
            nc.simulate(self.binary, [self.x, self.x])
        with self.assertRaises(nc.DiagnosticError) as e:
            nc.simulate(self.binary[:100], [self.x])
        self.assertEqual(e.exception.severity, "error")
        self.assertTrue(str(e.exception).startswith("binary: error:"))
        with self.assertRaisesRegex(nc.DiagnosticError, r"no-such-option: error: .*has no option .no-such-option. \(it has: frame-lead=N\)"):
            nc.simulate(self.binary, [self.x], no_such_option=1)
        with self.assertRaises(OSError):
            nc.simulate(self.binary, [self.x], trace="/nonexistent/dir/t.json")
        with self.assertRaises(TypeError):
            nc.simulate(self.binary, ["x"])


class LeakTest(unittest.TestCase):
    def test_no_reference_leaks(self):
        ctx = Context()

        def once():
            m = Module.parse(CSE_INPUT, ctx)
            [(op.name, op.parent) for op in m.operations]
            PassManager.parse("builtin.module(func.func(cse))", ctx).run(m)
            try:
                Module.parse("bogus", ctx)
            except nc.DiagnosticError:
                pass
        assert_no_leaks(self, once, keep=[ctx])


if __name__ == "__main__":
    unittest.main()
