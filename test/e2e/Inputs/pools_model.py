#!/usr/bin/python3
"""pools_model.py OUT: a small CNN with the pooling and padding ops of real
CNNs, exported by torch.onnx with a dynamic batch (random weights, fixed
seed), plus calibration inputs and one test image:
  zero pad (nn.ZeroPad2d) -> conv+relu -> ceil_mode max pool with padding ->
  3x3 average pool with padding not counted -> zero pad -> conv+relu ->
  average pool counting its padding (torch writes Pad + AveragePool) -> 1x1
  average pool (an identity
  pool, as torch exports adaptive pools to the map's own size) -> global
  average pool -> flatten -> linear.
Writes OUT/model.onnx, OUT/calib.npy [4, 3, 12, 12], OUT/x.npy [1, 3, 12, 12]
and OUT/expected.npy (torch's float output on x)."""
import sys

import torch

import model_files


class Pools(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pad1 = torch.nn.ZeroPad2d((1, 2, 1, 0))
        self.c1 = torch.nn.Conv2d(3, 8, 3)
        self.mp = torch.nn.MaxPool2d(3, 2, padding=1, ceil_mode=True)
        self.pad2 = torch.nn.ZeroPad2d(1)
        self.ap1 = torch.nn.AvgPool2d(3, 1, padding=1, count_include_pad=False)
        self.c2 = torch.nn.Conv2d(8, 8, 3)
        self.ap2 = torch.nn.AvgPool2d(2, 2, padding=1, count_include_pad=True)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        y = self.ap1(self.mp(torch.relu(self.c1(self.pad1(x)))))
        y = torch.relu(self.c2(self.pad2(y)))
        y = self.ap2(y)
        y = torch.nn.functional.avg_pool2d(y, 1)  # 1x1 windows, stride 1: an identity pool
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1)
        return self.fc(torch.flatten(y, 1))


def main():
    model_files.write(sys.argv[1], Pools, (3, 12, 12), expected=True, input_names=["image"], output_names=["logits"],
                      dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}})


if __name__ == "__main__":
    main()
