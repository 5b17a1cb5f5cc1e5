#!/usr/bin/python3
"""resample_model.py OUT [PART]: a small CNN with the data-moving ops of
segmentation and mobile networks, exported by torch.onnx (random weights,
fixed seed), plus calibration inputs and one test image. PART picks what
follows conv1+relu (default: all of them in turn):
  resize   nn.Upsample(scale_factor=2, mode="nearest") -> conv2+relu
  pad      nn.ConstantPad2d(1, 0.5) (a non-zero fill, its own layer) -> conv3
  shuffle  ShuffleNet's channel shuffle (view -> transpose -> view, 2 groups)
  reflect  nn.ReflectionPad2d((2, 1, 1, 2)) (ONNX Pad mode=reflect) -> conv3+relu
  edge     nn.ReplicationPad2d((1, 2, 2, 1)) (ONNX Pad mode=edge) -> conv3+relu
  bilinear nn.Upsample(scale_factor=2, mode="bilinear") (Resize mode=linear, pytorch_half_pixel)
           -> conv2+relu, then F.interpolate(size=(9, 7), mode="bilinear", align_corners=True)
           (align_corners)
then global average pool -> flatten -> linear. Writes OUT/model.onnx,
OUT/calib.npy [4, 3, 6, 6], OUT/x.npy [1, 3, 6, 6] and OUT/expected.npy
(torch's float output on x)."""
import sys

import torch

import model_files

PARTS = sys.argv[2].split(",") if len(sys.argv) > 2 else ["resize", "pad", "shuffle"]


class Resample(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.up = torch.nn.Upsample(scale_factor=2, mode="nearest")
        self.c2 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.pad = torch.nn.ConstantPad2d(1, 0.5)
        self.c3 = torch.nn.Conv2d(8, 8, 3)
        self.c4 = torch.nn.Conv2d(8, 8, 1)
        self.reflect = torch.nn.ReflectionPad2d((2, 1, 1, 2))
        self.bilinear = torch.nn.Upsample(scale_factor=2, mode="bilinear")
        self.edge = torch.nn.ReplicationPad2d((1, 2, 2, 1))
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        y = torch.relu(self.c1(x))
        if "resize" in PARTS:
            y = torch.relu(self.c2(self.up(y)))
        if "pad" in PARTS:
            y = torch.relu(self.c3(self.pad(y)))
        if "bilinear" in PARTS:
            y = torch.relu(self.c2(self.bilinear(y)))
            y = torch.nn.functional.interpolate(y, size=(9, 7), mode="bilinear", align_corners=True)
        if "reflect" in PARTS:
            y = torch.relu(self.c3(self.reflect(y)))
        if "edge" in PARTS:
            y = torch.relu(self.c3(self.edge(y)))
        if "shuffle" in PARTS:
            n, c, h, w = y.shape
            y = y.view(n, 2, c // 2, h, w).transpose(1, 2).reshape(n, c, h, w)
            y = torch.relu(self.c4(y))
        y = torch.nn.functional.adaptive_avg_pool2d(y, 1)
        return self.fc(torch.flatten(y, 1))


def main():
    model_files.write(sys.argv[1], Resample, (3, 6, 6), expected=True, input_names=["image"],
                      output_names=["logits"])


if __name__ == "__main__":
    main()
