#!/usr/bin/python3
"""more_ops_model.py OUT: two small models with the CNN ops of issue 9 the
other generators leave out, plus calibration inputs and one test image each.
OUT/gelu: torch.onnx at opset 13 (random weights, fixed seed): a conv with
  GELU (exported as x / sqrt(2) -> Erf -> + 1 -> * x -> * 0.5), a grouped
  conv clamped to [-1, 2] (Clip, not ReLU6), a 2x2 max pool, flatten, a
  fully connected layer, a matmul by a constant matrix; torch's output for x
  (expected.npy).
OUT/maxpool: written node by node with the onnx helper (torch never writes
  auto_pad): a conv, then max pools with auto_pad SAME_UPPER (2x2, stride 2),
  SAME_LOWER, explicit asymmetric pads and dilations 2, a Clip, a Transpose
  to NHWC and back, Unsqueeze + Squeeze, Flatten; and numpy's float result
  for x (expected.npy; ONNX's pooling rules: SAME_UPPER puts the odd pad
  at the end, SAME_LOWER at the start).
OUT/mean: torch.onnx at opset 13: a conv + relu, then x.mean((2, 3)) and
  torch.amax(x, (2, 3)) (ReduceMean and ReduceMax over the plane, which
  canonicalize turns into global pools), each into a fully connected
  layer, added; torch's output for x (expected.npy).
Each directory gets model.onnx, calib.npy (4 images) and x.npy (1 image)."""
import os
import sys

import numpy as np

import model_files


def gelu(out):
    import torch

    class Gelu(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.b = torch.nn.Conv2d(8, 8, 3, padding=1, groups=4)
            self.fc = torch.nn.Linear(8 * 4 * 4, 10)
            self.w = torch.nn.Parameter(torch.randn(10, 6))

        def forward(self, x):
            y = torch.nn.functional.gelu(self.a(x))
            y = torch.clamp(self.b(y), -1.0, 2.0)
            y = torch.nn.functional.max_pool2d(y, 2)
            return self.fc(torch.flatten(y, 1)) @ self.w

    model_files.write(out, Gelu, (3, 8, 8), expected=True)


def mean(out):
    import torch

    class Mean(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.fc = torch.nn.Linear(8, 10)
            self.fc2 = torch.nn.Linear(8, 10)

        def forward(self, x):
            y = torch.relu(self.a(x))
            return self.fc(y.mean((2, 3))) + self.fc2(torch.amax(y, (2, 3)))

    model_files.write(out, Mean, (3, 8, 8), expected=True)


def same_pads(n, k, s, d, upper):
    """ONNX's auto_pad SAME_*: the output is ceil(n / s); the odd pad goes at the end (upper) or the start."""
    total = max((-(-n // s) - 1) * s + (k - 1) * d + 1 - n, 0)
    return (total // 2, total - total // 2) if upper else (total - total // 2, total // 2)


def max_pool(x, k, s, d, pads):
    """x [C, H, W] padded with -inf by pads ((top, bottom), (left, right)), k x k windows, stride s, dilation d."""
    x = np.pad(x, ((0, 0),) + pads, constant_values=-np.inf)
    oh, ow = (x.shape[1] - (k - 1) * d - 1) // s + 1, (x.shape[2] - (k - 1) * d - 1) // s + 1
    return np.stack([np.stack([x[:, i * s:i * s + (k - 1) * d + 1:d, j * s:j * s + (k - 1) * d + 1:d].max((1, 2))
                               for j in range(ow)], -1) for i in range(oh)], -2)


def maxpool_reference(x, w):
    c = np.zeros((w.shape[0], 9, 9), np.float64)
    xp = np.pad(x[0].astype(np.float64), ((0, 0), (1, 1), (1, 1)))
    for i in range(9):
        for j in range(9):
            c[:, i, j] = np.tensordot(w.astype(np.float64), xp[:, i:i + 3, j:j + 3], 3)
    p = same_pads(9, 2, 2, 1, True)
    y = max_pool(c, 2, 2, 1, (p, p))
    p = same_pads(5, 2, 1, 1, False)
    y = max_pool(y, 2, 1, 1, (p, p))
    y = max_pool(y, 2, 1, 1, ((0, 1), (1, 0)))
    y = max_pool(y, 2, 1, 2, ((1, 0), (1, 0)))
    return np.clip(y, -0.5, 1.0).reshape(1, -1).astype(np.float32)


def maxpool(out):
    from onnx import helper as h
    from onnx import numpy_helper as nh
    rng = np.random.RandomState(0)
    nodes = [
        h.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        h.make_node("MaxPool", ["c"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], auto_pad="SAME_UPPER"),
        h.make_node("MaxPool", ["p1"], ["p2"], kernel_shape=[2, 2], auto_pad="SAME_LOWER"),
        h.make_node("MaxPool", ["p2"], ["p3"], kernel_shape=[2, 2], pads=[0, 1, 1, 0]),
        h.make_node("MaxPool", ["p3"], ["p4"], kernel_shape=[2, 2], dilations=[2, 2], pads=[1, 1, 0, 0]),
        h.make_node("Clip", ["p4", "lo", "hi"], ["cl"]),
        h.make_node("Transpose", ["cl"], ["t1"], perm=[0, 2, 3, 1]),
        h.make_node("Transpose", ["t1"], ["t2"], perm=[0, 3, 1, 2]),
        h.make_node("Unsqueeze", ["t2", "axis0"], ["u"]),
        h.make_node("Squeeze", ["u", "axis0"], ["s"]),
        h.make_node("Flatten", ["s"], ["y"]),
    ]
    w = (rng.randn(8, 3, 3, 3) * 0.1).astype(np.float32)
    inits = [nh.from_array(w, "w"),
             nh.from_array(np.array(-0.5, np.float32), "lo"), nh.from_array(np.array(1.0, np.float32), "hi"),
             nh.from_array(np.array([0], np.int64), "axis0")]
    model_files.save_graph(out, "maxpool", nodes, inits, [1, 3, 9, 9], [1, 128])
    np.save(os.path.join(out, "calib.npy"), rng.randn(4, 3, 9, 9).astype(np.float32))
    x = rng.randn(1, 3, 9, 9).astype(np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "expected.npy"), maxpool_reference(x, w))


def main():
    gelu(os.path.join(sys.argv[1], "gelu"))
    maxpool(os.path.join(sys.argv[1], "maxpool"))
    mean(os.path.join(sys.argv[1], "mean"))


if __name__ == "__main__":
    main()
