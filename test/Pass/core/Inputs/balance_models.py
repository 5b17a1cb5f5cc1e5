"""balance_models.py KIND OUT: small float models for core-place's
balancing (core-place-ties.test), built node by node with the onnx helper
(model_files.save_graph; no torch to import), random weights under seed 0,
with OUT/calib.npy (4 images):
  tie   two convs of equal work in a row (8 -> 8 channels, 3x3, 16x16):
        splitting either one alone leaves the other as slow;
  recv  a 1x1 conv widening 8 channels to 64, then a 2x2 max pool: the pool
        does little work but receives the whole 64-channel tensor."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "e2e", "Inputs"))
import model_files  # noqa: E402


def main(kind, out):
    from onnx import helper as h
    from onnx import numpy_helper as nh
    rng = np.random.RandomState(0)

    def conv(name, x, y, cin, cout, k):
        w = nh.from_array((rng.randn(cout, cin, k, k) * 0.2).astype(np.float32), name + "_w")
        b = nh.from_array((rng.randn(cout) * 0.1).astype(np.float32), name + "_b")
        node = h.make_node("Conv", [x, name + "_w", name + "_b"], [y], kernel_shape=[k, k], pads=[k // 2] * 4)
        return node, [w, b]

    if kind == "tie":
        c1, i1 = conv("c1", "x", "a", 8, 8, 3)
        c2, i2 = conv("c2", "r", "y", 8, 8, 3)
        nodes, inits, y_shape = [c1, h.make_node("Relu", ["a"], ["r"]), c2], i1 + i2, [1, 8, 16, 16]
    else:
        c1, i1 = conv("c1", "x", "a", 8, 64, 1)
        pool = h.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2])
        nodes, inits, y_shape = [c1, h.make_node("Relu", ["a"], ["r"]), pool], i1, [1, 64, 8, 8]
    model_files.save_graph(out, kind, nodes, inits, [1, 8, 16, 16], y_shape)
    np.save(os.path.join(out, "calib.npy"), rng.randn(4, 8, 16, 16).astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
