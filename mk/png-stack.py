#!/usr/bin/env python3
"""Stack PNGs of equal width and format top to bottom into one PNG.

Usage: png-stack.py OUT.png IN1.png IN2.png ...   (make demo: one waveform
picture of a packet's path, one GTKWave grab per switch in path order).
Standard library only: the inputs' filtered scanlines are concatenated as they
are; only the first row of each later picture is unfiltered (its filter may
refer to the row above, which must be zeros, not the previous picture's last
row) and stored with filter 0. 8-bit grey, RGB or RGBA, not interlaced.
"""
import struct
import sys
import zlib

import pngio


def first_row_unfiltered(raw, stride, bpp):
    """Row 0 with the row above taken as zeros (as the PNG spec has it), filter 0."""
    return b"\x00" + bytes(pngio.unfilter(raw[0], bytearray(raw[1:stride + 1]), bytes(stride), bpp))


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: png-stack.py OUT.png IN1.png [IN2.png ...]")
    parts, hdr0, total = [], None, 0
    for i, path in enumerate(sys.argv[2:]):
        hdr, w, h, bpp, raw = pngio.read(path, "png-stack")
        if hdr0 is None:
            hdr0 = hdr
        elif hdr[:4] != hdr0[:4] or hdr[8:] != hdr0[8:]:
            sys.exit(f"png-stack: {path}: width or format differs from {sys.argv[2]}")
        stride = w * bpp
        parts.append(raw if i == 0 else first_row_unfiltered(raw, stride, bpp) + raw[stride + 1:])
        total += h
    ihdr = hdr0[:4] + struct.pack(">I", total) + hdr0[8:]
    with open(sys.argv[1], "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"".join(parts), 6))
                + chunk(b"IEND", b""))


main()
