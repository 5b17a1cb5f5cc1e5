# weight_bytes.py D8.mlir D4.mlir D2.mlir: the weights buffer of each conv and
# gemm tile in the core IR of one network mapped alike at 8, 4 and 2 bits
# (--balance=false: a tile per layer). A layer at 4 (2) bits holds its weights
# packed, two (four) a byte: ceil(bytes at 8 / 2 (4)); a layer kept at 8 bits
# (the first and last) holds as many bytes at every width. Prints the layers
# packed at each width; exits 1 on any other size.
import re
import sys

TILE = re.compile(r'core\.tile \{node = "([^"]+)"')
WEIGHTS = re.compile(r'core\.buffer \{bytes = (\d+) : i64, kind = "weights"')


def weights(path):
    out, node = {}, None
    for line in open(path):
        m = TILE.search(line)
        if m:
            node = m.group(1)
        m = WEIGHTS.search(line)
        if m and node:
            out[node] = int(m.group(1))
    return out


w = {b: weights(p) for b, p in zip((8, 4, 2), sys.argv[1:4])}
for b in (4, 2):
    packed = []
    for node, n8 in sorted(w[8].items()):
        nb = w[b].get(node)
        if nb == -(-n8 // (8 // b)):
            packed.append(node)
        elif nb != n8:
            sys.exit(f"{node}: {nb} bytes of weights at {b} bits, {n8} at 8")
    print(f"packed at {b} bits: {' '.join(packed)}")
