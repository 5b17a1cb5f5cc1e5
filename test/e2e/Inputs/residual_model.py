#!/usr/bin/python3
"""residual_model.py OUT: a small CNN with the integer-only ops of a resnet /
mobilenet block, exported by torch.onnx (random weights, fixed seed), plus
calibration inputs and one test image:
  conv+relu -> depthwise conv+relu -> conv, added back to the first conv's
  result with a relu (residual add), a subtraction of two branches, flatten,
  fully connected.
Writes OUT/model.onnx, OUT/calib.npy [4, 3, 8, 8] and OUT/x.npy [1, 3, 8, 8]."""
import sys

import torch

import model_files


class Residual(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.dw = torch.nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.c2 = torch.nn.Conv2d(8, 8, 1)
        self.c3 = torch.nn.Conv2d(8, 8, 3, padding=1, groups=2)
        self.fc = torch.nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        y = torch.relu(self.c1(x))
        z = self.c2(torch.relu(self.dw(y)))
        y = torch.relu(y + z)
        w = self.c3(y) - y
        return self.fc(torch.flatten(w, 1))


def main():
    model_files.write(sys.argv[1], Residual, (3, 8, 8))


if __name__ == "__main__":
    main()
