#!/usr/bin/python3
"""fire_model.py OUT: a small CNN of squeezenet fire modules and an
inception-like block, exported by torch.onnx (random weights, fixed seed),
plus calibration inputs and one test image:
  conv+relu -> fire (1x1 squeeze, 1x1 and 3x3 expands joined by a concat)
  -> max pool -> fire whose concat feeds two convs (two readers) -> a
  concat of those two convs and a sigmoid (a table, whose scale stays its
  own, so that concat rescales it) -> flatten, fully connected.
Writes OUT/model.onnx, OUT/calib.npy [4, 3, 8, 8] and OUT/x.npy [1, 3, 8, 8]."""
import sys

import torch

import model_files


class Fire(torch.nn.Module):
    def __init__(self, cin, squeeze, expand):
        super().__init__()
        self.s = torch.nn.Conv2d(cin, squeeze, 1)
        self.e1 = torch.nn.Conv2d(squeeze, expand, 1)
        self.e3 = torch.nn.Conv2d(squeeze, expand, 3, padding=1)

    def forward(self, x):
        x = torch.relu(self.s(x))
        return torch.cat([torch.relu(self.e1(x)), torch.relu(self.e3(x))], 1)


class FireNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.f1 = Fire(8, 4, 6)
        self.f2 = Fire(12, 4, 5)
        self.a = torch.nn.Conv2d(10, 4, 1)
        self.b = torch.nn.Conv2d(10, 3, 3, padding=1)
        self.c = torch.nn.Conv2d(10, 2, 1)
        self.fc = torch.nn.Linear(9 * 4 * 4, 10)

    def forward(self, x):
        x = self.f1(torch.relu(self.c1(x)))
        x = self.f2(torch.nn.functional.max_pool2d(x, 2))
        y = torch.cat([self.a(x), self.b(x), 0.05 * torch.sigmoid(self.c(x))], 1)
        return self.fc(torch.flatten(y, 1))


def main():
    model_files.write(sys.argv[1], FireNet, (3, 8, 8))


if __name__ == "__main__":
    main()
