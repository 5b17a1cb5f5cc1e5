#!/usr/bin/python3
"""dense_model.py OUT: a small DenseNet (torchvision's densenet layout, random
weights and batch-norm statistics, fixed seed), exported by torch.onnx:
  conv+bn+relu stem -> max pool -> a dense block of three layers (each
  concat -> bn -> relu -> 1x1 conv -> bn -> relu -> 3x3 conv of 4 channels,
  reading the concat of the pool's output and every earlier layer's) ->
  transition (bn, relu, 1x1 conv, average pool) -> flatten, fully connected.
At 4 bits the stem stays at 8, so every concat of the block rescales the
pool's 8-bit output to its 4-bit scale (graph-quantize makes that rescale one
layer of its own). Writes OUT/model.onnx, OUT/calib.npy [4, 3, 8, 8] and
OUT/x.npy [1, 3, 8, 8]."""
import sys

import torch

import model_files


def bn(c, gain=1.0):
    b = torch.nn.BatchNorm2d(c)
    with torch.no_grad():
        b.weight.uniform_(0.5 * gain, 1.5 * gain), b.bias.uniform_(-0.5 * gain, 0.5 * gain)
        b.running_mean.uniform_(-0.5, 0.5), b.running_var.uniform_(0.5, 2.0)
    return b


class DenseLayer(torch.nn.Module):
    def __init__(self, cin, growth):
        super().__init__()
        self.n1, self.c1 = bn(cin), torch.nn.Conv2d(cin, 2 * growth, 1, bias=False)
        self.n2, self.c2 = bn(2 * growth), torch.nn.Conv2d(2 * growth, growth, 3, padding=1, bias=False)

    def forward(self, feats):
        x = torch.cat(feats, 1)
        x = self.c1(torch.relu(self.n1(x)))
        return self.c2(torch.relu(self.n2(x)))


class DenseNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # a stem of smaller values than the block's layers: the block's concats take a coarser scale than
        # the first one (the pool's output alone), so they rescale the pool's output alike, to their own scale
        self.stem, self.n0 = torch.nn.Conv2d(3, 6, 3, padding=1, bias=False), bn(6, 0.02)
        self.layers = torch.nn.ModuleList([DenseLayer(6 + 4 * i, 4) for i in range(3)])
        self.nt, self.ct = bn(18), torch.nn.Conv2d(18, 8, 1, bias=False)
        self.fc = torch.nn.Linear(8 * 2 * 2, 10)

    def forward(self, x):
        feats = [torch.nn.functional.max_pool2d(torch.relu(self.n0(self.stem(x))), 2)]
        for layer in self.layers:
            feats.append(layer(feats))
        x = self.ct(torch.relu(self.nt(torch.cat(feats, 1))))
        return self.fc(torch.flatten(torch.nn.functional.avg_pool2d(x, 2), 1))


def main():
    model_files.write(sys.argv[1], DenseNet, (3, 8, 8))


if __name__ == "__main__":
    main()
