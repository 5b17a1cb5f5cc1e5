"""balance_models.py KIND OUT: small models for core-place's balancing
(core-place-ties.test), written by model_files.write:
  tie   two convs of equal work in a row (8 -> 8 channels, 3x3, 16x16):
        splitting either one alone leaves the other as slow;
  recv  a 1x1 conv widening 8 channels to 64, then a 2x2 max pool: the pool
        does little work but receives the whole 64-channel tensor."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "e2e", "Inputs"))
import model_files  # noqa: E402


def make_tie():
    import torch
    return torch.nn.Sequential(torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.ReLU(),
                               torch.nn.Conv2d(8, 8, 3, padding=1))


def make_recv():
    import torch
    return torch.nn.Sequential(torch.nn.Conv2d(8, 64, 1), torch.nn.ReLU(), torch.nn.MaxPool2d(2))


if __name__ == "__main__":
    model_files.write(sys.argv[2], {"tie": make_tie, "recv": make_recv}[sys.argv[1]], (8, 16, 16))
