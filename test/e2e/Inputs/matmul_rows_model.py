#!/usr/bin/python3
"""matmul_rows_model.py OUT 3d|2d: a patch embedding followed by two matrix
products over rows, as an MLP-Mixer's token mixing does (random weights,
fixed seed):
  conv 4x4 stride 4 (3 -> 16 channels of 8x8 patches) -> flatten to
  [1, 16, 64] -> MatMul [1, 16, 64] x [64, 32] -> relu -> MatMul x [32, 10]
  (3d: torch writes MatMul without bias), or reshaped to [16, 64] first and
  Gemm with bias (2d). Either product has M = 16 rows, which core-place may
  cut into row bands.
Writes OUT/model.onnx, OUT/calib.npy [4, 3, 32, 32] and OUT/x.npy [1, 3, 32, 32]."""
import sys

import torch

import model_files


class Mixer(torch.nn.Module):
    def __init__(self, two_d):
        super().__init__()
        self.two_d = two_d
        self.patch = torch.nn.Conv2d(3, 16, 4, stride=4)
        self.a = torch.nn.Linear(64, 32, bias=two_d)
        self.b = torch.nn.Linear(32, 10, bias=two_d)

    def forward(self, x):
        p = self.patch(x).flatten(2)  # [1, 16, 64]: 16 rows of 64 patches
        if self.two_d:
            p = p.reshape(16, 64)
        return self.b(torch.relu(self.a(p)))


def main():
    model_files.write(sys.argv[1], lambda: Mixer(sys.argv[2] == "2d"), (3, 32, 32), input_names=["x"],
                      output_names=["y"])


if __name__ == "__main__":
    main()
