"""The home-screen icons of the web app manifest, drawn from the favicon's design.

``python -m ops.icons`` writes static/img/icon-192.png, icon-512.png and
icon-maskable-512.png (the four squares of static/img/favicon.svg on the accent colour).
Plain Python (zlib and struct): no imaging library is needed to remake them. The maskable
icon fills its square and keeps the squares inside the central safe circle (80 %), as
launchers crop it to their own shape.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

ACCENT = (0x4F, 0x46, 0xE5)
WHITE = (0xFF, 0xFF, 0xFF)
# The favicon's 32-unit grid: (x, y, opacity) of each 8x8 square with corner radius 2.
SQUARES = ((6, 6, 1.0), (18, 6, 0.6), (6, 18, 0.6), (18, 18, 1.0))
OUT = Path(__file__).resolve().parents[1] / "static" / "img"


def _inside_rounded(x: float, y: float, x0: float, y0: float, size: float, r: float) -> bool:
    """Whether (x, y) lies in the square at (x0, y0) of side ``size`` with corner radius r."""
    if not (x0 <= x < x0 + size and y0 <= y < y0 + size):
        return False
    cx = min(max(x, x0 + r), x0 + size - r)
    cy = min(max(y, y0 + r), y0 + size - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def _mix(a: tuple[int, ...], b: tuple[int, ...], t: float) -> tuple[int, ...]:
    return tuple(round(p + (q - p) * t) for p, q in zip(a, b, strict=True))


def draw(size: int, *, maskable: bool = False) -> bytes:
    """RGBA rows of the icon, ``size`` pixels square."""
    # Maskable: the 32-unit design shrunk to 70 % in the middle of a full accent square.
    scale = size / 32 * (0.7 if maskable else 1.0)
    offset = (size - 32 * scale) / 2
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            x, y = px + 0.5, py + 0.5
            if not maskable and not _inside_rounded(x, y, 0, 0, size, 7 * size / 32):
                rows += b"\0\0\0\0"
                continue
            colour = ACCENT
            ux, uy = (x - offset) / scale, (y - offset) / scale
            for sx, sy, opacity in SQUARES:
                if _inside_rounded(ux, uy, sx, sy, 8, 2):
                    colour = _mix(ACCENT, WHITE, opacity)
            rows += bytes((*colour, 255))
    return bytes(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba_rows, 9))
        + chunk(b"IEND", b"")
    )


ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False)}
ICONS["icon-maskable-512.png"] = (512, True)


def main() -> None:
    for name, (size, maskable) in ICONS.items():
        path = OUT / name
        path.write_bytes(png(size, draw(size, maskable=maskable)))
        sys.stdout.write(f"{path} ({path.stat().st_size} bytes)\n")


if __name__ == "__main__":
    main()
