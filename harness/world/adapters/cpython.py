"""CPython's utf-8 codec in the one mode that is no `codec:` spec: its incremental decoder alone."""

from __future__ import annotations

import codecs
from typing import Any


class Incremental:
    """Only `incremental_decoder`: codecs.getincrementaldecoder('utf-8') with errors='strict'."""

    incremental_mode = "strict"

    def incremental_decoder(self) -> Any:
        """Return a fresh strict incremental decoder."""
        return codecs.getincrementaldecoder("utf-8")("strict")
