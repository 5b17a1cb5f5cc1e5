#!/usr/bin/python3
"""expand_model.py OUT: Expand of tensors computed at run time.
OUT/expand: torch.onnx at opset 13 (random weights, seed 0): a conv + relu
  y [1, 8, 4, 4]; a squeeze-and-excitation-like gate g (global average,
  1x1 conv, relu: [1, 8, 1, 1]) and a plane map m (a 1x1 conv to one
  channel: [1, 1, 4, 4]), both expanded to y's shape (torch exports
  Tensor.expand as ONNX Expand) and added to y; flatten, a fully connected
  layer; torch's output for x (expected.npy), calib.npy, x.npy.
OUT/lead: as OUT/expand, but the gate viewed as [8, 1, 1] and the map as
  [4, 4] before they are expanded to [1, 8, 4, 4]: Expands that add
  leading dims.
OUT/rank: written with the onnx helper: an Expand of a relu's result
  [1, 1, 4, 4] to shape [2, 1, 1, 4, 4], which adds a dim of 2; numpy's
  broadcast of relu(x) (expected.npy), x.npy, calib.npy."""
import os
import sys

import model_files


def gated(out, lead):
    """OUT/expand (lead False) or OUT/lead (lead True): the gate and the map
    expanded from their own shapes, or viewed as [8, 1, 1] and [4, 4] first."""
    import torch

    class Gated(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.b = torch.nn.Conv2d(8, 8, 1)
            self.c = torch.nn.Conv2d(8, 1, 1)
            self.fc = torch.nn.Linear(8 * 4 * 4, 10)

        def forward(self, x):
            y = torch.relu(self.a(x))
            g = torch.relu(self.b(y.mean((2, 3), keepdim=True)))
            m = self.c(y)
            if lead:
                g, m = g.view(8, 1, 1), m.view(4, 4)
            return self.fc(torch.flatten(y + g.expand(1, 8, 4, 4) + m.expand(1, 8, 4, 4), 1))

    model_files.write(out, Gated, (3, 4, 4), expected=True)


def rank(out):
    import numpy as np
    from onnx import TensorProto as T
    from onnx import helper as h, numpy_helper
    nodes = [h.make_node("Relu", ["x"], ["r"]), h.make_node("Expand", ["r", "shape"], ["y"])]
    inits = [numpy_helper.from_array(np.array([2, 1, 1, 4, 4], dtype=np.int64), "shape")]
    model_files.save_graph(out, "rank", nodes, inits, [1, 1, 4, 4], [2, 1, 1, 4, 4])
    rng = np.random.RandomState(0)
    np.save(os.path.join(out, "calib.npy"), rng.randn(4, 1, 1, 4, 4).astype(np.float32))
    x = rng.randn(1, 1, 4, 4).astype(np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "expected.npy"), np.broadcast_to(np.maximum(x, 0), (2, 1, 1, 4, 4)))


if __name__ == "__main__":
    gated(os.path.join(sys.argv[1], "expand"), lead=False)
    gated(os.path.join(sys.argv[1], "lead"), lead=True)
    rank(os.path.join(sys.argv[1], "rank"))
