# slot_fields.py FILE DIR: one damaged variant of FILE per check the loader
# makes on tiles sharing a core (docs/targets/ncb-format.md, "Several tiles
# on one core"), edited in the first tile with a slot (flags bit 17) by the
# layout that document gives; ncb.py supplies the reader.
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncb  # noqa: E402

SHARED = 1 << 17

b = open(sys.argv[1], "rb").read()
d = sys.argv[2]
h = ncb.parse(b)
tiles = [(i, s[2], s[3]) for i, s in enumerate(h["sections"]) if s[0] == 1]
i, off, size = next(t for t in tiles if struct.unpack_from("<I", b, t[1] + 12)[0] & SHARED)
f = ncb.tile_fields(b, off)
trailer = off + size - 8  # u32 slot, u32 0: the section's last 8 bytes
x, y = struct.unpack_from("<ii", b, off)
# another shared core's slot-1 tile (its position)
other = next((struct.unpack_from("<ii", b, t[1])) for t in tiles
             if struct.unpack_from("<I", b, t[1] + 12)[0] & SHARED and struct.unpack_from("<ii", b, t[1]) != (x, y))


def out(name, edit, sec=i):
    m = bytearray(b)
    edit(m)
    ncb.fix_section_crc(m, sec)
    open("%s/%s.ncb" % (d, name), "wb").write(bytes(m))


out("slot-zero", lambda m: struct.pack_into("<I", m, trailer, 0))
out("slot-range", lambda m: struct.pack_into("<I", m, trailer, 64))
out("slot-word", lambda m: struct.pack_into("<I", m, trailer + 4, 1))
out("slot-twice", lambda m: struct.pack_into("<ii", m, off, *other))
# its first buffer where the first buffer of the other tile on its core is
mate = next(t[1] for t in tiles if t[1] != off and struct.unpack_from("<ii", b, t[1]) == (x, y))
mate_offset = struct.unpack_from("<q", b, ncb.tile_fields(b, mate)["buffers"][0][1] + 24)[0]
out("slot-overlap", lambda m: struct.pack_into("<q", m, f["buffers"][0][1] + 24, mate_offset))
# a recv or send naming slot 1 of a core (bits 1..7 of its word) names slot 5 instead
for j, o, s in tiles:
    g = ncb.tile_fields(b, o)
    n = struct.unpack_from("<I", b, g["n_instrs"])[0]
    k = next((k for k in range(n) if struct.unpack_from("<II", b, g["instrs"] + 40 * k) in ((1, 1 << 1), (3, 1 << 1))),
             None)
    if k is not None:
        out("peer-slot", lambda m: struct.pack_into("<I", m, g["instrs"] + 40 * k + 4, 5 << 1), j)
        break
