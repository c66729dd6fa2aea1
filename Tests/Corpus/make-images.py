#!/usr/bin/env python3
"""Writes the broken PNGs of the corpus (images/) from one small valid image.
Run from Tests/Corpus; the files are committed, so this only documents how they were made."""
import struct, zlib, os

def chunk(kind, data, crc=None):
    c = zlib.crc32(kind + data) & 0xffffffff if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", c)

SIG = b"\x89PNG\r\n\x1a\n"

def png(w, h, ihdr_crc=None, idat=None, idat_crc=None):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    if idat is None:
        raw = b"".join(b"\x00" + bytes([255, 0, 0, 255]) * w for _ in range(h))
        idat = zlib.compress(raw)
    return SIG + chunk(b"IHDR", ihdr, ihdr_crc) + chunk(b"IDAT", idat, idat_crc) + chunk(b"IEND", b"")

good = png(4, 4)
files = {
    "ok.png": good,
    "zero-size.png": b"",
    "wrong-signature.png": b"\x89PNX" + good[4:],
    "text.png": b"this is not an image\n",
    "truncated-signature.png": good[:5],
    "truncated-after-signature.png": good[:8],
    "truncated-in-ihdr.png": good[:20],
    "truncated-after-ihdr.png": good[:33],
    "truncated-in-idat.png": good[:45],
    "truncated-before-iend.png": good[:-12],
    "bad-crc-ihdr.png": png(4, 4, ihdr_crc=0xDEADBEEF),
    "bad-crc-idat.png": png(4, 4, idat_crc=0xDEADBEEF),
    "bad-zlib.png": png(4, 4, idat=b"\x78\x9c" + b"\xff" * 20),
    "huge-declared.png": png(30000, 30000, idat=zlib.compress(b"\x00" * 64)),
    "absurd-declared.png": png(2000000, 2000000, idat=zlib.compress(b"\x00" * 64)),
    "zero-width.png": png(0, 4, idat=zlib.compress(b"\x00" * 4)),
}
os.makedirs("images", exist_ok=True)
for name, data in files.items():
    with open(os.path.join("images", name), "wb") as f:
        f.write(data)
