#!/usr/bin/python3
"""pad_modes.py OUT: ONNX Pad models (opset 19) in modes reflect, edge and
wrap with pads as wide as the dim and wider (np.pad repeats reflect and wrap
periodically), on float32 and int8 inputs, for test/Interp/pad-modes.test.
Runs nc-run on each and compares its output with numpy's np.pad, which is
how ONNX's reference implementation defines Pad; for wrap, with the torus
the ONNX spec describes (np.take(mode="wrap") per dim), because numpy before
1.25 wraps asymmetric pads wider than the dim wrongly (np.pad(range(4),
(6, 1), "wrap") starts 3 0 0 1); where they agree both are checked."""
import os
import subprocess
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
# name: (mode, input shape, pads (begin per dim, then end per dim))
CASES = {
    "reflect_dim": ("reflect", (1, 2, 4, 5), (0, 0, 4, 5, 0, 0, 3, 5)),      # as wide as the dim
    "reflect_wide": ("reflect", (1, 1, 3, 4), (0, 0, 7, 2, 0, 0, 5, 9)),     # several reflections
    "reflect_one": ("reflect", (1, 2, 1, 3), (0, 0, 2, 0, 0, 0, 3, 1)),      # a dim of 1
    "edge_wide": ("edge", (1, 1, 2, 3), (0, 0, 5, 4, 0, 0, 3, 6)),
    "wrap": ("wrap", (1, 2, 4, 5), (0, 0, 1, 2, 0, 0, 3, 1)),
    "wrap_wide": ("wrap", (1, 1, 3, 2), (0, 0, 7, 5, 0, 0, 4, 3)),
    "wrap_rank3": ("wrap", (2, 3, 4), (1, 0, 6, 0, 2, 1)),
}
rng = np.random.RandomState(0)
for name, (mode, shape, pads) in CASES.items():
    for dt, onnx_dt in ((np.float32, TensorProto.FLOAT), (np.int8, TensorProto.INT8)):
        rank = len(shape)
        x = (rng.randn(*shape) if dt == np.float32 else rng.randint(-128, 128, size=shape)).astype(dt)
        widths = [(pads[d], pads[rank + d]) for d in range(rank)]
        ref = np.pad(x, widths, mode=mode)
        if mode == "wrap":
            torus = x
            for d, (b, e) in enumerate(widths):
                torus = np.take(torus, np.arange(-b, shape[d] + e), axis=d, mode="wrap")
            assert all(b <= n and e <= n for (b, e), n in zip(widths, shape)) <= np.array_equal(torus, ref)
            ref = torus
        node = helper.make_node("Pad", ["x", "pads"], ["y"], mode=mode)
        g = helper.make_graph([node], name, [helper.make_tensor_value_info("x", onnx_dt, shape)],
                              [helper.make_tensor_value_info("y", onnx_dt, ref.shape)],
                              [numpy_helper.from_array(np.array(pads, np.int64), "pads")])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
        m.ir_version = 9
        p = os.path.join(OUT, "%s_%s" % (name, np.dtype(dt).name))
        save(m, p + ".onnx")
        np.save(p + "_x.npy", x)
        subprocess.run(["nc-run", p + ".onnx", "--input", p + "_x.npy", "--output", p + "_y.npy"], check=True)
        y = np.load(p + "_y.npy")
        assert y.dtype == ref.dtype and np.array_equal(y, ref), (p, y, ref)
        print("%s %s: as %s, %s" % (name, np.dtype(dt).name, "the torus" if mode == "wrap" else "np.pad",
                                    list(ref.shape)))
