"""Codecs wrong only on a combination no vector and no sweep input holds: several errors in one
input, or an error's end on a block boundary after another one (issue 44, the seeded pass).
Each is CPython's codec otherwise. Loadable as `support.seeded_codecs:NAME`."""

from __future__ import annotations

import codecs
from itertools import pairwise


def maximal_subparts(data: bytes) -> list[tuple[int, int]]:
    """Return (start, end) of each maximal subpart CPython's decoder replaces in `data` ([] for
    well-formed input)."""
    found: list[tuple[int, int]] = []

    def record(error: UnicodeError) -> tuple[str, int]:
        assert isinstance(error, UnicodeDecodeError)
        found.append((error.start, error.end))
        return "\ufffd", error.end

    codecs.register_error("seeded_codecs.record", record)
    data.decode("utf-8", "seeded_codecs.record")
    return found


class SecondErrorAtBlockEnd:
    """A block validator that clears its error flags when a second error within one 64-byte
    block, some text after the first, ends on the block's last byte (a carry folded in twice):
    it says True for such input, CPython's verdict otherwise."""

    BLOCK = 64
    GAP = 3
    """Bytes of text between the two errors (errors side by side are read otherwise)."""

    def validate(self, data: bytes) -> bool:
        """Return CPython's verdict, True where two maximal subparts lie in one block, GAP or
        more bytes apart, the second ending at the block's end."""
        errors = maximal_subparts(data)
        for (_, first_end), (start, end) in pairwise(errors):
            same_block = (first_end - 1) // self.BLOCK == (end - 1) // self.BLOCK
            if end % self.BLOCK == 0 and same_block and start - first_end >= self.GAP:
                return True
        return not errors


class OverlongAfterASurrogate:
    """A replacing decoder that, once it has replaced an encoded surrogate (ED A0..BF), takes
    its input for Java's modified UTF-8 and reads a later C0 or C1 and the continuation byte
    after it as the character they would encode (C0 80: U+0000): it accepts the ill-formed pair
    only when it is not the first error of its input. CPython's codec otherwise."""

    def decode(self, data: bytes) -> str:
        """Return CPython's strict decoding."""
        return codecs.decode(data, "utf-8")

    def decode_replace(self, data: bytes) -> str:
        """Return CPython's replaced text, each overlong C0/C1 pair after the first error read
        as a character."""
        text: list[str] = []
        position = 0
        modified = False
        for start, end in maximal_subparts(data):
            if start < position:
                continue  # the tail of a pair read as a character
            text.append(data[position:start].decode("utf-8"))
            lead = data[start]
            pair = data[start + 1 : start + 2]
            if modified and lead in (0xC0, 0xC1) and pair and 0x80 <= pair[0] <= 0xBF:
                text.append(chr((lead & 0x1F) << 6 | pair[0] & 0x3F))
                end = start + 2  # the tail read with it, not replaced on its own
            else:
                text.append("\ufffd")
                modified = modified or (lead == 0xED and b"\xa0" <= pair <= b"\xbf")
            position = max(position, end)
        text.append(data[position:].decode("utf-8"))
        return "".join(text)
