"""User vector files, as a project would add with --vectors / --utf8-vectors."""

from __future__ import annotations

EXTRA_VECTOR = """\
schema_version: "1.0"
theme: extra
description: One more surrogate, for the baseline test.
sources: [RFC 3629 §3]
notes:
  surrogate:
    defect: A lone low surrogate, which RFC 3629 §3 forbids.
decode:
  - id: extra-1
    description: A lone low surrogate between A and B.
    source: RFC 3629 §3
    flags: [surrogate]
    bytes: "41 ED B0 80 42"
    valid: false
    errors:
      - {offset: 1, length: 1, kind: surrogate}
      - {offset: 2, length: 1, kind: unexpected-continuation}
      - {offset: 3, length: 1, kind: unexpected-continuation}
    replaced: [U+0041, U+FFFD, U+FFFD, U+FFFD, U+0042]
"""

HEADER = """\
schema_version: "1.0"
theme: mine
description: A user's own vectors.
sources: [RFC 3629 §4]
notes:
  odd:
    defect: Marks an odd case.
"""
"""The head of a user file (no vectors yet): its theme `mine` and one note, `odd`."""
