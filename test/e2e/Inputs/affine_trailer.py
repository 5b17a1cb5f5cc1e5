#!/usr/bin/python3
"""affine_trailer.py IN OUT: copies the northpole binary IN to OUT with the
input-affine trailer (np_format.h: NP_FLAG_IN_AFFINE, bit 20 of a tile's
flags; the tile section's last 8 bytes, i32 lo and hi) of its first such
tile set to [5, 3], bounds out of order, which the loader refuses; prints
the tile's name and its bounds as printed."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Target", "northpole", "Inputs"))
import ncb  # noqa: E402

b = bytearray(open(sys.argv[1], "rb").read())
h = ncb.parse(b)
for i, (kind, ident, off, size, crc) in enumerate(h["sections"]):
    if kind == 1 and struct.unpack_from("<I", b, off + 12)[0] & (1 << 20):
        name = bytes(b[off + 16:off + 48]).split(b"\0")[0].decode()
        print("affine %s: [%d, %d]" % ((name,) + struct.unpack_from("<ii", b, off + size - 8)))
        struct.pack_into("<ii", b, off + size - 8, 5, 3)
        ncb.fix_section_crc(b, i)
        break
open(sys.argv[2], "wb").write(bytes(b))
