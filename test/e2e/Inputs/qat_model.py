"""A quantization-aware-trained CNN for the QDQ test: torch.ao.quantization
(fuse_modules_qat, prepare_qat with symmetric int8 fake quantization, a few
SGD steps on random data, fixed seed), exported by torch.onnx at opset 13,
where each fake quantizer becomes a QuantizeLinear -> DequantizeLinear pair
holding the trained scale.

    qat_model.py OUT_DIR          writes model.onnx, x.npy (one input) and
                                  torch.npy (the fake-quantized model's
                                  float output on x)
    qat_model.py --compare A B S  prints the largest |A - B| in units of the
                                  scale written in file S
"""
import os
import sys

import numpy as np

if sys.argv[1] == "--compare":
    a, b = np.load(sys.argv[2]), np.load(sys.argv[3])
    print("max-diff-lsb: %d" % int(np.rint(np.abs(a - b).max() / float(open(sys.argv[4]).read()))))
    sys.exit(0)

import torch
import torch.ao.quantization as tq
import torch.nn as nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.c1, self.r1 = nn.Conv2d(1, 4, 3, padding=1), nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.c2, self.r2 = nn.Conv2d(4, 8, 3, padding=1), nn.ReLU()
        self.c3 = nn.Conv2d(8, 8, 1)
        self.add = nn.quantized.FloatFunctional()
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = self.pool(self.r1(self.c1(self.quant(x))))
        x = self.r2(self.c2(x))
        x = self.add.add(x, self.c3(x))  # a residual add at its own trained scale
        return self.dequant(self.fc(torch.flatten(x, 1)))


m = Net().train()
act = tq.FakeQuantize.with_args(observer=tq.MovingAverageMinMaxObserver, quant_min=-128, quant_max=127,
                                dtype=torch.qint8, qscheme=torch.per_tensor_symmetric)
wt = tq.FakeQuantize.with_args(observer=tq.MovingAveragePerChannelMinMaxObserver, quant_min=-128,
                               quant_max=127, dtype=torch.qint8, qscheme=torch.per_channel_symmetric, ch_axis=0)
m.qconfig = tq.QConfig(activation=act, weight=wt)
tq.fuse_modules_qat(m, [["c1", "r1"], ["c2", "r2"]], inplace=True)
tq.prepare_qat(m, inplace=True)
opt = torch.optim.SGD(m.parameters(), lr=0.01)
for _ in range(20):
    x, y = torch.randn(16, 1, 8, 8), torch.randint(0, 10, (16,))
    loss = nn.functional.cross_entropy(m(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
m.eval()
m.apply(tq.disable_observer)
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
x = torch.randn(1, 1, 8, 8)
torch.onnx.export(m, x, os.path.join(out, "model.onnx"), opset_version=13, input_names=["x"], output_names=["y"])
np.save(os.path.join(out, "x.npy"), x.numpy())
with torch.no_grad():
    np.save(os.path.join(out, "torch.npy"), m(x).numpy())
with open(os.path.join(out, "out_scale.txt"), "w") as f:
    f.write("%.9g\n" % float(m.fc.activation_post_process.scale))
