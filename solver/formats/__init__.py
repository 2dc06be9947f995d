"""Puzzle formats other sites read and write.

- :mod:`~solver.formats.fpuzzles`: f-puzzles JSON (the format SudokuPad opens) and its
  share links, to and from :class:`~solver.Rules` with a puzzle and its solution;
- :mod:`~solver.formats.lzstring`: lz-string's ``compressToBase64``, which those links use.

The classic text formats (one line, pretty grids, ``.sdk``, ``.sdm``) are
:mod:`solver.grid`'s.
"""

from solver.formats.fpuzzles import (
    FPuzzle,
    FPuzzlesError,
    from_fpuzzles,
    read_share_link,
    share_link,
    to_fpuzzles,
)
from solver.formats.lzstring import LZStringError, compress_to_base64, decompress_from_base64

__all__ = [
    "FPuzzle",
    "FPuzzlesError",
    "LZStringError",
    "compress_to_base64",
    "decompress_from_base64",
    "from_fpuzzles",
    "read_share_link",
    "share_link",
    "to_fpuzzles",
]
