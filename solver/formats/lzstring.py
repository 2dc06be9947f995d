"""lz-string's ``compressToBase64`` and ``decompressFromBase64`` in pure Python.

SudokuPad and f-puzzles share a puzzle as its JSON compressed with the JavaScript library
lz-string (an LZW variant writing codes of growing width, six bits per Base64 character).
JavaScript strings are UTF-16 code units, so the text is handled as code units: a
character beyond the BMP is two, as in the browser. The output matches the library's
byte for byte (tests/solver/test_fpuzzles.py holds vectors made with it).
"""

from __future__ import annotations

from collections.abc import Callable

KEY = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="
_VALUE = {ch: i for i, ch in enumerate(KEY)}


class LZStringError(ValueError):
    """Text that is not lz-string Base64."""


def _units(text: str) -> list[str]:
    """``text`` as UTF-16 code units (one str of length 1 each)."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(int.from_bytes(raw[i : i + 2], "little")) for i in range(0, len(raw), 2)]


def _text(units: list[str]) -> str:
    raw = b"".join(ord(u).to_bytes(2, "little") for u in units)
    return raw.decode("utf-16-le", "surrogatepass")


class _Writer:
    """Bits written least significant first into ``bits``-bit symbols, as lz-string does."""

    def __init__(self, bits: int) -> None:
        self.bits = bits
        self.val = 0
        self.position = 0
        self.out: list[str] = []

    def write(self, value: int, count: int) -> None:
        for _ in range(count):
            self.val = (self.val << 1) | (value & 1)
            value >>= 1
            if self.position == self.bits - 1:
                self.position = 0
                self.out.append(KEY[self.val])
                self.val = 0
            else:
                self.position += 1

    def flush(self) -> str:
        while True:
            self.val <<= 1
            if self.position == self.bits - 1:
                self.out.append(KEY[self.val])
                return "".join(self.out)
            self.position += 1


def compress_to_base64(text: str) -> str:
    """lz-string's ``compressToBase64(text)``."""
    out = _compress(_units(text))
    return out + "=" * (-len(out) % 4)


def _compress(units: list[str]) -> str:
    dictionary: dict[str, int] = {}
    to_create: set[str] = set()
    w = ""
    enlarge_in, dict_size, num_bits = 2, 3, 2
    data = _Writer(6)

    def emit(w: str) -> None:
        nonlocal enlarge_in, num_bits
        if w in to_create:
            code = ord(w[0])
            if code < 256:
                data.write(0, num_bits)
                data.write(code, 8)
            else:
                data.write(1, num_bits)
                data.write(code, 16)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in = 1 << num_bits
                num_bits += 1
            to_create.discard(w)
        else:
            data.write(dictionary[w], num_bits)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1

    for c in units:
        if c not in dictionary:
            dictionary[c] = dict_size
            dict_size += 1
            to_create.add(c)
        wc = w + c
        if wc in dictionary:
            w = wc
        else:
            emit(w)
            dictionary[wc] = dict_size
            dict_size += 1
            w = c
    if w:
        emit(w)
    data.write(2, num_bits)
    return data.flush()


def decompress_from_base64(text: str, *, max_length: int = 1 << 20) -> str:
    """lz-string's ``decompressFromBase64(text)``; LZStringError on text it cannot read.

    ``max_length`` caps the decompressed length (in code units), so a small hostile input
    cannot expand without bound."""
    if not isinstance(text, str) or not text:
        raise LZStringError("no compressed text")
    bad = next((ch for ch in text if ch not in _VALUE), None)
    if bad is not None:
        raise LZStringError(f"{bad!r} is not a Base64 character")
    values = [_VALUE[ch] for ch in text]
    found = _decompress(len(values), 32, lambda i: values[i] if i < len(values) else 0, max_length)
    if found is None:
        raise LZStringError("the compressed text is damaged")
    return _text(found)


def _decompress(
    length: int, reset: int, value_at: Callable[[int], int], max_length: int
) -> list[str] | None:
    val, position, index = value_at(0), reset, 1

    def read(count: int) -> int:
        nonlocal val, position, index
        bits = 0
        for power in range(count):
            bit = val & position
            position >>= 1
            if position == 0:
                position = reset
                val = value_at(index)
                index += 1
            if bit:
                bits |= 1 << power
        return bits

    dictionary: list[list[str]] = [[], [], []]
    enlarge_in, dict_size, num_bits = 4, 4, 3
    first = read(2)
    if first == 2:
        return []
    if first > 2:
        return None
    w = [chr(read(8 if first == 0 else 16))]
    dictionary.append(w)
    result = list(w)
    while True:
        if index > length:
            return None
        c = read(num_bits)
        if c in (0, 1):
            dictionary.append([chr(read(8 if c == 0 else 16))])
            dict_size += 1
            c = dict_size - 1
            enlarge_in -= 1
        elif c == 2:
            return result
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1
        if c < len(dictionary) and c > 2:
            entry = dictionary[c]
        elif c == dict_size:
            entry = w + w[:1]
        else:
            return None
        result.extend(entry)
        if len(result) > max_length:
            raise LZStringError(f"the text expands beyond {max_length} characters")
        dictionary.append(w + entry[:1])
        dict_size += 1
        enlarge_in -= 1
        w = entry
        if enlarge_in == 0:
            enlarge_in = 1 << num_bits
            num_bits += 1
