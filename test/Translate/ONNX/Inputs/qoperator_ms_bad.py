#!/usr/bin/python3
"""qoperator_ms_bad.py OUT: com.microsoft QOperator nodes nc must refuse
with a message: a QLinearGlobalAveragePool with channels_last = 1, a
QLinearConcat whose inputs are not triples, a QLinearAdd missing C_scale,
a QLinearAveragePool with channels_last = 1, a QLinearSoftmax without its
opset attribute or with opset 1 semantics on an axis with dims after it, a
QGemm without B."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
ms = "com.microsoft"
inits = [nh.from_array(np.array(0.1, np.float32), "s"), nh.from_array(np.array(0, np.int8), "z")]


def save(name, node, out_shape):
    q = h.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="x_q")
    dq = h.make_node("DequantizeLinear", ["yq", "s", "z"], ["y"], name="y_dq")
    g = h.make_graph([q, node, dq], name, [h.make_tensor_value_info("x", T.FLOAT, [1, 2, 3, 3])],
                     [h.make_tensor_value_info("y", T.FLOAT, out_shape)], inits)
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid(ms, 1)]),
              os.path.join(out, name + ".onnx"))


save("gap_channels_last", h.make_node("QLinearGlobalAveragePool", ["xq", "s", "z", "s", "z"], ["yq"], name="gap",
                                      domain=ms, channels_last=1), [1, 2, 1, 1])
save("concat_pairs", h.make_node("QLinearConcat", ["s", "z", "xq", "s"], ["yq"], name="cat", domain=ms, axis=1),
     [1, 2, 3, 3])
save("add_no_cscale", h.make_node("QLinearAdd", ["xq", "s", "z", "xq", "s", "z"], ["yq"], name="add", domain=ms),
     [1, 2, 3, 3])
save("avgpool_channels_last", h.make_node("QLinearAveragePool", ["xq", "s", "z", "s", "z"], ["yq"], name="ap",
                                          domain=ms, kernel_shape=[3, 3], channels_last=1), [1, 2, 1, 1])
save("softmax_no_opset", h.make_node("QLinearSoftmax", ["xq", "s", "z", "s", "z"], ["yq"], name="sm", domain=ms),
     [1, 2, 3, 3])
save("softmax_opset1_2d_view", h.make_node("QLinearSoftmax", ["xq", "s", "z", "s", "z"], ["yq"], name="sm",
                                           domain=ms, axis=1, opset=1), [1, 2, 3, 3])
save("qgemm_no_b", h.make_node("QGemm", ["xq", "s", "z"], ["yq"], name="fc", domain=ms), [1, 2, 3, 3])
