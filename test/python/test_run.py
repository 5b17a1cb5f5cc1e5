"""Tests of nc.run (the reference interpreter in-process: NumPy in and out,
inputs used in place, outputs viewing the interpreter's buffers, the GIL
released) and of ONNX import/export from paths, bytes and onnx.ModelProto,
with their error paths. Run by run.test (lit), also under ASan."""
import os
import sys
import tempfile
import threading
import unittest

import numpy as np

import nc
from nc.ir import Context, Module

SRC = os.environ.get("NC_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
DIGITS = os.path.join(SRC, "examples", "digits")

TWO_OUTPUTS = """func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.mul %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
"""

INT_OUTPUT = """func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.add %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"""


class RunTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.x = np.load(os.path.join(DIGITS, "test_x.npy"))[:4]
        cls.model = os.path.join(DIGITS, "digits_cnn.onnx")
        cls.ref = np.load(os.path.join(DIGITS, "reference_logits.npy"))[:4]

    def test_every_output(self):
        ctx = Context()
        m = Module.parse(TWO_OUTPUTS, ctx)
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        y = np.full((2, 3), 2, np.float32)
        s, p = nc.run(m, [x, y])
        np.testing.assert_array_equal(s, x + y)
        np.testing.assert_array_equal(p, x * y)
        self.assertEqual(s.dtype, np.float32)

    def test_outputs_view_the_interpreters_buffer(self):
        (out,) = nc.run(Module.parse(INT_OUTPUT, Context()), [np.array([1, -2, 3, 4], np.int32)])
        np.testing.assert_array_equal(out, [2, -4, 6, 8])
        self.assertEqual(out.dtype, np.int32)
        tensor = out.base.obj  # no copy: the array views the result through a memoryview
        self.assertIsInstance(tensor, nc._nc.Tensor)
        self.assertEqual(tensor.dtype, "i32")
        out[0] = 7  # writable, and it stays alive with the array
        self.assertEqual(out[0], 7)

    def test_inputs_in_place_and_strided(self):
        ctx = Context()
        m = Module.parse(TWO_OUTPUTS, ctx)
        big = np.arange(12, dtype=np.float32).reshape(2, 6)
        x = big[:, ::2]  # not contiguous: copied first
        y = np.ones((2, 3), np.float32)
        s, _ = nc.run(m, [x, y])
        np.testing.assert_array_equal(s, x + 1)

    def test_onnx_model_in_all_forms(self):
        (y,) = nc.run(self.model, [self.x])
        self.assertEqual(y.shape, (4, 10))
        self.assertLess(float(np.abs(y - self.ref).max()), 1e-3)
        with open(self.model, "rb") as f:
            data = f.read()
        np.testing.assert_array_equal(nc.run(data, self.x)[0], y)
        import onnx
        proto = onnx.load(self.model)
        np.testing.assert_array_equal(nc.run(proto, self.x)[0], y)
        m = nc.import_onnx(proto)
        np.testing.assert_array_equal(nc.run(m, [self.x])[0], y)

    def test_mlir_path(self):
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(INT_OUTPUT)
        try:
            (out,) = nc.run(f.name, [np.array([1, 2, 3, 4], np.int32)])
        finally:
            os.unlink(f.name)
        np.testing.assert_array_equal(out, [2, 4, 6, 8])

    def test_export_round_trip(self):
        import onnx
        m = nc.import_onnx(self.model)
        data = nc.export_onnx(m)
        proto = onnx.load_from_string(data)
        onnx.checker.check_model(proto)
        self.assertEqual(nc.export_onnx(m, proto=True), proto)
        np.testing.assert_array_equal(nc.run(proto, self.x)[0], nc.run(self.model, self.x)[0])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "out.onnx")
            data = nc.export_onnx(m, path, opset=13)
            with open(path, "rb") as f:
                self.assertEqual(data, f.read())
            self.assertEqual(onnx.load(path).opset_import[0].version, 13)
            m2 = nc.import_onnx(path)
            self.assertEqual([op.name for op in m2.operations], [op.name for op in m.operations])

    def test_threads_run_concurrently(self):
        # the GIL is released while the interpreter runs: threads agree
        m = nc.import_onnx(self.model)
        results = [None] * 4

        def work(i):
            results[i] = nc.run(m, [self.x])[0]
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for r in results:
            np.testing.assert_array_equal(r, results[0])

    def test_errors(self):
        ctx = Context()
        m = Module.parse(TWO_OUTPUTS, ctx, filename="two.mlir")
        x = np.zeros((2, 3), np.float32)
        with self.assertRaises(nc.DiagnosticError) as cm:  # wrong shape, reported at the argument
            nc.run(m, [x, np.zeros((3, 3), np.float32)])
        self.assertEqual(cm.exception.location[0], "two.mlir")
        with self.assertRaises(nc.DiagnosticError):  # wrong dtype
            nc.run(m, [x, np.zeros((2, 3), np.int32)])
        with self.assertRaises(nc.DiagnosticError):  # wrong count
            nc.run(m, [x])
        with self.assertRaises(TypeError):
            nc.run(m, [x, [1, 2]])
        with self.assertRaises(TypeError):  # an element type nc does not know
            nc.run(m, [x, np.zeros((2, 3), np.complex64)])
        with self.assertRaises(ValueError):
            nc.run(m, [x, x], function="nosuch")
        with self.assertRaises(ValueError):
            nc.run("model.txt", [x])
        with self.assertRaises(TypeError):
            nc.run(3, [x])
        with self.assertRaises(nc.DiagnosticError) as cm:
            nc.run("/nonexistent.onnx", [x])
        self.assertIn("/nonexistent.onnx", str(cm.exception))
        with self.assertRaises(nc.DiagnosticError):
            nc.run(b"not onnx", [x])
        with self.assertRaises(nc.DiagnosticError):  # a function the interpreter cannot run
            nc.run(Module.parse("func.func @main(%a: i32) -> i32 {\n  return %a : i32\n}\n", ctx),
                   [np.zeros((), np.int32)])
        m.destroy()
        with self.assertRaises(RuntimeError):
            nc.run(m, [x, x])

    def test_import_export_errors(self):
        with self.assertRaises(nc.DiagnosticError):
            nc.import_onnx(b"\x08\x07garbage")
        with self.assertRaises(nc.DiagnosticError):
            nc.import_onnx("/nonexistent.onnx")
        with self.assertRaises(TypeError):
            nc.import_onnx(3.5)
        with self.assertRaises(TypeError):
            nc.import_onnx(b"", context="not a context")
        ctx = Context()
        with self.assertRaises(nc.DiagnosticError):  # arith is not ONNX
            nc.export_onnx(Module.parse("func.func @main(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n"
                                        "  return %0 : i32\n}\n", ctx))
        with self.assertRaises(nc.DiagnosticError):
            nc.export_onnx(Module.parse(TWO_OUTPUTS, ctx), opset=5)
        self.assertEqual(ctx.take_diagnostics(), [])

    def test_no_reference_leaks(self):
        m = Module.parse(INT_OUTPUT, Context())
        x = np.array([1, 2, 3, 4], np.int32)
        before = sys.getrefcount(x)
        for _ in range(50):
            nc.run(m, [x])
        self.assertEqual(sys.getrefcount(x), before)


class CompileTest(unittest.TestCase):
    """nc.compile in-process (python/nc/compile.c, the target API as nc-compile drives it)."""

    @classmethod
    def setUpClass(cls):
        cls.model = os.path.join(DIGITS, "digits_cnn.onnx")
        cls.x = np.load(os.path.join(DIGITS, "test_x.npy"))[:4]
        cls.calib = np.load(os.path.join(DIGITS, "train_x.npy"))[:32]

    def test_binary_matches_nc_compile(self):
        import subprocess
        r = nc.compile(self.model, calibration=self.calib, timing=True)
        self.assertEqual(r.target, "northpole")
        self.assertIn("Total Execution Time", r.reports)
        with tempfile.TemporaryDirectory() as d:
            np.save(os.path.join(d, "c.npy"), self.calib)
            out = os.path.join(d, "m.ncb")
            tool = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(nc.__file__))), "bin", "nc-compile")
            subprocess.run([tool, self.model, "--calibration=" + os.path.join(d, "c.npy"), "-o", out], check=True)
            with open(out, "rb") as f:
                self.assertEqual(r.binary, f.read())  # the same bytes as the tool's

    def test_levels_and_module_input(self):
        ctx = Context()
        m = nc.import_onnx(self.model, ctx)
        before = str(m)
        graph = nc.compile(m, emit="graph")
        self.assertIn("graph.conv", graph)
        self.assertEqual(str(m), before)  # the caller's module is left as it was
        core = nc.compile(m, emit="core", calibration=self.calib)
        self.assertIn("nc.target", core)
        # IR that names its target is not lowered again: on to the binary
        lowered = Module.parse(core, ctx)
        r = nc.compile(lowered)
        outputs, _ = nc.simulate(r, [self.x])
        self.assertEqual(outputs[0].shape, (4, 10))
        with self.assertRaises(nc.DiagnosticError):  # behind the module's level
            nc.compile(lowered, emit="quantized")
        with self.assertRaises(nc.DiagnosticError):  # options have no effect on lowered IR
            nc.compile(lowered, calibration=self.calib)

    def test_input_shape(self):
        # graph-set-input-shape runs first: the digits input is static, so only its own shape passes
        text = nc.compile(self.model, emit="graph", input_shape="input:1x1x8x8")
        self.assertIn("tensor<1x1x8x8xf32>", text)
        with self.assertRaisesRegex(nc.DiagnosticError, "dim 0 is 1, not 2"):
            nc.compile(self.model, emit="graph", input_shape="input:2x1x8x8")

    def test_errors(self):
        for kw, message in [(dict(target="nosuch"), "unknown target 'nosuch'"),
                            (dict(emit="nosuch"), "cannot emit 'nosuch'"),
                            (dict(no_such_option=1), "no-such-option"),
                            (dict(max_samples="x"), "max-samples")]:
            with self.subTest(kw=kw):
                with self.assertRaises(nc.DiagnosticError) as cm:
                    nc.compile(self.model, **kw)
                self.assertIn(message, str(cm.exception))
        with self.assertRaises(nc.DiagnosticError):  # no calibration data for the quantizer
            nc.compile(b"garbage")
        with self.assertRaises(TypeError):
            nc.compile(3)


if __name__ == "__main__":
    unittest.main()
