"""Programs that speak utf8cert's line protocol (harness/PROTOCOL.md) and answer one fixed way,
written out by hand here: `python tests/support/scripted_programs.py MODE`.

- inapplicable: offers every capability and answers `inapplicable` to every request;
- beyond: a decoder that returns the value 0x110000 for every input, as glibc's mbrtowc does
  for F4 90 80 80.
"""

from __future__ import annotations

import sys

HANDSHAKE = "utf8cert-protocol 1 decode replace validate encode incremental"


def answer(mode: str, request: str) -> str:
    """Return the answer line of `mode` to one request line."""
    if mode == "inapplicable":
        return "inapplicable this program answers nothing"
    if request.startswith("decode "):
        return "ok 00110000"
    return "inapplicable only decode answers"


def main() -> None:
    """Write the handshake, then one answer a request until stdin closes."""
    mode = sys.argv[1]
    print("utf8cert-protocol 1 decode" if mode == "beyond" else HANDSHAKE, flush=True)
    for line in sys.stdin:
        print(answer(mode, line.rstrip("\n")), flush=True)


if __name__ == "__main__":
    main()
