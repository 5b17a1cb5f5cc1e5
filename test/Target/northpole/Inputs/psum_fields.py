# psum_fields.py FILE DIR: one damaged variant of FILE per check the loader
# makes on input-channel slices (docs/targets/ncb-format.md, "Input-channel
# slices"), edited in the first partial-sum tile (flags bit 4) by the layout
# that document gives; ncb.py supplies the reader.
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncb  # noqa: E402

PARTIAL, REDUCE = 16, 32

b = open(sys.argv[1], "rb").read()
d = sys.argv[2]
h = ncb.parse(b)
i, off = next((i, s[2]) for i, s in enumerate(h["sections"])
              if s[0] == 1 and struct.unpack_from("<I", b, s[2] + 12)[0] & PARTIAL)
f = ncb.tile_fields(b, off)
n_instrs = struct.unpack_from("<I", b, f["n_instrs"])[0]
trailer = f["instrs"] + 40 * n_instrs
send = next(f["instrs"] + 40 * k for k in range(n_instrs) if struct.unpack_from("<I", b, f["instrs"] + 40 * k)[0] == 3)
flags = struct.unpack_from("<I", b, f["flags"])[0]


def out(name, edit):
    m = bytearray(b)
    edit(m)
    ncb.fix_section_crc(m, i)
    open("%s/%s.ncb" % (d, name), "wb").write(bytes(m))


out("both-flags", lambda m: struct.pack_into("<I", m, f["flags"], flags | REDUCE))
out("slice", lambda m: struct.pack_into("<q", m, trailer + 8, 99))
out("n-partials", lambda m: struct.pack_into("<I", m, trailer + 16, 1))
out("send-network", lambda m: struct.pack_into("<I", m, send + 4, 0))
out("send-bytes", lambda m: struct.pack_into("<q", m, send + 32, struct.unpack_from("<q", b, send + 32)[0] // 4))
out("trailer-zero", lambda m: struct.pack_into("<I", m, trailer + 20, 5))


def psum_send(off):
    g = ncb.tile_fields(b, off)
    n = struct.unpack_from("<I", b, g["n_instrs"])[0]
    return next((g["instrs"] + 40 * k for k in range(n)
                 if struct.unpack_from("<II", b, g["instrs"] + 40 * k) == (3, 1)), None)


# a row band's partial sums sent to the reducer of another band of the same
# layer and output channels (when the layer has bands: core-place{row-split})
node = b[off + 16:off + 48]
mine = psum_send(off)
other = next((struct.unpack_from("<qq", b, p + 8) for s in h["sections"] if s[0] == 1 and s[2] != off
              and b[s[2] + 16:s[2] + 48] == node and struct.unpack_from("<I", b, s[2] + 12)[0] & PARTIAL
              for p in [psum_send(s[2])] if p and struct.unpack_from("<qq", b, p + 8) !=
              struct.unpack_from("<qq", b, mine + 8)), None)
if mine is not None and other is not None:
    out("send-band", lambda m: struct.pack_into("<qq", m, mine + 8, *other))
    print("another band's reducer at", other)
print("partial-sum tile at section", i)
