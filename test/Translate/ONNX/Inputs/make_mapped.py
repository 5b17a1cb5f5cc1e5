"""make_mapped.py DIR: one graph, y = sum((x + w) * c + c) + b, saved three ways for
mapped-initializers.test: raw.onnx (every initializer in raw_data, the file
mapped and its bytes read in place; w is 9 MB, more than the importer's 8 MB
copy piece), typed.onnx (every initializer in float_data, which protobuf-c
unpacks), external.onnx (external data beside the model). All three must
import to the same IR."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = 9 * (1 << 20) // 4 + 3  # not a whole number of pages
rng = np.random.default_rng(7)
vals = {"w": rng.standard_normal((1, n)).astype(np.float32),
        "c": rng.standard_normal((1, n)).astype(np.float32),
        "b": rng.standard_normal((1, 5)).astype(np.float32)}


def model(typed):
    inits = []
    for name, v in vals.items():
        if typed:
            inits.append(helper.make_tensor(name, TensorProto.FLOAT, v.shape, v.ravel().tolist()))
        else:
            inits.append(numpy_helper.from_array(v, name))
    nodes = [helper.make_node("Add", ["x", "w"], ["s"], name="add"),
             helper.make_node("Mul", ["s", "c"], ["m"], name="mul"),
             helper.make_node("Add", ["m", "c"], ["m2"], name="addc"),
             helper.make_node("ReduceSum", ["m2"], ["r"], name="sum", keepdims=1),
             helper.make_node("Add", ["r", "b"], ["y"], name="addb")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, n])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


onnx.save_model(model(False), os.path.join(out, "raw.onnx"))
onnx.save_model(model(True), os.path.join(out, "typed.onnx"))
onnx.save_model(model(False), os.path.join(out, "external.onnx"), save_as_external_data=True,
                all_tensors_to_one_file=True, location="external.bin", size_threshold=0)
