"""The identity of a suite of vectors: the SHA-256 digest of their canonical form, and their count.

A report names the suite it was judged by, so that a certificate made on a gutted or edited suite
(76 vectors instead of 593, or an expectation changed) cannot pass for one made on the release's:
two runs with the same digest asked the same questions and expected the same answers.

The canonical form is the JSON export (export.py): every field of every vector, files in load
order, vectors in file order, keys in a fixed order, a file named by its name alone (so that the
digest does not depend on where the package is installed). The user's own vectors are in it too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from utf8cert.harness.vectors.export import export_json
from utf8cert.harness.vectors.model import VectorSet


@dataclass(frozen=True)
class Suite:
    """The vectors a run asked: the digest of their canonical form, and how many there are."""

    sha256: str
    """The SHA-256 of the JSON export of the vectors, in lower-case hex."""
    vectors: int

    def __str__(self) -> str:
        """Return '593 vectors asked, SHA-256 1856…': the count and the whole digest."""
        noun = "vector" if self.vectors == 1 else "vectors"
        return f"{self.vectors} {noun} asked, SHA-256 {self.sha256}"


_last: list[tuple[VectorSet, Suite]] = []
"""The last set digested, and its identity: `check` names the suite of one set twice (the
INCOMPLETE report written first, the run's report), and a set is immutable."""


def suite_of(vectors: VectorSet) -> Suite:
    """Return the identity of `vectors` (of an empty set: the digest of its empty export, 0)."""
    if _last and _last[0][0] is vectors:
        return _last[0][1]
    digest = hashlib.sha256(export_json(vectors).encode("ascii")).hexdigest()
    _last[:] = [(vectors, Suite(digest, len(vectors)))]
    return _last[0][1]
