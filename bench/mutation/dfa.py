"""A table-driven UTF-8 codec, the second parent of bench/mutants.py: a Hoehrmann-style DFA.

    utf8cert check bench.mutation.dfa:Subject --fail-on may      (from the repository root)

Written the way fast decoders are (Björn Höhrmann's "Flexible and Economical UTF-8 Decoder", Go's
acceptRanges): each byte is mapped to one of 14 classes, and a transition table gives the next
state for each (state, class) pair, so that each rule of RFC 3629 §4 is a table entry rather
than a line of code. The validator is separate and reads its own packed copy of the table (one
integer a state, four bits a class); the incremental decoder carries the DFA's state and the
bytes of the sequence it is in across chunks. Independent of utf8cert's reference (never
imported), with every capability, conformant at every level.
"""

from __future__ import annotations

from typing import Final

REPLACEMENT: Final = "\ufffd"

# The byte classes of Unicode §3.9 Table 3-7, by first byte: 00-7F, 80-8F, 90-9F, A0-BF, C0-C1,
# C2-DF, E0, E1-EC, ED, EE-EF, F0, F1-F3, F4, F5-FF.
CLASS_STARTS: Final = (
    0x00, 0x80, 0x90, 0xA0, 0xC0, 0xC2, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5,
)  # fmt: skip
CLASSES: Final = 14
CLASS: Final = bytes(sum(byte >= start for start in CLASS_STARTS) - 1 for byte in range(256))
"""The class of each byte value."""
LEAD_BITS: Final = (0x7F, 0, 0, 0, 0, 0x1F, 0x0F, 0x0F, 0x0F, 0x0F, 0x07, 0x07, 0x07, 0)
"""The bits of its value that a lead byte of each class holds (RFC 3629 §3)."""

ACCEPT: Final = 0
REJECT: Final = 1
# 1, 2 or 3 continuation bytes due (80-BF), and the narrowed first ones after E0, ED, F0, F4.
TAIL1, TAIL2, TAIL3, AFTER_E0, AFTER_ED, AFTER_F0, AFTER_F4 = 2, 3, 4, 5, 6, 7, 8

# The transition table: a row per state, a column per class (in CLASS_STARTS order).
TRANSITIONS: Final = bytes([
    # 00 80 90 A0 C0 C2 E0 E1 ED EE F0 F1 F4 F5
    0, 1, 1, 1, 1, 2, 5, 3, 6, 3, 7, 4, 8, 1,  # ACCEPT
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # REJECT
    1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # TAIL1: 80-BF end the character
    1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # TAIL2
    1, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # TAIL3
    1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # AFTER_E0: A0-BF (below: overlong)
    1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # AFTER_ED: 80-9F (above: surrogates)
    1, 1, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # AFTER_F0: 90-BF (below: overlong)
    1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,  # AFTER_F4: 80-8F (above: past U+10FFFF)
])  # fmt: skip

# The validator's own copy: a state's row packed into one integer, class 0 in the lowest nibble.
PACKED: Final = (
    0x18473635211110,  # ACCEPT
    0x11111111111111,  # REJECT
    0x11111111110001,  # TAIL1
    0x11111111112221,  # TAIL2
    0x11111111113331,  # TAIL3
    0x11111111112111,  # AFTER_E0
    0x11111111111221,  # AFTER_ED
    0x11111111113311,  # AFTER_F0
    0x11111111111131,  # AFTER_F4
)
SHIFT: Final = tuple(4 * CLASS[byte] for byte in range(256))
"""Where each byte's column sits in a packed row."""

# The encoder's table, a row per sequence length: the last value it holds, its lead's marker.
FORMS: Final = ((0x7F, 0x00), (0x7FF, 0xC0), (0xFFFF, 0xE0), (0x10FFFF, 0xF0))


def step(state: int, value: int, byte: int) -> tuple[int, int]:
    """Return the DFA's (state, value so far) after `byte`."""
    kind = CLASS[byte]
    # A lead brings its own bits, each continuation six more below those read so far.
    value = byte & LEAD_BITS[kind] if state == ACCEPT else (value << 6) | (byte & 0x3F)
    return TRANSITIONS[state * CLASSES + kind], value


def pieces(data: bytes, start: int = 0) -> tuple[list[tuple[int, int, int]], int]:
    """Return the sequences of `data` from `start` as (start, end, value), value -1 for an
    ill-formed maximal subpart; and where a sequence the input ends inside begins (len(data)
    if none does)."""
    found = []
    state, value, begun = ACCEPT, 0, start
    index = start
    while index < len(data):
        after, value = step(state, value, data[index])
        if after == REJECT:
            if state == ACCEPT:  # the byte begins nothing: a subpart of its own
                found.append((index, index + 1, -1))
                index += 1
            else:  # the byte cannot continue: the subpart ends before it, which is read again
                found.append((begun, index, -1))
            state, value, begun = ACCEPT, 0, index
            continue
        index += 1
        if after == ACCEPT:
            found.append((begun, index, value))
            begun = index
        state = after
    return found, (begun if state != ACCEPT else len(data))


def decode_error(data: bytes, start: int, end: int, truncated: bool) -> UnicodeDecodeError:
    """Return the strict decoder's error for the subpart data[start:end]."""
    reason = "unexpected end of data" if truncated else "invalid start or continuation"
    return UnicodeDecodeError("utf-8", data, start, end, reason)


class Subject:
    """A conformant UTF-8 codec with every capability, driven by a transition table."""

    def decode(self, data: bytes) -> str:
        """Return the text of well-formed input; UnicodeDecodeError at the first ill-formed
        subpart, its start and end the subpart's."""
        found, cut = pieces(data)
        text = []
        for start, end, value in found:
            if value < 0:
                raise decode_error(data, start, end, False)
            text.append(chr(value))
        if cut < len(data):
            raise decode_error(data, cut, len(data), True)
        return "".join(text)

    def decode_replace(self, data: bytes) -> str:
        """Return the text with one U+FFFD for each ill-formed maximal subpart."""
        found, cut = pieces(data)
        text = [REPLACEMENT if value < 0 else chr(value) for _, _, value in found]
        return "".join(text) + (REPLACEMENT if cut < len(data) else "")

    def validate(self, data: bytes) -> bool:
        """Return True for well-formed input (True for b""), from the packed rows alone."""
        state = ACCEPT
        for byte in data:
            state = (PACKED[state] >> SHIFT[byte]) & 0xF
            if state == REJECT:
                return False
        return state == ACCEPT

    def encode(self, text: str) -> bytes:
        """Return the UTF-8 of `text`; UnicodeEncodeError for a surrogate (RFC 3629 §3), its
        start the first surrogate of the run and its end the run's end (as CPython's)."""
        out = bytearray()
        for index, character in enumerate(text):
            value = ord(character)
            if 0xD800 <= value <= 0xDFFF:
                end = index + 1
                while end < len(text) and 0xD800 <= ord(text[end]) <= 0xDFFF:
                    end += 1
                raise UnicodeEncodeError("utf-8", text, index, end, "surrogates not allowed")
            length = next(n for n, (last, _) in enumerate(FORMS) if value <= last)
            out.append(FORMS[length][1] | (value >> (6 * length)))
            for shift in range(length - 1, -1, -1):
                out.append(0x80 | ((value >> (6 * shift)) & 0x3F))
        return bytes(out)

    def incremental_decoder(self) -> Incremental:
        """Return a fresh strict decoder that is fed in chunks."""
        return Incremental()


class Incremental:
    """A strict incremental decoder: carries the DFA's state, its value and the bytes of the
    unfinished sequence from one chunk to the next."""

    def __init__(self) -> None:
        self.state = ACCEPT
        self.value = 0
        self.pending = b""

    def decode(self, chunk: bytes, final: bool = False) -> str:
        """Return the characters `chunk` completes; UnicodeDecodeError at the first error, its
        offsets counted from the first byte held back before `chunk` (as CPython's)."""
        data = self.pending + chunk
        held = len(self.pending)
        text = []
        state, value = self.state, self.value
        begun = 0
        index = held
        while index < len(data):
            after, value = step(state, value, data[index])
            if after == REJECT:
                self.state, self.value, self.pending = ACCEPT, 0, b""
                end = index + 1 if state == ACCEPT else index
                raise decode_error(data, begun, end, False)
            index += 1
            if after == ACCEPT:
                text.append(chr(value))
                begun = index
            state = after
        if final and state != ACCEPT:
            self.state, self.value, self.pending = ACCEPT, 0, b""
            raise decode_error(data, begun, len(data), True)
        self.state, self.value, self.pending = state, value, data[begun:]
        return "".join(text)

    def getstate(self) -> tuple[bytes, int]:
        """Return (the bytes held back, 0), as `codecs.IncrementalDecoder.getstate` does."""
        return self.pending, 0
