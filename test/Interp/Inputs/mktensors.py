#!/usr/bin/python3
"""Writes the small tensors nc-run's lit tests read: mktensors.py DIR."""
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
np.save(os.path.join(d, "x13.npy"), np.array([[1.0, 2.0, 3.0]], np.float32))
np.save(os.path.join(d, "x33.npy"), np.array([[1, 2, 3], [-1, -2, -3], [0, 0.5, 10]], np.float32))
np.save(os.path.join(d, "x12.npy"), np.array([[1.0, 2.0]], np.float32))
np.save(os.path.join(d, "x13_i32.npy"), np.array([[1, 2, 3]], np.int32))
np.save(os.path.join(d, "x24.npy"), np.array([[0.25, 0.75, -0.25, 100.0], [1.0, -1.0, 2.25, -70.0]], np.float32))
np.save(os.path.join(d, "x3.npy"), np.array([1.0, -2.0, 0.5], np.float32))
np.save(os.path.join(d, "x3_i32.npy"), np.array([1, -2, 7], np.int32))
np.save(os.path.join(d, "x54.npy"), np.arange(20, dtype=np.float32).reshape(5, 4))
np.save(os.path.join(d, "x64.npy"), np.arange(24, dtype=np.float32).reshape(6, 4))
with open(os.path.join(d, "x13.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.array([[1.0, 2.0, 3.0]], np.float32), "x").SerializeToString())
with open(os.path.join(d, "notes.txt"), "w") as f:
    f.write("not a tensor\n")
with open(os.path.join(d, "bad.npy"), "wb") as f:
    f.write(b"\x93NUMPY garbage")

# An ONNX model whose input has a symbolic dim: its Reshape fails at run time
# for some sizes, and the error names the node.
shape = onnx.helper.make_tensor("shape", onnx.TensorProto.INT64, [2], [3, -1])
graph = onnx.helper.make_graph(
    [onnx.helper.make_node("Reshape", ["x", "shape"], ["y"], name="the_reshape")], "g",
    [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 4])],
    [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3, None])], [shape])
onnx.save(onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 13)]),
          os.path.join(d, "dyn_reshape.onnx"))
with open(os.path.join(d, "bad.onnx"), "wb") as f:
    f.write(b"\x08\x07\x12\xff\xff garbage, not a ModelProto")
