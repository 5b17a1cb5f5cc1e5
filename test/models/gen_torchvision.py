#!/usr/bin/python3
"""Exports torchvision architectures to ONNX with random weights, and torch's outputs.

For each model, writes into OUT/<name>/:
  model.onnx     the model exported by torch.onnx (opset --opset), batch 1,
                 3x224x224 input;
  input.npy      a fixed random input [1, 3, 224, 224] (float32);
  expected.npy   torch's output for it (model.eval(), float32);
  input2.npy, expected2.npy (with --batch2) a batch of two inputs and
                 torch's outputs for them, for nc-run's batched runs;
  stamp          what generated the files: they are reused while it matches.

Weights are torchvision's own random initialisation under a fixed seed;
batch-norm statistics and affine parameters are randomised too (and the
weights scaled so that activations stay O(1)), so that inference-mode batch
norm is exercised rather than being an identity. Everything is
deterministic: the same arguments give the same files. Needs Debian's
/usr/bin/python3 with python3-torch and python3-torchvision.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torchvision

VERSION = 1
MODELS = ["resnet18", "mobilenet_v2", "squeezenet1_1", "googlenet", "vgg11", "densenet121"]
EXTRA = ["resnet50"]  # for benchmarks


def build(name):
    kwargs = {"weights": None}
    if name == "googlenet":
        kwargs.update(aux_logits=False, init_weights=True)
    return getattr(torchvision.models, name)(**kwargs)


def randomize_norms(model, gen):
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            c = m.num_features
            m.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
            m.weight.data.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
            m.bias.data.copy_(torch.randn(c, generator=gen) * 0.1)


def stamp_text(name, args):
    return "gen_torchvision v%d model=%s seed=%d opset=%d batch2=%d torch=%s torchvision=%s\n" % (
        VERSION, name, args.seed, args.opset, int(args.batch2), torch.__version__, torchvision.__version__)


def generate(name, args):
    d = os.path.join(args.out, name)
    stamp = os.path.join(d, "stamp")
    text = stamp_text(name, args)
    if os.path.exists(stamp) and open(stamp).read() == text:
        return False
    os.makedirs(d, exist_ok=True)
    if os.path.exists(stamp):
        os.remove(stamp)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed + 1)
    model = build(name)
    randomize_norms(model, gen)
    model.eval()
    x = torch.randn(1, 3, 224, 224, generator=gen)
    with torch.no_grad():
        y = model(x)
        torch.onnx.export(model, x, os.path.join(d, "model.onnx"), opset_version=args.opset,
                          input_names=["input"], output_names=["output"], do_constant_folding=True)
        np.save(os.path.join(d, "input.npy"), x.numpy())
        np.save(os.path.join(d, "expected.npy"), y.numpy())
        if args.batch2:
            x2 = torch.randn(2, 3, 224, 224, generator=gen)
            np.save(os.path.join(d, "input2.npy"), x2.numpy())
            np.save(os.path.join(d, "expected2.npy"), model(x2).numpy())
    with open(stamp, "w") as f:
        f.write(text)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output directory (one subdirectory per model)")
    ap.add_argument("--models", default=",".join(MODELS),
                    help="comma-separated torchvision model names (default: %%(default)s; also: %s)" % ",".join(EXTRA))
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--opset", type=int, default=13)
    ap.add_argument("--batch2", action="store_true", help="also write a batch of two inputs and outputs")
    args = ap.parse_args()
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    for name in args.models.split(","):
        if not hasattr(torchvision.models, name):
            print("error: torchvision has no model '%s'" % name, file=sys.stderr)
            return 1
        made = generate(name, args)
        print("%s: %s" % (name, "generated" if made else "up to date"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
