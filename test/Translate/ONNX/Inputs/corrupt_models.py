#!/usr/bin/python3
"""Writes broken and hostile ONNX files for the importer's error tests.

Usage: corrupt_models.py OUT_DIR

Each file is damaged in one way the importer must refuse with a clear
message (never a crash or an allocation the file does not justify):
truncated.onnx, wire_type.onnx, past_end.onnx, absurd_dims.onnx,
negative_dim.onnx, huge_rank.onnx, empty.onnx, text.onnx, no_shape.onnx,
string_input.onnx.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper, numpy_helper


def model(nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="nc-test")
    m.ir_version = 7
    return m


def relu_model():
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                 [helper.make_tensor_value_info("x", T.FLOAT, [4])], [helper.make_tensor_value_info("y", T.FLOAT, [4])])


def add_model(init):
    return model([helper.make_node("Add", ["x", init.name], ["y"], name="add")],
                 [helper.make_tensor_value_info("x", T.FLOAT, [1])], [helper.make_tensor_value_info("y", T.FLOAT, [1])],
                 [init])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)

    def write(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)

    good = relu_model().SerializeToString()
    write("truncated.onnx", good[: len(good) * 2 // 3])
    write("wire_type.onnx", good + bytes([0x0F]))                 # field 1, wire type 7
    write("past_end.onnx", bytes([0x3A, 0xFF, 0x01, 0x0A, 0x00]))  # graph (field 7) of 255 bytes, 2 present

    big = onnx.TensorProto(name="w", data_type=T.FLOAT, dims=[1 << 40, 1 << 40], raw_data=b"\0\0\0\0")
    write("absurd_dims.onnx", add_model(big).SerializeToString())

    m = relu_model()
    m.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -5
    write("negative_dim.onnx", m.SerializeToString())

    deep = numpy_helper.from_array(np.ones([1] * 12, np.float32), "w")
    write("huge_rank.onnx", add_model(deep).SerializeToString())

    write("empty.onnx", b"")
    write("text.onnx", b"this is not an ONNX model\n")

    m = relu_model()
    m.graph.input[0].type.tensor_type.ClearField("shape")
    write("no_shape.onnx", m.SerializeToString())

    m = model([helper.make_node("Identity", ["s"], ["y"], name="id")],
              [helper.make_tensor_value_info("s", T.STRING, [2])], [helper.make_tensor_value_info("y", T.STRING, [2])])
    write("string_input.onnx", m.SerializeToString())


if __name__ == "__main__":
    main()
