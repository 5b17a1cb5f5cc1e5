#!/usr/bin/python3
"""Exports a small PyTorch network to ONNX the way users do, for import tests.

Usage: torch_models.py OUT_DIR

Writes net<opset>.onnx and blocks<opset>.onnx (batch 2), and
net<opset>_dyn.onnx and blocks<opset>_dyn.onnx (dynamic batch axis), for
opsets 9, 13 and 17. Net holds what torch.onnx puts around shapes: x.view(x.size(0), -1) and y.reshape(y.shape[0], 2, -1)
become Shape/Gather/Unsqueeze/Concat/Reshape chains, BatchNorm is folded
into the convolution, Dropout is exported in eval mode.
"""
import os
import sys
import warnings

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 4 * 4, 10)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        x = nn.functional.max_pool2d(x, 2)
        x = x.view(x.size(0), -1)
        x = self.drop(x)
        y = self.fc(x)
        y = y.reshape(y.shape[0], 2, -1).mean(dim=1)
        return torch.softmax(y, dim=-1)


class Blocks(nn.Module):
    """More of what torch.onnx emits: relu6 (Clip), PReLU, chunk (Split, or
    Shape/Slice chains from opset 11), F.pad, ceil-mode pooling, a
    transposed convolution, mean over dims, view/permute/reshape on the batch."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.ct = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.ln = nn.Linear(4, 6)
        self.pr = nn.PReLU(8)

    def forward(self, x):
        F = nn.functional
        y = F.relu6(self.c1(x))
        y = self.pr(self.dw(y))
        a, b = y.chunk(2, dim=1)
        y = torch.cat([a * torch.sigmoid(b), F.pad(a, (1, 1, 0, 0))[:, :, :, 1:-1]], dim=1)
        y = F.avg_pool2d(y, 2, ceil_mode=True)
        z = self.ct(y).mean([2, 3])
        z = F.leaky_relu(self.ln(z), 0.1)
        n = z.shape[0]
        z = z.view(n, 2, 3).permute(0, 2, 1).reshape(n, -1)
        return F.log_softmax(z, dim=1), torch.flatten(y, 1)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    net = Net().eval()
    x = torch.randn(2, 1, 8, 8)
    warnings.simplefilter("ignore")
    blocks = Blocks().eval()
    xb = torch.randn(2, 3, 16, 16)
    for opset in (9, 13, 17):
        kw = dict(opset_version=opset, input_names=["x"], output_names=["y"])
        torch.onnx.export(net, x, os.path.join(out, f"net{opset}.onnx"), **kw)
        torch.onnx.export(net, x, os.path.join(out, f"net{opset}_dyn.onnx"), **kw,
                          dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})
        kw = dict(opset_version=opset, input_names=["x"], output_names=["z", "y"])
        torch.onnx.export(blocks, xb, os.path.join(out, f"blocks{opset}.onnx"), **kw)
        torch.onnx.export(blocks, xb, os.path.join(out, f"blocks{opset}_dyn.onnx"), **kw,
                          dynamic_axes={"x": {0: "batch"}})


if __name__ == "__main__":
    main()
