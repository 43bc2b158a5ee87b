#!/usr/bin/env python3
"""png_check.py — reads a PNG screenshot with nothing but zlib and struct, and answers whether
something was drawn on it.

    png_check.py FILE.png                 prints "WIDTH HEIGHT NONWHITE_FRACTION COLOURS"
    png_check.py FILE.png --crop X Y W H OUT.png
                                          writes that rectangle as a new PNG (to look at it)

NONWHITE_FRACTION is the share of pixels that are not (near) white; COLOURS the number of
distinct colours (RGB quantized to 4 bits per channel) among the pixels that are not near-white.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise ValueError(f"{path}: only 8-bit RGB/RGBA non-interlaced PNGs are handled")
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def write_png(path, width, height, bpp, rows):
    raw = b"".join(b"\x00" + r for r in rows)
    colour_type = 2 if bpp == 3 else 6

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def main():
    path = sys.argv[1]
    width, height, bpp, rows = read_png(path)
    if len(sys.argv) > 2 and sys.argv[2] == "--crop":
        x, y, w, h = (int(v) for v in sys.argv[3:7])
        cropped = [r[x * bpp:(x + w) * bpp] for r in rows[y:y + h]]
        write_png(sys.argv[7], w, len(cropped), bpp, cropped)
        return
    nonwhite, colours = 0, set()
    for r in rows:
        for i in range(0, len(r), bpp):
            red, green, blue = r[i], r[i + 1], r[i + 2]
            if red < 235 or green < 235 or blue < 235:
                nonwhite += 1
                colours.add((red >> 4, green >> 4, blue >> 4))
    print(width, height, f"{nonwhite / (width * height):.4f}", len(colours))


if __name__ == "__main__":
    main()
