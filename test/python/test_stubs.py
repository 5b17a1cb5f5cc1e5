"""The build's .pyi stubs (python/gen_stubs.py -> build/python/nc-stubs)
describe exactly the op classes nc.dialects generates: same classes, same
docstrings, attributes as keyword parameters, valid Python syntax."""
import ast
import inspect
import os
import unittest

import nc
from nc import dialects

STUBS = os.path.join(os.path.dirname(os.path.dirname(nc.__file__)), "nc-stubs")


def stub_classes(path):
    tree = ast.parse(open(path).read(), path)
    return {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}


class StubsTest(unittest.TestCase):
    def test_marked_partial(self):
        self.assertEqual(open(os.path.join(STUBS, "py.typed")).read(), "partial\n")

    def test_every_op_class_has_a_stub_with_its_docstring(self):
        count = 0
        for name in dialects.__all__:
            mod = getattr(dialects, name)
            classes = stub_classes(os.path.join(STUBS, "dialects", name + ".pyi"))
            self.assertEqual(sorted(classes), sorted(mod.__all__), name)
            for cls_name in mod.__all__:
                self.assertEqual(ast.get_docstring(classes[cls_name], clean=False),
                                 getattr(mod, cls_name).__doc__, cls_name)
                count += 1
        self.assertGreater(count, 100)

    def test_conv_signature(self):
        conv = stub_classes(os.path.join(STUBS, "dialects", "graph.pyi"))["ConvOp"]
        init = next(n for n in conv.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        kwonly = [a.arg for a in init.args.kwonlyargs]
        self.assertEqual(kwonly[:2], ["before", "result_types"])
        for attr in dialects.graph.ConvOp.ATTRIBUTES:
            self.assertIn(attr, kwonly)
        self.assertEqual(init.args.vararg.arg, "operands")
        self.assertEqual(init.args.kwarg.arg, "attributes")

    def test_package_stub_names_opview_api(self):
        tree = ast.parse(open(os.path.join(STUBS, "dialects", "__init__.pyi")).read())
        opview = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "OpView")
        members = {n.name for n in opview.body if isinstance(n, ast.FunctionDef)}
        runtime = {n for n, v in inspect.getmembers(dialects.OpView) if not n.startswith("_") and (callable(v) or
                   isinstance(v, property))}
        self.assertEqual(members - {"__init__"}, runtime)

    def test_ir_stub_lists_every_public_member(self):
        from nc import ir
        classes = stub_classes(os.path.join(STUBS, "ir.pyi"))
        self.assertEqual(sorted(classes), sorted(ir.__all__))
        for name in ir.__all__:
            stubbed = {n.name for n in classes[name].body if isinstance(n, ast.FunctionDef)}
            public = {n for n in vars(getattr(ir, name)) if not n.startswith("_")}
            self.assertEqual(public - stubbed, set(), name)
        # C members carry their signatures and return types
        tensor = next(n for n in classes["Type"].body if isinstance(n, ast.FunctionDef) and n.name == "tensor")
        self.assertEqual([a.arg for a in tensor.args.args], ["cls", "shape", "element_type"])
        self.assertEqual(ast.unparse(tensor.returns), "Type")
        uses = next(n for n in classes["Value"].body if isinstance(n, ast.FunctionDef) and n.name == "uses")
        self.assertEqual(ast.unparse(uses.returns), "list[tuple[Operation, int]]")

    def test_python_api_stubs(self):
        # nc's Python API (the package, nc.passmanager, nc.rewrite) is described too
        from nc import passmanager, rewrite
        for stub, module in [("__init__.pyi", None), ("passmanager.pyi", passmanager), ("rewrite.pyi", rewrite)]:
            tree = ast.parse(open(os.path.join(STUBS, stub)).read())
            defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
            names = module.__all__ if module else ["run", "import_onnx", "export_onnx", "DiagnosticError",
                                                   "Diagnostic", "emit_error"]
            self.assertLessEqual(set(names), defined, stub)
        tree = ast.parse(open(os.path.join(STUBS, "rewrite.pyi")).read())
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "apply_patterns_greedily")
        self.assertEqual([a.arg for a in fn.args.args],
                         list(inspect.signature(rewrite.apply_patterns_greedily).parameters))
        self.assertEqual(ast.get_docstring(fn), inspect.getdoc(rewrite.apply_patterns_greedily))


if __name__ == "__main__":
    unittest.main()
