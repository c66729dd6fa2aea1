#!/usr/bin/env python3
"""Writes Tests/BoxSceneTests/Goldens/box/frame-000N.png from the numbers of box.yaml alone.

The goldens are the scene's expected pictures, not Flipbook's output: a white 40×30 canvas
with a #3366cc 10×10 box in columns 6i..6i+9 and rows 10..19 in frame i (its centre moves
linearly from x = 5 to x = 35 over 0.5 s; frame i is at t = i/10, so the centre is at 5 + 6i).
Every edge falls on a pixel boundary, so there is no anti-aliasing to guess. Plain Python
(zlib, struct), no imaging library: a second, independent writer of the same pixels.
"""
import os
import struct
import zlib

WIDTH, HEIGHT, FRAMES = 40, 30, 5
BOX = (0x33, 0x66, 0xCC)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "Tests", "BoxSceneTests", "Goldens", "box")


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def frame(i):
    rows = []
    for y in range(HEIGHT):
        row = bytearray([0])  # filter type None
        for x in range(WIDTH):
            inside = 6 * i <= x < 6 * i + 10 and 10 <= y < 20
            row += bytes(BOX if inside else (255, 255, 255)) + b"\xff"
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


os.makedirs(OUT, exist_ok=True)
for i in range(FRAMES):
    with open(os.path.join(OUT, "frame-%04d.png" % i), "wb") as f:
        f.write(frame(i))
