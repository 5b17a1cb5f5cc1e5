# shared_weights.py: checks that a row-banded binary stores each weight
# slice once (docs/targets/ncb-format.md, type 4), against the same network
# printed without bands, by the documented layout (ncb.py).
#   shared_weights.py check BANDED WHOLE   per node: its tiles and whether they
#                                          share one copy equal to WHOLE's weights;
#                                          the weight bytes stored in both binaries
#   shared_weights.py corrupt BANDED WHOLE DIR   bad references to the weights section
import struct
import sys

import ncb

SHARED = 1 << 63


def tiles(path):
    """[(node, lo, hi, (kind, bytes, offset), weight bytes)], weights section (offset, size) or None."""
    b = open(path, "rb").read()
    h = ncb.parse(b)
    ws = next(((off, size) for t, i, off, size, crc in h["sections"] if t == 4), None)
    out = []
    for t, ident, off, size, crc in h["sections"]:
        if t != 1:
            continue
        f = ncb.tile_fields(b, off)
        node = b[off + 16:off + 48].split(b"\0")[0].decode()
        kind, n, woff = f["weights"]
        p = f["weight_bytes"] + (16 if kind == "shared" else 8)
        data = b[ws[0] + woff:ws[0] + woff + n] if kind == "shared" else b[p:p + n]
        out.append((node, f["weights"], data, f["weight_bytes"], ident))
    return b, h, out, ws


def check(banded, whole):
    _, _, bt, ws = tiles(banded)
    _, _, wt, _ = tiles(whole)
    whole_w = {node: data for node, _, data, _, _ in wt}
    nodes = []
    for node, _, _, _, _ in bt:
        if node not in nodes:
            nodes.append(node)
    for node in nodes:
        mine = [(w, data) for n, w, data, _, _ in bt if n == node]
        if not whole_w.get(node):
            continue
        refs = {w for w, _ in mine}
        same = all(data == whole_w[node] for _, data in mine)
        how = "one shared copy" if len(refs) == 1 and next(iter(refs))[0] == "shared" else \
            "inline" if all(w[0] == "inline" for w in refs) else "%d copies" % len(refs)
        print("%s: %d tiles, %s, equal to the unbanded weights: %s" % (node, len(mine), how, same))
    unique_shared = sum(n for off, n in {(w[2], w[1]) for _, w, _, _, _ in bt if w[0] == "shared"})
    banded_bytes = sum(w[1] for _, w, _, _, _ in bt if w[0] == "inline") + unique_shared
    whole_bytes = sum(w[1] for _, w, _, _, _ in wt)
    padded = sum((n + 7) // 8 * 8 for off, n in {(w[2], w[1]) for _, w, _, _, _ in bt if w[0] == "shared"})
    print("weight bytes stored: banded == unbanded: %s" % (banded_bytes == whole_bytes))
    print("weights section holds only the shared slices: %s" % (ws is not None and ws[1] == padded))


def corrupt(banded, whole, d):
    b, h, bt, ws = tiles(banded)
    node, w, data, field, ident = next(t for t in bt if t[1][0] == "shared")
    i = next(k for k, s in enumerate(h["sections"]) if s[0] == 1 and s[1] == ident)
    def out(name, edit):
        m = bytearray(b)
        edit(m)
        ncb.fix_section_crc(m, i)
        open("%s/%s.ncb" % (d, name), "wb").write(bytes(m))
    out("beyond", lambda m: struct.pack_into("<Q", m, field + 8, ws[1]))
    out("unaligned", lambda m: struct.pack_into("<Q", m, field + 8, w[2] + 4))
    out("huge", lambda m: struct.pack_into("<Q", m, field + 8, (1 << 64) - 8))
    # a reference in a binary without a weights section: WHOLE's first weighted tile marked shared
    wb, wh, wt, _ = tiles(whole)
    node, w, data, field, ident = next(t for t in wt if t[1][1])
    k = next(k for k, s in enumerate(wh["sections"]) if s[0] == 1 and s[1] == ident)
    m = bytearray(wb); struct.pack_into("<Q", m, field, w[1] | SHARED); struct.pack_into("<Q", m, field + 8, 0)
    ncb.fix_section_crc(m, k)
    open("%s/none.ncb" % d, "wb").write(bytes(m))
    def second(m):
        k = next(k for k, s in enumerate(h["sections"]) if s[0] == 2)
        struct.pack_into("<I", m, h["table"] + k * ncb.ENTRY, 4)
    m = bytearray(b); second(m); ncb.fix_header_crc(m)
    open("%s/two.ncb" % d, "wb").write(bytes(m))


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        corrupt(sys.argv[2], sys.argv[3], sys.argv[4])
