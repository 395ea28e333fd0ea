"""A program whose strings are UTF-16, as a JavaScript or Java encoder's are, speaking utf8cert's
line protocol (harness/PROTOCOL.md) version 2 and declaring `strings=utf-16`:
`python tests/codec/utf16_program.py`.

Its encoder builds a UTF-16 string of the code points it is sent, as String.fromCodePoint does
(a high surrogate followed by a low one becomes the character they encode), and writes it as
UTF-8 with U+FFFD for a lone surrogate, as TextEncoder does. So, asked D83D DE00, it would write
F0 9F 98 80, the answer a check would call "joined a surrogate pair": utf8cert must never ask it
that. It exits when asked U+2603, so that a crash can be placed among requests.
"""

from __future__ import annotations

import sys


def utf16_string(values: list[int]) -> str:
    """Return the code points as a UTF-16 string holds them: pairs joined, lone ones kept."""
    units = "".join(map(chr, values)).encode("utf-16-le", "surrogatepass")
    return units.decode("utf-16-le", "surrogatepass")


def answer(request: str) -> str:
    """Return the answer to one request line (without its id)."""
    operation, _, field = request.partition(" ")
    if operation != "encode":
        return f"crash unknown request {operation}"
    data = bytes.fromhex("" if field == "-" else field)
    values = [int.from_bytes(data[i : i + 4], "big") for i in range(0, len(data), 4)]
    if 0x2603 in values:
        sys.exit(3)
    text = utf16_string(values)
    written = b"".join(
        "\ufffd".encode() if "\ud800" <= char <= "\udfff" else char.encode() for char in text
    )
    return f"ok {written.hex() or '-'}"


def main() -> None:
    """Write the handshake, then one answer a request line until stdin closes."""
    print("utf8cert-protocol 2 encode strings=utf-16", flush=True)
    for line in sys.stdin:
        identifier, _, request = line.rstrip("\n").partition(" ")
        print(f"{identifier} {answer(request)}", flush=True)


if __name__ == "__main__":
    main()
