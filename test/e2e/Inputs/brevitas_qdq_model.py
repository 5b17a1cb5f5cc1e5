"""A QDQ model in the form Brevitas exports sub-8-bit layers: QuantizeLinear
to int8 followed by Clip to the int4 range before DequantizeLinear, on the
first conv's float weights (per-channel scales, narrow range [-7, 7]) and on
its relu output ([-8, 7]); the second conv is int8. Built with the onnx
helper (Brevitas is not a Debian package), with a numpy reference of the
model's integer semantics (int32 accumulation, requantization by
x_scale * w_scale / y_scale rounded half to even, saturation).

    brevitas_qdq_model.py OUT_DIR    writes model.onnx, x.npy and ref.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

from model_files import conv_int as conv

rng = np.random.default_rng(2)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
f = np.float32
i8 = np.int8

w1s = np.array([0.05, 0.1, 0.02, 0.08], f)
w1q = rng.integers(-7, 8, (4, 1, 3, 3)).astype(i8)
w1f = (w1q * w1s[:, None, None, None]).astype(f)  # float weights Brevitas stores: exact multiples
w2q = rng.integers(-127, 128, (3, 4, 1, 1)).astype(i8)
w2s = np.array([0.01, 0.02, 0.015], f)
xs, ys, os_ = f(0.05), f(0.25), f(0.1)
inits = [nh.from_array(a, n) for n, a in [
    ("xs", np.array(xs)), ("z", np.array(0, i8)), ("w1f", w1f), ("w1s", w1s), ("w1z", np.zeros(4, i8)),
    ("ys", np.array(ys)), ("w2", w2q), ("w2s", w2s), ("w2z", np.zeros(3, i8)), ("os", np.array(os_))]]
nodes = [
    h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="x_q"),
    h.make_node("DequantizeLinear", ["xq", "xs", "z"], ["xd"], name="x_dq"),
    h.make_node("QuantizeLinear", ["w1f", "w1s", "w1z"], ["w1q8"], name="w1_q", axis=0),
    h.make_node("Clip", ["w1q8", "wmin", "wmax"], ["w1q"], name="w1_clip"),
    h.make_node("DequantizeLinear", ["w1q", "w1s", "w1z"], ["w1d"], name="w1_dq", axis=0),
    h.make_node("Conv", ["xd", "w1d"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
    h.make_node("Relu", ["c1"], ["r1"], name="relu1"),
    h.make_node("QuantizeLinear", ["r1", "ys", "z"], ["r1q8"], name="r1_q"),
    h.make_node("Clip", ["r1q8", "amin", "amax"], ["r1q"], name="r1_clip"),
    h.make_node("DequantizeLinear", ["r1q", "ys", "z"], ["r1d"], name="r1_dq"),
    h.make_node("DequantizeLinear", ["w2", "w2s", "w2z"], ["w2d"], name="w2_dq", axis=0),
    h.make_node("Conv", ["r1d", "w2d"], ["c2"], name="conv2"),
    h.make_node("QuantizeLinear", ["c2", "os", "z"], ["c2q"], name="c2_q"),
    h.make_node("DequantizeLinear", ["c2q", "os", "z"], ["y"], name="c2_dq"),
]
inits += [nh.from_array(np.array(v, i8), n) for n, v in [("wmin", -7), ("wmax", 7), ("amin", -8), ("amax", 7)]]
g = h.make_graph(nodes, "brevitas_qdq", [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 6, 6])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 3, 6, 6])], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
onnx.checker.check_model(m, full_check=True)
onnx.save(m, os.path.join(out, "model.onnx"))


xs_in = rng.standard_normal((2, 1, 6, 6)).astype(f)
np.save(os.path.join(out, "x.npy"), xs_in)
refs = []
for x in xs_in:
    q = np.clip(np.rint(x / xs), -127, 127)
    a1 = conv(q, w1q, 1) * (xs * w1s).astype(f)[:, None, None].astype(np.float64) / np.float64(ys)
    r1 = np.clip(np.rint(a1), 0, 7)  # relu, int4
    a2 = conv(r1, w2q, 0) * (ys * w2s).astype(f)[:, None, None].astype(np.float64) / np.float64(os_)
    refs.append((np.clip(np.rint(a2), -127, 127) * os_).astype(f))
np.save(os.path.join(out, "ref.npy"), np.array(refs, f))
