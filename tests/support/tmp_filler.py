"""A correct UTF-8 decoder (CPython's) that first fills its temporary directory ($TMPDIR) with
TMP_FILL_MIB MiB (default 3072) in one file, so that a sandbox whose /tmp is memory outside the
child's limit would hold it: the fill must end as a `memory` failure, not a certificate (issue
39). The file is removed when the fill fails, or once it is done."""

from __future__ import annotations

import os
import tempfile

CHUNK = b"\0" * (1 << 20)


def decode(data: bytes) -> str:
    """Return the text of well-formed UTF-8, after the fill; OSError when the fill fails."""
    wanted = int(os.environ.get("TMP_FILL_MIB", "3072"))
    with tempfile.TemporaryFile() as filler:
        for _ in range(wanted):
            filler.write(CHUNK)
        filler.flush()
    return data.decode("utf-8")
