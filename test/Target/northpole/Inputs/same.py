# same.py A.npy B.npy [C.npy D.npy ...]: exits 0 if each pair of arrays has
# the same shape, dtype and bits (floats compared as raw bits, so -0.0 != 0.0
# and NaNs count), printing one line per pair; otherwise prints where they
# differ and exits 1.
import sys

import numpy as np

for pa, pb in zip(sys.argv[1::2], sys.argv[2::2]):
    a, b = np.load(pa), np.load(pb)
    if a.shape != b.shape or a.dtype != b.dtype:
        sys.exit(f"differ: {a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}")
    ua = a.view(np.uint8).reshape(a.shape + (-1,)) if a.ndim else a.view(np.uint8)
    ub = b.view(np.uint8).reshape(b.shape + (-1,)) if b.ndim else b.view(np.uint8)
    bad = np.argwhere((ua != ub).any(axis=-1))
    if len(bad):
        i = tuple(bad[0])
        sys.exit(f"differ at {len(bad)} elements, first {list(i)}: {a[i]} vs {b[i]}")
    print(f"same: {a.dtype}{list(a.shape)}")
