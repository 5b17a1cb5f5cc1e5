"""Tests of nc.ir's object model (python/nc/ir_types.c, ir_regions.c, ir.py):
Type/Attribute/Location objects, regions and blocks, op attributes as typed
objects, uses and owners, moving ops, insertion points, and the error path
of each (misuse raises, never crashes). Run by ir.test (also under ASan)."""
import gc
import unittest

import numpy as np

import nc
from nc.ir import (Attribute, Block, Context, InsertionPoint, Location, Module, Operation, Region, Type,
                   Value)
from nc.passmanager import PassManager, register_pass

from leaks import assert_no_leaks

FUNC = """func.func @f(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  %1 = arith.muli %0, %0 : i32
  return %1 : i32
}
"""

GRAPH = """func.func @main(%x: tensor<1x1x8x8xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<1xf32>) -> tensor<1x1x8x8xf32> {
  return %x : tensor<1x1x8x8xf32>
}
"""


class TypeTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_parse_equality_hash_str(self):
        t = Type.parse("tensor<1x3xf32>", self.ctx)
        self.assertEqual(str(t), "tensor<1x3xf32>")
        self.assertEqual(repr(t), "Type(tensor<1x3xf32>)")
        u = Type.parse("tensor<1x3xf32>", self.ctx)
        self.assertIsNot(t, u)
        self.assertEqual(t, u)  # uniqued: the same C handle
        self.assertNotEqual(t, Type.parse("tensor<1x4xf32>", self.ctx))
        self.assertEqual(len({t, u, Type.parse("f32", self.ctx)}), 2)
        self.assertEqual(t, "tensor<1x3xf32>")  # a Type equals its text
        self.assertEqual({t: 1}["tensor<1x3xf32>"], 1)
        self.assertNotEqual(t, Type.parse("tensor<1x3xf32>", Context()))  # other context
        self.assertIs(t.context, self.ctx)

    def test_parameters(self):
        t = Type.parse("tensor<1x?x8xi8>", self.ctx)
        self.assertEqual((t.kind, t.rank, t.shape), ("tensor", 3, (1, None, 8)))
        self.assertFalse(t.has_static_shape)
        self.assertIsNone(t.num_elements)
        self.assertTrue(t.is_shaped)
        e = t.element_type
        self.assertEqual((e, e.kind, e.width, e.signedness, e.is_integer, e.is_float), ("i8", "integer", 8,
                                                                                       "signless", True, False))
        s = Type.parse("tensor<2x3xf32>", self.ctx)
        self.assertEqual((s.num_elements, s.has_static_shape, s.element_type.width), (6, True, 32))
        self.assertEqual(Type.parse("ui4", self.ctx).signedness, "unsigned")
        f = Type.parse("(i32, f32) -> tensor<2xi8>", self.ctx)
        self.assertEqual((f.kind, f.inputs, f.results), ("function", ("i32", "f32"), ("tensor<2xi8>",)))
        self.assertEqual(Type.parse("tuple<i1, index>", self.ctx).types, ("i1", "index"))
        self.assertEqual(Type.parse("index", self.ctx).width, 64)
        self.assertEqual(Type.parse("tensor<*xf32>", self.ctx).kind, "unranked_tensor")
        opaque = Type.parse("!mydialect.thing<4>", Context(allow_unregistered_dialects=True))
        self.assertEqual((opaque.kind, opaque.dialect), ("opaque", "mydialect"))
        self.assertIsNone(Type.parse("f32", self.ctx).dialect)

    def test_construct(self):
        i4 = Type.integer(4, self.ctx, signedness="signed")
        self.assertEqual(i4, "si4")
        t = Type.tensor([2, None], Type.parse("f32", self.ctx))
        self.assertEqual(t, Type.parse("tensor<2x?xf32>", self.ctx))

    def test_errors(self):
        with self.assertRaises(nc.DiagnosticError) as cm:
            Type.parse("tensor<1x", self.ctx)
        self.assertIn("error", str(cm.exception))
        self.assertEqual(self.ctx.take_diagnostics(), [])
        with self.assertRaises(TypeError):
            Type.parse("f32", "not a context")
        with self.assertRaises(TypeError):
            Type.parse(3, self.ctx)
        f32 = Type.parse("f32", self.ctx)
        for name in ("rank", "shape", "element_type", "inputs", "types", "signedness", "num_elements"):
            with self.assertRaises(TypeError, msg=name):
                getattr(f32, name)
        with self.assertRaises(TypeError):
            Type.parse("tensor<2xf32>", self.ctx).width
        with self.assertRaises(ValueError):
            Type.integer(65, self.ctx)
        with self.assertRaises(ValueError):
            Type.integer(8, self.ctx, signedness="both")
        with self.assertRaises(ValueError):
            Type.tensor([-2], f32)
        with self.assertRaises(TypeError):
            Type.tensor([2], "f32")
        with self.assertRaises(TypeError):
            Type.tensor(["a"], f32)
        with self.assertRaises(TypeError):
            Type()
        with self.assertRaises(TypeError):
            f32 < f32

    def test_keeps_context_alive(self):
        t = Type.parse("tensor<4xf32>", Context())
        gc.collect()
        self.assertEqual(t.shape, (4,))
        self.assertEqual(str(t.element_type), "f32")


class AttributeTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def attr(self, text):
        return Attribute.parse(text, self.ctx)

    def test_values(self):
        self.assertEqual(self.attr("3 : i32").value, 3)
        self.assertEqual(self.attr("3 : i32").type, "i32")
        self.assertEqual(self.attr("-1 : i8").value, -1)
        self.assertEqual(self.attr("255 : ui8").value, 255)
        self.assertIs(self.attr("true").value, True)
        self.assertEqual(self.attr("1.5 : f32").value, 1.5)
        self.assertEqual(self.attr('"relu"').value, "relu")
        self.assertIs(self.attr("unit").value, True)
        self.assertEqual(self.attr("array<i64: 1, 2, 3>").value, [1, 2, 3])
        self.assertEqual(self.attr("array<f32: 0.5>").value, [0.5])
        arr = self.attr('[1 : i32, "a", [2 : i64]]')
        self.assertEqual(arr.value, [1, "a", [2]])
        self.assertEqual((arr.kind, len(arr)), ("array", 3))
        self.assertEqual(arr[1], self.attr('"a"'))
        self.assertEqual(arr[-1].kind, "array")
        d = self.attr('{a = 1 : i64, b = "x"}')
        self.assertEqual(d.value, {"a": 1, "b": "x"})
        self.assertEqual(d["b"].value, "x")
        self.assertEqual(self.attr("tensor<2xf32>").value, "tensor<2xf32>")
        self.assertEqual(self.attr("@a::@b").value, "@a::@b")
        dense = self.attr("dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>").value
        self.assertIsInstance(dense, np.ndarray)
        self.assertEqual((dense.dtype, dense.shape, dense.tolist()), (np.int8, (2, 2), [[1, 2], [3, 4]]))
        splat = self.attr("dense<0.25> : tensor<3xf32>").value
        self.assertEqual((splat.dtype, splat.tolist()), (np.float32, [0.25] * 3))

    def test_dense_resource_value(self):
        m = Module.parse('func.func @f() -> tensor<2x2xi16> {\n'
                         '  %0 = graph.constant {value = dense_resource<w> : tensor<2x2xi16>} : () -> tensor<2x2xi16>\n'
                         '  return %0 : tensor<2x2xi16>\n}\n'
                         '{-#\n  dialect_resources: {\n    builtin: {\n'
                         '      w: "0x0200000001000200FFFF0300"\n    }\n  }\n#-}\n', self.ctx)
        value = m.operations[2].attributes["value"]
        self.assertEqual(value.kind, "dense_resource")
        arr = value.value
        self.assertEqual((arr.dtype, arr.tolist()), (np.int16, [[1, 2], [-1, 3]]))
        arr[0, 0] = 7  # a copy: the IR is unchanged
        self.assertEqual(value.value[0, 0], 1)
        with self.assertRaisesRegex(ValueError, "has no data"):
            Attribute.parse("dense_resource<nowhere> : tensor<2xf32>", self.ctx).value

    def test_equality_and_hash(self):
        a, b = self.attr("array<i64: 1, 2>"), self.attr("array<i64:1,2>")
        self.assertEqual(a, b)
        self.assertEqual(hash(a), hash(b))
        self.assertNotEqual(a, self.attr("array<i64: 2, 1>"))
        self.assertNotEqual(a, Attribute.parse("array<i64: 1, 2>", Context()))
        self.assertEqual(str(a), "array<i64: 1, 2>")
        self.assertEqual(repr(a), "Attribute(array<i64: 1, 2>)")

    def test_get_from_python(self):
        get = lambda v: Attribute.get(v, self.ctx)  # noqa: E731
        self.assertEqual(get(3), self.attr("3 : i64"))
        self.assertEqual(get(True), self.attr("true"))
        self.assertEqual(get(0.5), self.attr("0.5 : f32"))
        self.assertEqual(get("s"), self.attr('"s"'))
        self.assertEqual(get([1, 2]), self.attr("array<i64: 1, 2>"))
        self.assertEqual(get(["a", 1]), self.attr('["a", 1 : i64]'))
        self.assertEqual(get({"k": 1}), self.attr("{k = 1 : i64}"))
        self.assertEqual(get(Type.parse("i8", self.ctx)), self.attr("i8"))

    def test_from_numpy(self):
        for a in (np.arange(6, dtype=np.int8).reshape(2, 3), np.array([1.5, -2], np.float32),
                  np.array([True, False]), np.array([1, 2], np.uint16), np.float16([0.5]), np.array(3.0),
                  np.arange(12, dtype=np.int64).reshape(3, 4)[:, 1]):  # the last one is not contiguous
            attr = Attribute.get(a, self.ctx)
            self.assertEqual(attr.kind, "dense_elements")
            self.assertEqual(attr.type.shape, a.shape)
            back = attr.value
            self.assertEqual((back.dtype, back.shape), (a.dtype, a.shape))
            self.assertTrue((back == a).all())
        self.assertEqual(str(Attribute.get(np.arange(6, dtype=np.int8).reshape(2, 3), self.ctx)),
                         "dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi8>")
        for bad in (np.array([1j]), np.array([1], ">i4"), np.array(["a"])):
            with self.assertRaises(TypeError):
                Attribute.get(bad, self.ctx)

    def test_errors(self):
        with self.assertRaises(nc.DiagnosticError):
            self.attr("array<i64: bogus")
        with self.assertRaises(TypeError):
            Attribute.parse("1", None)
        with self.assertRaises(TypeError):
            Attribute.get(object(), self.ctx)
        with self.assertRaises(TypeError):
            Attribute.get({1: 2}, self.ctx)
        with self.assertRaises(ValueError):
            Attribute.get(Type.parse("i8", Context()), self.ctx)  # a type of another context
        with self.assertRaises(OverflowError):
            Attribute.get(1 << 70, self.ctx)
        with self.assertRaises(TypeError):
            len(self.attr("3 : i32"))
        with self.assertRaises(TypeError):
            self.attr("3 : i32")[0]
        with self.assertRaises(IndexError):
            self.attr("[1, 2]")[2]
        with self.assertRaises(KeyError):
            self.attr("{a = 1}")["b"]
        with self.assertRaises(TypeError):
            self.attr("{a = 1}")[0]
        with self.assertRaises(TypeError):  # dialect attributes have no Python value
            self.attr("#graph.foo").value


class LocationTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()

    def test_op_location(self):
        m = Module.parse(FUNC, self.ctx, filename="f.mlir")
        addi = m.operations[2]
        loc = addi.location
        self.assertEqual((loc.filename, loc.line, loc.col), ("f.mlir", 2, 8))
        self.assertEqual(str(loc), 'loc("f.mlir":2:8)')
        self.assertEqual(loc, Location.file("f.mlir", 2, 8, self.ctx))
        self.assertEqual(hash(loc), hash(Location.file("f.mlir", 2, 8, self.ctx)))
        self.assertFalse(loc.is_unknown)
        self.assertEqual(loc.attribute.kind, "location")
        addi.location = Location.name("conv1", self.ctx, child=loc)
        self.assertEqual(str(addi.location), 'loc("conv1"("f.mlir":2:8))')
        self.assertEqual(addi.location.line, 2)
        self.assertIn('loc("conv1"', m.print(debuginfo=True))
        a, b = Location.file("a.py", 1, 2, self.ctx), Location.file("b.py", 3, 4, self.ctx)
        call = Location.callsite(a, b)
        self.assertEqual(str(call), 'loc(callsite("a.py":1:2 at "b.py":3:4))')
        self.assertEqual((call.filename, call.line), ("a.py", 1))
        fused = Location.fused([a, b, Location.unknown(self.ctx)], self.ctx, metadata="conv")
        self.assertEqual(str(fused), 'loc(fused<"conv">["a.py":1:2, "b.py":3:4])')
        self.assertEqual(Location.fused([a], self.ctx), a)  # canonical: a single one gives itself
        u = Location.unknown(self.ctx)
        self.assertTrue(u.is_unknown)
        self.assertIsNone(u.filename)
        self.assertIs(u.context, self.ctx)

    def test_errors(self):
        m = Module.parse(FUNC, self.ctx)
        with self.assertRaises(TypeError):
            m.operations[2].location = "f.mlir:1:1"
        with self.assertRaises(ValueError):
            m.operations[2].location = Location.unknown(Context())
        with self.assertRaises(AttributeError):
            del m.operations[2].location
        with self.assertRaises(TypeError):
            Location.file("f", "1", 0, self.ctx)
        with self.assertRaises(TypeError):
            Location.unknown(42)
        with self.assertRaises(TypeError):
            Location.callsite(Location.unknown(self.ctx), "here")
        with self.assertRaises(ValueError):
            Location.callsite(Location.unknown(self.ctx), Location.unknown(Context()))
        with self.assertRaises(ValueError):
            Location.fused([Location.unknown(Context())], self.ctx)
        with self.assertRaises(TypeError):
            Location.fused([1], self.ctx)
        with self.assertRaises(TypeError):
            Location.fused([], self.ctx, metadata=object())
        with self.assertRaises(RuntimeError):
            with Location.unknown(self.ctx):
                Location.unknown(self.ctx).__exit__(None, None, None)


class StructureTest(unittest.TestCase):
    def setUp(self):
        self.ctx = Context()
        self.m = Module.parse(FUNC, self.ctx)
        self.module_op = self.m.operation
        self.func = self.m.operations[1]

    def test_regions_blocks_operations(self):
        (region,) = self.module_op.regions
        self.assertIsInstance(region, Region)
        self.assertEqual(region.owner, self.module_op)
        (body,) = region.blocks
        self.assertIsInstance(body, Block)
        self.assertEqual(self.m.body, body)
        self.assertEqual([op.name for op in body], ["func.func"])
        (entry,) = self.func.regions[0]
        self.assertEqual([op.name for op in entry.operations], ["arith.addi", "arith.muli", "func.return"])
        self.assertEqual(entry.region, self.func.regions[0])
        self.assertEqual(entry.owner, self.func)
        a, b = entry.arguments
        self.assertEqual((a.type, a.is_block_argument, a.index, b.index), ("i32", True, 0, 1))
        self.assertEqual(a.owner, entry)
        self.assertEqual(entry.operations[0].block, entry)
        self.assertIsNone(self.module_op.block)
        self.assertEqual(len({entry, self.func.regions[0].blocks[0]}), 1)
        self.assertEqual(self.func.arguments, entry.arguments)

    def test_uses_and_owner(self):
        addi, muli, ret = self.func.regions[0].blocks[0].operations
        s = addi.results[0]
        self.assertEqual(s.owner, addi)
        self.assertEqual((s.is_block_argument, s.index), (False, 0))
        self.assertEqual(sorted(i for _, i in s.uses), [0, 1])
        self.assertTrue(all(op == muli for op, _ in s.uses))
        self.assertEqual(muli.results[0].uses, [(ret, 0)])
        self.assertEqual(repr(muli), "Operation(arith.muli)")
        self.assertEqual(repr(s), "Value(result #0 of arith.addi: i32)")
        self.assertEqual(repr(self.func.arguments[1]), "Value(argument #1: i32)")
        self.assertEqual(ret.results, [])
        s.set_type(Type.parse("i64", self.ctx))  # the uses no longer match: verify says so
        self.assertEqual(addi.results[0].type, "i64")
        with self.assertRaises(nc.DiagnosticError):
            self.m.verify()
        s.set_type("i32")
        self.assertTrue(self.m.verify())
        with self.assertRaises(ValueError):
            s.set_type(Type.parse("i32", Context()))
        with self.assertRaises(TypeError):
            s.set_type(32)
        self.assertEqual(hash(s), hash(muli.operands[0]))
        self.assertEqual({addi: 1}[self.m.operations[2]], 1)

    def test_attributes(self):
        ctx = Context()
        m = Module.parse('func.func @g(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {\n'
                         '  %0 = graph.max_pool %x {kernel_shape = array<i64: 1, 1>, strides = array<i64: 1, 1>} '
                         ': (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>\n'
                         '  return %0 : tensor<1x1x4x4xf32>\n}\n', ctx)
        pool = m.operations[2]
        attrs = pool.attributes
        self.assertIn("kernel_shape", attrs)
        ks = attrs["kernel_shape"]
        self.assertIsInstance(ks, Attribute)
        self.assertEqual((ks.kind, ks.value), ("dense_array", [1, 1]))
        self.assertEqual(dict((k, v.value) for k, v in attrs.items())["strides"], [1, 1])
        attrs["strides"] = [2, 2]  # a Python value
        self.assertEqual(pool.attributes["strides"].value, [2, 2])
        attrs["nc.tag"] = Attribute.parse('"mine"', ctx)  # an object; discardable
        self.assertEqual(pool.attributes["nc.tag"].value, "mine")
        self.assertEqual(list(attrs)[-1], "nc.tag")
        self.assertIn('nc.tag = "mine"', str(pool))
        self.assertEqual(len(attrs), len(list(attrs)))
        del attrs["nc.tag"]
        self.assertNotIn("nc.tag", pool.attributes)
        self.assertIn("kernel_shape", repr(attrs))
        del attrs["strides"]  # an inherent one
        self.assertEqual(list(pool.attributes), ["kernel_shape"])
        with self.assertRaises(KeyError):
            attrs["nosuch"]
        with self.assertRaises(KeyError):
            del attrs["nosuch"]
        with self.assertRaises(TypeError):
            attrs["x"] = object()
        with self.assertRaises(ValueError):
            attrs["x"] = Attribute.parse("1", Context())  # from another context
        with self.assertRaises(TypeError):
            attrs[3]

    def test_move(self):
        addi, muli, ret = self.func.regions[0].blocks[0].operations
        entry = self.func.regions[0].blocks[0]
        c = InsertionPoint(ret).build("arith.constant", [], {"value": "7 : i32"}, ["i32"])
        c.move_before(addi)
        self.assertEqual([op.name for op in entry], ["arith.constant", "arith.addi", "arith.muli", "func.return"])
        c.move_after(muli)
        self.assertEqual([op.name for op in entry], ["arith.addi", "arith.muli", "arith.constant", "func.return"])
        InsertionPoint.at_block_begin(entry).insert(c)
        self.assertEqual(entry.operations[0], c)
        self.assertTrue(self.m.verify())
        self.assertTrue(self.func.verify())
        c.move_before(ret)
        muli.move_before(addi)  # uses addi's result before its definition
        with self.assertRaisesRegex(nc.DiagnosticError, "does not dominate"):
            self.func.verify()
        muli.move_after(addi)
        self.assertTrue(addi.verify())
        with self.assertRaises(ValueError):
            self.func.move_before(addi)  # into itself
        with self.assertRaises(ValueError):
            self.module_op.move_before(addi)  # top level
        with self.assertRaises(ValueError):
            addi.move_after(self.module_op)
        with self.assertRaises(ValueError):
            addi.move_before(Module.parse(FUNC, self.ctx).operations[2])  # other module
        with self.assertRaises(TypeError):
            addi.move_before("here")
        with self.assertRaises(ValueError):
            entry.append(self.func)  # into itself

    def test_clone(self):
        addi, muli, ret = self.func.regions[0].blocks[0].operations
        entry = self.func.regions[0].blocks[0]
        copy = muli.clone(ip=InsertionPoint(ret))
        self.assertEqual([op.name for op in entry], ["arith.addi", "arith.muli", "arith.muli", "func.return"])
        self.assertEqual(copy.operands, muli.operands)
        self.assertNotEqual(copy, muli)
        ret.set_operand(0, copy.results[0])
        with InsertionPoint(self.m.body):
            g = self.func.clone()  # a whole function, with its body
        g.attributes["sym_name"] = "g"
        self.assertEqual([op.name for op in g.regions[0].blocks[0]],
                         ["arith.addi", "arith.muli", "arith.muli", "func.return"])
        self.assertTrue(self.m.verify())
        self.assertIn("func.func @g(", str(self.m))
        with self.assertRaises(ValueError):
            muli.clone()  # no insertion point
        with self.assertRaises(TypeError):
            muli.clone(ip="here")
        with self.assertRaises(ValueError):
            muli.clone(ip=InsertionPoint(Module.parse(FUNC, self.ctx).body))

    def test_stale_handles_raise(self):
        entry = self.func.regions[0].blocks[0]
        region = self.func.regions[0]
        addi = entry.operations[0]
        value = addi.results[0]
        t = value.type
        loc = addi.location
        attrs = addi.attributes
        self.m.destroy()
        for fn in (lambda: entry.operations, lambda: self.m.body, lambda: region.blocks, lambda: entry.arguments,
                   lambda: addi.regions, lambda: addi.verify(),
                   lambda: addi.location, lambda: value.uses, lambda: value.owner, lambda: attrs["x"],
                   lambda: list(attrs), lambda: hash(addi), lambda: addi == addi, lambda: entry == entry,
                   lambda: addi.move_before(addi), lambda: InsertionPoint(entry).build("arith.constant", []),
                   lambda: value.is_block_argument):
            with self.assertRaises(RuntimeError):
                fn()
        self.assertEqual((repr(addi), repr(value)), ("Operation(<stale handle>)", "Value(<stale handle>)"))
        # types and locations belong to the context, which is still alive
        self.assertEqual(t, "i32")
        self.assertEqual(loc.line, 2)

    def test_erased_op_raises(self):
        entry = self.func.regions[0].blocks[0]
        c = InsertionPoint(entry.operations[0]).build("arith.constant", [], {"value": "7 : i32"}, ["i32"])
        v = c.results[0]
        c.erase()
        with self.assertRaises(RuntimeError):
            c.location
        with self.assertRaises(RuntimeError):
            v.uses
        with self.assertRaises(RuntimeError):
            InsertionPoint(c)


class BuilderTest(unittest.TestCase):
    def setUp(self):
        from nc.dialects import graph
        self.graph = graph
        self.ctx = Context()
        self.m = Module.parse(GRAPH, self.ctx, filename="g.mlir")
        self.func = self.m.operations[1]
        self.entry = self.func.regions[0].blocks[0]
        self.ret = self.entry.operations[-1]

    def test_with_insertion_point_and_location(self):
        graph = self.graph
        x, w, b = self.entry.arguments
        with InsertionPoint(self.ret), Location.file("model.py", 10, 1, self.ctx):
            conv = graph.ConvOp(x, w, b, pads=[1, 1, 1, 1])
            self.assertIsInstance(InsertionPoint.current(), InsertionPoint)
            relu = graph.ReluOp(conv.result, loc=Location.name("act", self.ctx))
        self.ret.set_operand(0, relu.result)
        self.assertTrue(self.m.verify())
        self.assertEqual([op.name for op in self.entry], ["graph.conv", "graph.relu", "func.return"])
        self.assertEqual(str(conv.operation.location), 'loc("model.py":10:1)')
        self.assertEqual(str(relu.operation.location), 'loc("act")')
        self.assertEqual(conv.operation.attributes["pads"].value, [1, 1, 1, 1])
        self.assertEqual(conv.result.type.shape, (1, 1, 8, 8))
        self.assertIsNone(Location.current())
        with self.assertRaises(ValueError):
            InsertionPoint.current()

    def test_contexts_are_per_thread(self):
        import threading
        seen = []

        def other():
            seen.append(Location.current())
            try:
                InsertionPoint.current()
            except ValueError:
                seen.append("no insertion point")

        with InsertionPoint(self.ret), Location.unknown(self.ctx):
            t = threading.Thread(target=other)
            t.start()
            t.join()
            self.assertIsNotNone(Location.current())
        self.assertEqual(seen, [None, "no insertion point"])

    def test_block_begin_end_and_objects(self):
        graph = self.graph
        x = self.entry.arguments[0]
        first = graph.ReluOp(x, ip=InsertionPoint.at_block_begin(self.entry))
        with InsertionPoint.at_block_terminator(self.entry):
            neg = graph.NegOp(first.result, result_types=[Type.parse("tensor<1x1x8x8xf32>", self.ctx)])
        self.assertEqual([op.name for op in self.entry], ["graph.relu", "graph.neg", "func.return"])
        # at the end of the block (after the terminator), then moved back
        with InsertionPoint(self.entry):
            tail = graph.ReluOp(neg.result)
        self.assertEqual(self.entry.operations[-1], tail.operation)
        tail.operation.move_before(self.ret)
        self.ret.set_operand(0, tail.result)
        self.assertTrue(self.m.verify())
        # locations default to the op inserted in front of
        self.assertEqual(first.operation.location, self.entry.operations[-1].location)
        # typed attributes as keyword arguments
        pool = graph.MaxPoolOp(x, kernel_shape=Attribute.parse("array<i64: 1, 1>", self.ctx), before=self.ret)
        self.assertEqual(pool.operation.attributes["kernel_shape"].value, [1, 1])

    def test_function_from_scratch(self):
        from nc.dialects import func
        import os
        import tempfile
        m = Module.parse("", self.ctx)
        ftype = Type.parse("(tensor<4xf32>) -> tensor<4xf32>", self.ctx)
        with InsertionPoint(m.body), Location.file("build.py", 1, 1, self.ctx):
            f = func.FuncOp(sym_name="relu4", function_type=ftype)  # a Type as a type attribute
            (region,) = f.operation.regions
            self.assertEqual(region.blocks, [])  # regions come empty
            entry = region.append_block(ftype.inputs, [Location.name("x", self.ctx)])
            with InsertionPoint(entry):
                r = self.graph.ReluOp(entry.arguments[0])
                func.ReturnOp(r.result)  # no results: nothing to infer
        self.assertTrue(m.verify())
        self.assertEqual(f.operation.attributes["function_type"].value, ftype)
        self.assertEqual(str(entry.arguments[0].type), "tensor<4xf32>")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "f.mlir")
            with open(path, "w") as out:
                out.write(str(m))
            (y,) = nc.run(path, [np.array([-1, 2, -3, 4], np.float32)])
        self.assertEqual(y.tolist(), [0, 2, 0, 4])
        # a terminator that needs its parent verifies where it is inserted, not detached
        with self.assertRaises(nc.DiagnosticError):
            with InsertionPoint(m.body):
                func.ReturnOp()
        self.assertEqual([op.name for op in m.body], ["func.func"])
        with self.assertRaises(TypeError):
            region.append_block([3])
        with self.assertRaises(ValueError):
            region.append_block(["f32"], [])
        with self.assertRaises(ValueError):
            region.append_block([Type.parse("f32", Context())])
        with self.assertRaises(TypeError):
            region.append_block(["f32"], ["here"])
        self.assertEqual(len(region.blocks), 1)  # nothing added by the failures

    def test_operation_create_takes_objects(self):
        c = Operation.create("arith.constant", [], self.ret, {"value": Attribute.parse("5 : i32", self.ctx)},
                             [Type.parse("i32", self.ctx)])
        self.assertEqual(str(c).strip(), "%0 = arith.constant 5 : i32")
        with self.assertRaises(ValueError):
            Operation.create("arith.constant", [], self.ret, {"value": Attribute.parse("5 : i32", Context())}, ["i32"])
        with self.assertRaises(ValueError):
            Operation.create("arith.constant", [], self.ret, {"value": "5 : i32"}, [Type.parse("i32", Context())])
        with self.assertRaises(TypeError):
            Operation.create("arith.constant", [], self.ret, {"value": 5}, ["i32"])
        with self.assertRaises(TypeError):
            Operation.create("arith.constant", [], self.ret, {"value": "5 : i32"}, [3])

    def test_constant_from_numpy(self):
        graph = self.graph
        x = self.entry.arguments[0]
        bias = np.random.default_rng(2).standard_normal((1, 1, 8, 8)).astype(np.float32)
        with InsertionPoint(self.ret):
            c = graph.ConstantOp(value=bias)
            y = graph.AddOp(x, c.result)
        self.ret.set_operand(0, y.result)
        self.assertTrue(self.m.verify())
        self.assertEqual(c.result.type, "tensor<1x1x8x8xf32>")
        self.assertTrue((c.operation.attributes["value"].value == bias).all())

    def test_unregistered_ops(self):
        ctx = Context(allow_unregistered_dialects=True)
        m = Module.parse(FUNC, ctx)
        ret = m.operations[-1]
        op = InsertionPoint(ret).build("mine.op", [m.operations[1].arguments[0]], {"k": "3 : i8"}, ["f32"])
        self.assertEqual(str(op).strip(), '%2 = "mine.op"(%arg0) {k = 3 : i8} : (i32) -> f32')
        with self.assertRaises(ValueError):  # nothing to infer types from
            InsertionPoint(ret).build("mine.other", [])
        with self.assertRaises(ValueError):  # not allowed in this context
            InsertionPoint(self.ret).build("mine.op", [], None, ["f32"])

    def test_add_argument(self):
        arg = self.entry.add_argument(Type.parse("tensor<2xf32>", self.ctx))
        self.assertEqual((arg.index, arg.type.shape), (3, (2,)))
        with self.assertRaises(ValueError):
            self.entry.add_argument(Type.parse("f32", Context()))
        with self.assertRaises(TypeError):
            self.entry.add_argument(3)

    def test_errors(self):
        graph = self.graph
        x, w, b = self.entry.arguments
        with self.assertRaises(ValueError):
            graph.ReluOp(x)  # no insertion point
        with self.assertRaises(TypeError):
            graph.ReluOp(x, ip=self.ret)
        with self.assertRaises(TypeError):
            InsertionPoint("here")
        with self.assertRaises(ValueError):
            InsertionPoint(self.m.operation)
        with self.assertRaises(ValueError):
            InsertionPoint.at_block_terminator(Module.parse("", self.ctx).operation.regions[0].blocks[0])
        with InsertionPoint(self.ret):
            with self.assertRaises(ValueError):  # a Type from another context
                graph.NegOp(x, result_types=[Type.parse("tensor<1x1x8x8xf32>", Context())])
            with self.assertRaises(ValueError):  # an Attribute from another context
                graph.MaxPoolOp(x, kernel_shape=Attribute.parse("array<i64: 1, 1>", Context()))
            with self.assertRaises(ValueError):  # a Value from another context
                graph.ReluOp(Module.parse(GRAPH, Context()).operations[1].arguments[0])
            with self.assertRaises(ValueError):  # a Location from another context
                graph.ReluOp(x, loc=Location.unknown(Context()))
            with self.assertRaises(TypeError):
                graph.ReluOp(x, loc="here")
            with self.assertRaises(TypeError):
                graph.NegOp(x, result_types=[3])
            with self.assertRaises(nc.DiagnosticError):
                graph.NegOp(x, result_types=["tensor<"])
            with self.assertRaises(nc.DiagnosticError):  # does not verify
                graph.NegOp(x, result_types=["i32"])
        with self.assertRaises(ValueError):
            nc._nc.build_op("graph.relu", [x], self.entry, self.m.operations[1])  # before not in block
        with self.assertRaises(ValueError):
            nc._nc.build_op("graph.nosuch", [x], self.entry)
        with self.assertRaises(TypeError):
            nc._nc.build_op("graph.relu", [x], "block")
        self.assertEqual([op.name for op in self.entry], ["func.return"])
        self.assertEqual(self.ctx.take_diagnostics(), [])


@register_pass
class TagAdds:
    """A Python pass that reads and writes IR through the object model."""
    argument = "test-ir-tag-adds"
    anchor = "func.func"
    kept = []

    def run(self, op):
        for inner in op.walk():
            if inner.name == "arith.addi":
                t = inner.results[0].type
                inner.attributes["nc.width"] = t.width
                TagAdds.kept.append((t, inner.location, inner.attributes["nc.width"]))


class PassTest(unittest.TestCase):
    def test_object_model_inside_a_pass(self):
        ctx = Context()
        m = Module.parse(FUNC, ctx)
        PassManager.parse("builtin.module(func.func(test-ir-tag-adds))", ctx).run(m)
        self.assertEqual(m.operations[2].attributes["nc.width"].value, 32)
        t, loc, attr = TagAdds.kept.pop()
        self.assertIsNone(t.context)  # reached through the pass's view
        for fn in (lambda: str(t), lambda: t.width, lambda: str(loc), lambda: attr.value, lambda: t == t):
            with self.assertRaises(RuntimeError):  # the view died with the pass
                fn()


class LeakTest(unittest.TestCase):
    def test_no_reference_leaks(self):
        ctx = Context()

        def once():
            m = Module.parse(FUNC, ctx)
            for op in m.operations:
                op.location.line
                [r.type.kind for r in op.results]
                [(u[0].name, u[1]) for v in op.results for u in v.uses]
                dict(op.attributes)
                [b.arguments for r in op.regions for b in r]
            Attribute.parse("dense<1> : tensor<2xi8>", ctx).value
            Type.parse("tensor<2xf32>", ctx).shape
            Attribute.get(np.ones((2, 2), np.float32), ctx).value
            with InsertionPoint(m.body), Location.unknown(ctx):
                InsertionPoint.current().build("arith.constant", [], {"value": "1 : i32"}, ["i32"]).location
            try:
                Type.parse("tensor<", ctx)
            except nc.DiagnosticError:
                pass
        assert_no_leaks(self, once, keep=[ctx], warmup=50)  # caches, interned names


if __name__ == "__main__":
    unittest.main()
