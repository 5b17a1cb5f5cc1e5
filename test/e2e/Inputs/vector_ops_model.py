#!/usr/bin/python3
"""vector_ops_model.py OUT: small models with the data-movement layers of
issue 9 beyond images moved as [1, C, H, W]: concat and pad of [1, N]
vectors (a classifier head's features), and general transposes; written
with model_files.write (torch.onnx, opset 13, random weights under seed 0).
OUT/concat: a conv + relu averaged over the plane (x.mean((2, 3)), a [1, 6]
  vector from a global pool, no requantization of its own), a fully
  connected layer (a [1, 5] vector) and a sigmoid of another (a [1, 3]
  table output), concatenated along dim 1 (three scales: a concat_integer
  that rescales) into a last fully connected layer; and a second concat of
  two relu'd fully connected layers (one shared scale: a concat that only
  moves data); torch's output for x (expected.npy).
OUT/pad: a fully connected layer's [1, 6] output padded along its elements:
  with a constant 0.5 (2 before, 1 after), by reflection (3, 2) and with
  the edge elements (1, 4), then another fully connected layer; torch's
  output for x (expected.npy).
OUT/transpose: a conv + relu y [1, 8, 4, 6]; y.transpose(2, 3) [1, 8, 6, 4]
  into a second conv + relu; its result permuted to NHWC (0, 2, 3, 1)
  [1, 6, 4, 8], flattened into a fully connected layer; torch's output for
  x (expected.npy).
Each directory gets model.onnx, calib.npy (4 images) and x.npy (1 image)."""
import os
import sys

import model_files


def concat(out):
    import torch

    class Concat(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 6, 3, padding=1)
            self.a = torch.nn.Linear(3 * 4 * 4, 5)
            self.b = torch.nn.Linear(3 * 4 * 4, 3)
            self.c = torch.nn.Linear(14, 8)
            self.d = torch.nn.Linear(14, 8)
            self.e = torch.nn.Linear(16, 4)

        def forward(self, x):
            f = torch.flatten(x, 1)
            v = torch.cat([torch.relu(self.conv(x)).mean((2, 3)), self.a(f), torch.sigmoid(self.b(f))], 1)
            return self.e(torch.cat([torch.relu(self.c(v)), torch.relu(self.d(v))], 1))

    model_files.write(out, Concat, (3, 4, 4), expected=True)


def pad(out):
    import torch

    class Pad(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Linear(3 * 4 * 4, 6)
            self.b = torch.nn.Linear(19, 4)

        def forward(self, x):
            v = torch.nn.functional.pad(torch.relu(self.a(torch.flatten(x, 1))), (2, 1), value=0.5)
            v = torch.nn.functional.pad(v, (3, 2), mode="reflect")
            v = torch.nn.functional.pad(v, (1, 4), mode="replicate")
            return self.b(v)

    model_files.write(out, Pad, (3, 4, 4), expected=True)


def transpose(out):
    import torch

    class Transpose(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.b = torch.nn.Conv2d(8, 8, 3, padding=1)
            self.fc = torch.nn.Linear(8 * 6 * 4, 10)

        def forward(self, x):
            y = torch.relu(self.a(x))
            y = torch.relu(self.b(y.transpose(2, 3)))
            return self.fc(torch.flatten(y.permute(0, 2, 3, 1), 1))

    model_files.write(out, Transpose, (3, 4, 6), expected=True)


if __name__ == "__main__":
    concat(os.path.join(sys.argv[1], "concat"))
    pad(os.path.join(sys.argv[1], "pad"))
    transpose(os.path.join(sys.argv[1], "transpose"))
