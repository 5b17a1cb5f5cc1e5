#!/usr/bin/python3
"""batch_transpose_model.py OUT: Transposes that move the batch dim of one.
OUT/hwnc: torch.onnx at opset 13 (random weights, seed 0): a conv + relu
  y [1, 8, 4, 4], y.permute(2, 3, 0, 1) ([4, 4, 1, 8]: the batch moves to
  the third place) flattened into a fully connected layer, plus a 1x1 conv
  of y permuted by (3, 1, 0, 2) ([4, 8, 1, 4]) and flattened into a
  second one, the two added; torch's output for x (expected.npy), calib.npy,
  x.npy."""
import os
import sys

import model_files


def hwnc(out):
    import torch

    class Hwnc(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = torch.nn.Conv2d(3, 8, 3, padding=1)
            self.b = torch.nn.Conv2d(8, 8, 1)
            self.fc = torch.nn.Linear(8 * 4 * 4, 10)
            self.fc2 = torch.nn.Linear(8 * 4 * 4, 10)

        def forward(self, x):
            y = torch.relu(self.a(x))
            z = self.b(y).permute(3, 1, 0, 2)
            return self.fc(y.permute(2, 3, 0, 1).reshape(1, -1)) + self.fc2(z.reshape(1, -1))

    model_files.write(out, Hwnc, (3, 4, 4), expected=True)


if __name__ == "__main__":
    hwnc(os.path.join(sys.argv[1], "hwnc"))
