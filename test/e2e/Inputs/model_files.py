"""model_files.py: the files every small e2e model generator writes.

Each generator (acts_model.py, residual_model.py, pools_model.py, ...)
defines a torch module; this writes it the same way for all of them, so the
tests read one layout: OUT/model.onnx (torch.onnx, opset 13, random weights
under seed 0), OUT/calib.npy (4 calibration images), OUT/x.npy (1 test
image) and, when asked, OUT/expected.npy (torch's float output for x).
"""
import os

import numpy as np
import torch


def write(out, make_model, shape, expected=False, **export_args):
    """Exports make_model() (built after torch.manual_seed(0)) for inputs of
    shape [1, *shape] into out, with calibration and test images drawn from
    numpy's RandomState(0); export_args go to torch.onnx.export."""
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = make_model().eval()
    torch.onnx.export(model, torch.randn(1, *shape), os.path.join(out, "model.onnx"), opset_version=13,
                      **export_args)
    rng = np.random.RandomState(0)
    np.save(os.path.join(out, "calib.npy"), rng.randn(4, *shape).astype(np.float32))
    x = rng.randn(1, *shape).astype(np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    if expected:
        with torch.no_grad():
            np.save(os.path.join(out, "expected.npy"), model(torch.from_numpy(x)).numpy())
