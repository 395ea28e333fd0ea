"""A decoder of every byte as its Latin-1 character, and nothing else: wrong on every input
with a byte above 7F (the base of tests/support/judge_patchers.py, which attack the judge)."""

from __future__ import annotations


class Latin1:
    """Decodes every byte as the character of the same number."""

    def decode(self, data: bytes) -> str:
        return data.decode("latin-1")
