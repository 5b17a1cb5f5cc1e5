#!/usr/bin/python3
"""Writes large_fill.onnx into DIR: x + ConstantOfShape([4096, 4096, 64], 1.5),
whose fill has 2^30 elements (4 GiB as float32). Usage: large_fill.py DIR."""
import os
import sys

import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
os.makedirs(d, exist_ok=True)
shape = helper.make_tensor("shape", TensorProto.INT64, [3], [4096, 4096, 64])
value = helper.make_tensor("value", TensorProto.FLOAT, [1], [1.5])
nodes = [helper.make_node("ConstantOfShape", ["shape"], ["fill"], value=value),
         helper.make_node("Add", ["x", "fill"], ["y"])]
g = helper.make_graph(nodes, "large_fill", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4096, 4096, 64])], [shape])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
onnx.save(m, os.path.join(d, "large_fill.onnx"))
