"""A protocol program (version 2) that decodes as CPython's utf-8 codec does and says where each
error ends and what each call of its incremental decoder returned, in the answer's optional
fields (harness/PROTOCOL.md): `python extent_program.py MODE`. Written against the document
alone, with nothing of utf8cert's.

MODE:
- right: the end CPython gives (the end of the maximal subpart), and the calls as they are;
- one-byte: every error one byte long (`end` = offset + 1), as a decoder that reports only
  where it stopped does: wrong wherever the maximal subpart is longer;
- held: its incremental decoder keeps the last character of each call but the final one back
  until the next call (a one-character lookahead), and says so in `returned=`;
- silent: the answers of `right` without any field, as a program written before the fields.

With a second word `exit-on-c0`, it exits (status 3) on any request whose bytes hold C0, so
that utf8cert asks the vectors after it of copies of the program (check/ahead.py).
"""

from __future__ import annotations

import codecs
import sys


def refused(mode: str, offset: int, end: int, message: str) -> str:
    """Return a refusal at `offset`, with the end the mode gives."""
    if mode == "silent":
        return f"refused {offset} {message}"
    if mode == "one-byte":
        end = offset + 1
    return f"refused end={end} {offset} {message}"


def decode(mode: str, data: bytes) -> str:
    """Return the answer to a strict decode of `data`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return refused(mode, error.start, error.end, error.reason)
    return "ok " + (text.encode("utf-32-be").hex() or "-")


def incremental(mode: str, final_empty: bool, chunks: list[bytes]) -> str:
    """Return the answer to an incremental decode of `chunks` (see the protocol document)."""
    feeds = [(chunk, False) for chunk in chunks]
    if final_empty or not feeds:
        feeds.append((b"", True))
    else:
        feeds[-1] = (feeds[-1][0], True)
    decoder = codecs.getincrementaldecoder("utf-8")()
    text, kept, fed = "", "", 0
    counts: list[int] = []  # characters returned in all after each call
    for chunk, final in feeds:
        held = len(decoder.getstate()[0])
        try:
            piece = kept + decoder.decode(chunk, final)
        except UnicodeDecodeError as error:
            offset = fed - held + error.start
            answer = refused(mode, offset, offset + error.end - error.start, error.reason)
            return (
                answer
                if mode != "held"
                else answer.replace(
                    "refused ", f"refused returned={','.join(map(str, counts)) or '-'} ", 1
                )
            )
        fed += len(chunk)
        kept = ""
        if mode == "held" and not final:
            piece, kept = piece[:-1], piece[-1:]
        text += piece
        counts.append(len(text))
    value = text.encode("utf-32-be").hex() or "-"
    if mode == "silent" or len(counts) < 2:
        return f"ok {value}"
    return f"ok returned={','.join(map(str, counts))} {value}"


def as_bytes(field: str) -> bytes:
    """Return the bytes of a hex field ('' for '-' and for incremental's flag)."""
    return b"" if field in ("-", "0", "1") else bytes.fromhex(field)


def answer(mode: str, request: str) -> str:
    """Return the answer line (without id) to one request line (without id)."""
    operation, *fields = request.split(" ")
    if operation == "decode":
        return decode(mode, as_bytes(fields[0]))
    chunks = [as_bytes(field) for field in fields[1:]]
    return incremental(mode, fields[0] == "1", chunks)


def main() -> None:
    mode, exit_on_c0 = sys.argv[1], sys.argv[2:] == ["exit-on-c0"]
    sys.stdout.write("utf8cert-protocol 2 decode incremental\n")
    sys.stdout.flush()
    for line in sys.stdin:
        identifier, _, request = line.rstrip("\r\n").partition(" ")
        if exit_on_c0 and b"\xc0" in b"".join(map(as_bytes, request.split(" ")[1:])):
            sys.exit(3)
        sys.stdout.write(f"{identifier} {answer(mode, request)}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
