#!/usr/bin/python3
"""xbar_ncb.py: reads and rewrites xbar binaries (.ncb container v2, docs/targets/ncb-format.md; the xbar
sections of docs/targets/xbar.md) for the reject tests. Every rewrite re-lays the file out the way the
writer does (sections at 16-byte boundaries, the file padded to 16) and recomputes the section and header
CRCs, so that only the xbar loader's own checks can refuse the result.

  xbar_ncb.py sections IN                          list the sections
  xbar_ncb.py set IN OUT TYPE ID FIELD VALUE       set a field of a section (names below, or @OFFSET:FMT)
  xbar_ncb.py truncate IN OUT TYPE ID N            drop the last N bytes of a section
  xbar_ncb.py extend IN OUT TYPE ID N              append N zero bytes to a section
  xbar_ncb.py drop IN OUT TYPE ID                  remove a section
"""
import struct
import sys
import zlib

HEADER, TENSOR, ENTRY = 128, 128, 32

CHIP = {"mesh_rows": (32, "<I"), "mesh_cols": (36, "<I"), "xbar_rows": (40, "<I"), "xbar_cols": (44, "<I"),
        "dac_bits": (52, "<I"), "input_bits": (56, "<I"), "adc_bits": (60, "<I"), "clock_hz": (88, "<q")}
STAGE = {"kind": (0, "<I"), "flags": (4, "<I"), "output": (40, "<i"), "operands": (44, "<I"), "source": (48, "<i"),
         "in_rank": (52, "<I"), "in_dim0": (56, "<q"), "prod_rank": (120, "<I"), "out_dim0": (192, "<q"),
         "domain_dim0": (260, "<q"), "kernel_h": (324, "<q"), "stride_h": (340, "<q"), "pad_top": (356, "<q"),
         "group": (404, "<q"), "input_zp": (412, "<i"), "clamp_min": (424, "<i"), "clamp_max": (428, "<i"),
         "n_requant": (432, "<I")}


def load(path):
    data = open(path, "rb").read()
    n_in, n_out, n_sec = struct.unpack_from("<III", data, 56)
    tensors = data[HEADER:HEADER + (n_in + n_out) * TENSOR]
    table = HEADER + (n_in + n_out) * TENSOR
    secs = []
    for i in range(n_sec):
        t, ident, off, size = struct.unpack_from("<IIQQ", data, table + i * ENTRY)
        secs.append([t, ident, bytearray(data[off:off + size])])
    return data[:HEADER], tensors, secs


def save(path, head, tensors, secs):
    head = bytearray(head)
    struct.pack_into("<I", head, 64, len(secs))
    table = HEADER + len(tensors)
    header_size = table + len(secs) * ENTRY
    out = bytearray(head) + tensors + bytes(len(secs) * ENTRY)
    for i, (t, ident, body) in enumerate(secs):
        out += bytes(-len(out) % 16)
        struct.pack_into("<IIQQII", out, table + i * ENTRY, t, ident, len(out), len(body), zlib.crc32(body), 0)
        out += body
    out += bytes(-len(out) % 16)
    struct.pack_into("<I", out, 8, header_size)
    struct.pack_into("<Q", out, 16, len(out))
    struct.pack_into("<I", out, 12, 0)
    struct.pack_into("<I", out, 12, zlib.crc32(bytes(out[:header_size])))
    open(path, "wb").write(out)


def field(t, body, name):
    if name.startswith("@"):
        off, fmt = name[1:].split(":")
        return int(off), fmt
    if t == 1:
        return CHIP[name]
    if name in STAGE:
        return STAGE[name]
    # the mapping fields follow the variable-length requantization and bias arrays
    nq = struct.unpack_from("<I", body, 432)[0]
    nb = struct.unpack_from("<I", body, 436 + 8 * nq)[0]
    base = 440 + 8 * nq + 4 * nb
    names = ["rows", "cols", "row_tiles", "col_tiles", "replicas", "n_cores", "core0", "core1"]
    return base + 4 * names.index(name), "<I"


def main(argv):
    cmd = argv[1]
    head, tensors, secs = load(argv[2])
    if cmd == "sections":
        for t, ident, body in secs:
            print("type %d id %d size %d" % (t, ident, len(body)))
        return 0
    out, t, ident = argv[3], int(argv[4]), int(argv[5])
    sec = next(s for s in secs if s[0] == t and s[1] == ident)
    if cmd == "set":
        off, fmt = field(t, sec[2], argv[6])
        struct.pack_into(fmt, sec[2], off, int(argv[7], 0))
    elif cmd == "truncate":
        del sec[2][len(sec[2]) - int(argv[6]):]
    elif cmd == "extend":
        sec[2] += bytes(int(argv[6]))
    elif cmd == "drop":
        secs.remove(sec)
    save(out, head, tensors, secs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
