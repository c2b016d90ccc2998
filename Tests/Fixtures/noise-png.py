# Writes a PNG of noise: noise-png.py PATH WIDTH HEIGHT. Made with zlib at its fastest level, so
# a large one takes a moment to make and a while to decode: the kill matrix's contact photo.
import os
import struct
import sys
import zlib


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
row = os.urandom(width * 3)
# Each row rotated differently, so no two rows are the same and the filter bytes are 0 (none).
raw = b"".join(b"\x00" + row[i % 251:] + row[:i % 251] for i in range(height))
header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
with open(path, "wb") as output:
    output.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))
