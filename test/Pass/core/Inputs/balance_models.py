"""balance_models.py KIND OUT: small float models for core-place's
balancing (core-place-ties.test), built node by node with the onnx helper
(model_files.save_graph; no torch to import), random weights under seed 0,
with OUT/calib.npy (4 images):
  tie   two convs of equal work in a row (8 -> 8 channels, 3x3, 16x16):
        splitting either one alone leaves the other as slow;
  recv  a 1x1 conv widening 8 channels to 64, then a 2x2 max pool: the pool
        does little work but receives the whole 64-channel tensor;
  guest a 1x1 conv narrowing 8 channels to 2 on a 32x32 input, a 3x3 conv
        widening them to 8, a 4x4 max pool and a fully connected layer
        (512 -> 64) whose weights fill cores: the first conv reads the
        whole network input, 8 KB, from the host
        (core-place-guests-host.test)."""
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
    elif kind == "guest":
        c1, i1 = conv("c1", "x", "a", 8, 2, 1)
        c2, i2 = conv("c2", "a", "b", 2, 8, 3)
        w = nh.from_array((rng.randn(64, 512) * 0.05).astype(np.float32), "fc_w")
        b = nh.from_array((rng.randn(64) * 0.1).astype(np.float32), "fc_b")
        nodes = [c1, c2, h.make_node("MaxPool", ["b"], ["p"], kernel_shape=[4, 4], strides=[4, 4]),
                 h.make_node("Flatten", ["p"], ["f"]), h.make_node("Gemm", ["f", "fc_w", "fc_b"], ["y"], transB=1)]
        inits, y_shape = i1 + i2 + [w, b], [1, 64]
    else:
        c1, i1 = conv("c1", "x", "a", 8, 64, 1)
        pool = h.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2, 2], strides=[2, 2])
        nodes, inits, y_shape = [c1, h.make_node("Relu", ["a"], ["r"]), pool], i1, [1, 64, 8, 8]
    side = 32 if kind == "guest" else 16
    model_files.save_graph(out, kind, nodes, inits, [1, 8, side, side], y_shape)
    np.save(os.path.join(out, "calib.npy"), rng.randn(4, 8, side, side).astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
