#!/usr/bin/python3
"""Exports a small PyTorch network to ONNX the way users do, for import tests.

Usage: torch_models.py OUT_DIR              writes the models, inputs and torch's outputs
       torch_models.py check NC_RUN OUT_DIR  runs each model with nc-run and compares

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


def check(nc_run, out):
    """nc-run on each model's input.npy must give torch's outputs (float32
    summation order aside); dynamic models get a batch of 3, not 2."""
    import subprocess
    import numpy as np
    n = bad = 0
    for name in sorted(f[:-5] for f in os.listdir(out) if f.endswith(".onnx")):
        n += 1
        base = os.path.join(out, name)
        k = 2 if name.startswith("blocks") else 1
        outs = ["%s.got%d.npy" % (base, i) for i in range(k)]
        cmd = [nc_run, base + ".onnx", "--input", base + ".x.npy"] + sum([["--output", o] for o in outs], [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            bad += 1
            print("FAILED:", name, r.stderr.strip())
            continue
        for i in range(k):
            got, want = np.load(outs[i]), np.load("%s.want%d.npy" % (base, i))
            if got.shape != want.shape or not np.allclose(got, want, rtol=1e-4, atol=1e-5):
                bad += 1
                print("DIFFERS:", name, i, got.shape, want.shape)
    print("torch models: %d run, %d differ from torch" % (n, bad))
    return bad


def main():
    if sys.argv[1] == "check":
        sys.exit(1 if check(sys.argv[2], sys.argv[3]) else 0)
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
    # inputs and torch's outputs: batch 2 for the static models, 3 for the dynamic ones
    import numpy as np
    with torch.no_grad():
        for model, name, shape in ((net, "net", (1, 8, 8)), (blocks, "blocks", (3, 16, 16))):
            for suffix, batch in (("", 2), ("_dyn", 3)):
                inp = torch.randn(batch, *shape)
                res = model(inp)
                res = res if isinstance(res, tuple) else (res,)
                for opset in (9, 13, 17):
                    base = os.path.join(out, "%s%d%s" % (name, opset, suffix))
                    np.save(base + ".x.npy", inp.numpy())
                    for i, r in enumerate(res):
                        np.save("%s.want%d.npy" % (base, i), r.numpy())


if __name__ == "__main__":
    main()
