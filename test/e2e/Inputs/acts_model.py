#!/usr/bin/python3
"""acts_model.py OUT: a small CNN with the ops of inception, dense and
mobile (squeeze-and-excitation) blocks, exported by torch.onnx at opset 13
(random weights, fixed seed), plus calibration inputs and one test image:
  two conv+relu branches of different scales concatenated with the input
  (inception / dense), batch norm + relu after the concat (DenseNet's
  pre-activation), a concat of ten inputs, a conv with hardswish, a squeeze-and-excitation gate
  (a full-plane conv to [1, C, 1, 1], relu, 1x1 conv, hardsigmoid) scaling
  the channels, SiLU, sigmoid, tanh, leaky relu, a standalone relu6, max
  pool, flatten, fully connected, softmax.
Writes OUT/model.onnx, OUT/calib.npy [4, 3, 8, 8] and OUT/x.npy [1, 3, 8, 8]."""
import sys

import torch

import model_files


class Acts(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Conv2d(3, 4, 1)
        self.b = torch.nn.Conv2d(3, 5, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(12)
        self.c = torch.nn.Conv2d(12, 8, 3, padding=1)
        self.squeeze = torch.nn.Conv2d(8, 4, 8)  # [1, 4, 1, 1]
        self.excite = torch.nn.Conv2d(4, 8, 1)
        self.d = torch.nn.Conv2d(8, 8, 1)
        self.e = torch.nn.Conv2d(8, 8, 1)
        self.fc = torch.nn.Linear(8 * 4 * 4, 10)
        self.many = torch.nn.ModuleList(torch.nn.Conv2d(3, 1, 1) for _ in range(9))
        self.f = torch.nn.Conv2d(12, 8, 1)
        with torch.no_grad():  # a batch norm that is not the identity
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.2, 0.2)

    def forward(self, x):
        y = torch.cat([torch.relu(self.a(x)), torch.relu(self.b(x)), x], 1)
        y = torch.relu(self.bn(y))
        y = torch.nn.functional.hardswish(self.c(y))
        y = y + self.f(torch.cat([torch.relu(m(x)) for m in self.many] + [x], 1))
        g = torch.nn.functional.hardsigmoid(self.excite(torch.relu(self.squeeze(y))))
        y = y * g
        y = torch.nn.functional.silu(self.d(y))
        y = torch.sigmoid(y) + torch.tanh(self.e(y))
        y = torch.nn.functional.leaky_relu(y, 0.1)
        y = torch.nn.functional.relu6(torch.nn.functional.max_pool2d(y, 2))
        return torch.softmax(self.fc(torch.flatten(y, 1)), 1)


def main():
    model_files.write(sys.argv[1], Acts, (3, 8, 8))


if __name__ == "__main__":
    main()
