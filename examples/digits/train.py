#!/usr/bin/python3
"""Train nc's bundled example network: a small CNN on scikit-learn's 8x8 digits.

The network is the model compiled by README's main command: it is small
enough to place on a NorthPole-like core grid yet a real trained classifier.
It uses only Conv, Relu, MaxPool, Flatten and Gemm, so the ONNX graph stays
within the ops nc's importer and lowerings handle first.

Everything is deterministic (fixed seeds, one thread, deterministic kernels,
no shuffling outside a seeded generator), so rerunning the script rewrites
byte-identical files.  Run with Debian's /usr/bin/python3 (torch, onnx,
sklearn, numpy).

Outputs, written to --out (default: this script's directory):
  digits_cnn.onnx        opset 13, batch 1, input "input" [1,1,8,8],
                         output "logits" [1,10]
  train_x.npy test_x.npy float32 N x 1 x 8 x 8, pixel values / 16 in [0,1]
  train_y.npy test_y.npy int64 N labels 0..9
  reference_logits.npy   float32 N x 10: torch's logits on test_x
"""

import argparse
import os
import random
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

SEED = 0


def make_model():
    """Conv-Relu x2, MaxPool, Conv-Relu, Flatten, Gemm: 8x8 -> 4x4 -> 10."""
    # Named layers give readable ONNX names ("/conv1/Conv", "conv1.weight").
    return nn.Sequential(OrderedDict([
        ("conv1", nn.Conv2d(1, 16, kernel_size=3, padding=1)),
        ("relu1", nn.ReLU()),
        ("conv2", nn.Conv2d(16, 32, kernel_size=3, padding=1)),
        ("relu2", nn.ReLU()),
        ("pool", nn.MaxPool2d(2)),
        ("conv3", nn.Conv2d(32, 32, kernel_size=3, padding=1)),
        ("relu3", nn.ReLU()),
        ("flatten", nn.Flatten()),
        ("fc", nn.Linear(32 * 4 * 4, 10)),
    ]))


def seed_everything():
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)


def load_data():
    digits = load_digits()
    x = (digits.images.astype(np.float32) / np.float32(16.0))
    x = x.reshape(-1, 1, 8, 8)
    y = digits.target.astype(np.int64)
    return train_test_split(x, y, test_size=0.2, stratify=y,
                            random_state=SEED)


def accuracy(model, x, y):
    with torch.no_grad():
        logits = model(torch.from_numpy(x))
    return float((logits.argmax(1).numpy() == y).mean()), logits.numpy()


def train(model, x, y, epochs, batch_size=32, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(SEED)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(xt), batch_size):
            idx = perm[i:i + batch_size]
            opt.zero_grad()
            loss = loss_fn(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1:2d}/{epochs}: loss {total / len(xt):.4f}")


def export(model, path):
    model.eval()
    dummy = torch.zeros(1, 1, 8, 8, dtype=torch.float32)
    torch.onnx.export(model, dummy, path, opset_version=13,
                      input_names=["input"], output_names=["logits"],
                      do_constant_folding=True, export_params=True,
                      training=torch.onnx.TrainingMode.EVAL)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=here,
                    help="output directory (default: %(default)s)")
    ap.add_argument("--epochs", type=int, default=15,
                    help="training epochs (default: %(default)s)")
    args = ap.parse_args()
    if args.epochs < 1:
        ap.error("--epochs must be at least 1")
    os.makedirs(args.out, exist_ok=True)

    seed_everything()
    train_x, test_x, train_y, test_y = load_data()
    model = make_model()
    train(model, train_x, train_y, args.epochs)

    model.eval()
    train_acc, _ = accuracy(model, train_x, train_y)
    test_acc, ref_logits = accuracy(model, test_x, test_y)
    print(f"train accuracy: {train_acc:.4f} ({len(train_y)} samples)")
    print(f"test accuracy:  {test_acc:.4f} ({len(test_y)} samples)")

    out = lambda name: os.path.join(args.out, name)
    export(model, out("digits_cnn.onnx"))
    np.save(out("train_x.npy"), np.ascontiguousarray(train_x))
    np.save(out("train_y.npy"), np.ascontiguousarray(train_y))
    np.save(out("test_x.npy"), np.ascontiguousarray(test_x))
    np.save(out("test_y.npy"), np.ascontiguousarray(test_y))
    np.save(out("reference_logits.npy"),
            np.ascontiguousarray(ref_logits, dtype=np.float32))
    print(f"wrote digits_cnn.onnx and data files to {args.out}")


if __name__ == "__main__":
    main()
