#!/usr/bin/python3
"""clip_model.py OUT: Clips (hardtanh, ReLU6-like bounds) after convs and a
fully connected layer, which graph-quantize fuses into the requantize as
clamp bounds. torch.onnx at opset 13 (random weights, seed 0): a conv
clamped to [-0.4, 0.1] (its upper bound lies inside the calibrated range:
the range is set by the lower one), a grouped conv clamped to [-0.05, 0.2]
(lower bound inside), a 2x2 max pool, flatten, a fully connected layer
clamped to [0, 0.1] (relu and saturation), a second one; torch's output for
x (expected.npy), calib.npy, x.npy."""
import os
import sys

import model_files


def clip(out):
    import torch

    class Clip(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.b = torch.nn.Conv2d(8, 8, 3, padding=1, groups=2)
            self.fc = torch.nn.Linear(8 * 4 * 4, 16)
            self.fc2 = torch.nn.Linear(16, 10)

        def forward(self, x):
            y = torch.clamp(self.a(x), -0.4, 0.1)
            y = torch.nn.functional.max_pool2d(torch.clamp(self.b(y), -0.05, 0.2), 2)
            return self.fc2(torch.clamp(self.fc(torch.flatten(y, 1)), 0, 0.1))

    model_files.write(out, Clip, (3, 8, 8), expected=True)


if __name__ == "__main__":
    clip(os.path.join(sys.argv[1], "clip"))
