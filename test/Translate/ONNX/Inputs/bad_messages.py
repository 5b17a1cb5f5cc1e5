#!/usr/bin/python3
"""Writes models whose errors were once misreported into DIR:
opset_negative.onnx (opset -3), cast_999.onnx (Cast to=999) and
overlong_varint.onnx (an 11-byte varint). Usage: bad_messages.py DIR."""
import os
import sys

import onnx
from onnx import TensorProto, helper

d = sys.argv[1]
os.makedirs(d, exist_ok=True)


def model(nodes, opset):
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


onnx.save(model([helper.make_node("Relu", ["x"], ["y"])], -3), os.path.join(d, "opset_negative.onnx"))
onnx.save(model([helper.make_node("Cast", ["x"], ["y"], to=999)], 17), os.path.join(d, "cast_999.onnx"))
# field 1 (ir_version, a varint) whose value has eleven bytes with the continuation bit
open(os.path.join(d, "overlong_varint.onnx"), "wb").write(bytes([0x08] + [0xFF] * 11 + [0x01]))
