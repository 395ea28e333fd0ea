"""The shipped vector files as released: each checked against its SHA-256 in `SHA256SUMS`.

A suite made smaller or weaker after the release (a file gutted, edited, removed, or one added)
would otherwise judge a codec by fewer or other questions and call it certified. So every file
the loader reads from the package (the vector files and the schemas, SHIPPED) must have the
digest `SHA256SUMS` records for it, shipped beside them, and that file must name no other: any
difference is a load error naming the file, not a smaller suite.

`SHA256SUMS` is in the format of coreutils' sha256sum ("<hex>  <name>" a line), so that
`sha256sum -c SHA256SUMS` checks an installed copy too. After changing a vector file, record the
new digests with `scripts/update-vector-digests` (tests/vectors/test_release_digests.py fails
until then).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Final

from utf8cert.harness.vectors.errors import VectorLoadError

PACKAGE: Final = "utf8cert.vectors"
SUMS: Final = "SHA256SUMS"
SHIPPED: Final = (".yaml", ".json")
"""The endings of the files whose digests are recorded: the vectors and the schemas."""
UPDATE: Final = "scripts/update-vector-digests"
_LINE: Final = re.compile(r"([0-9a-f]{64}) [ *]([^/\\]+)")


class AlteredRelease(VectorLoadError):
    """A shipped vector file that is not the release's; str() is the one line that names it."""

    def __init__(self, name: str, how: str) -> None:
        super().__init__(f"vectors/{name}", 1, "file", how)
        self.message = (
            f"the installed vectors differ from the release: vectors/{name} ({how}; reinstall "
            f"utf8cert, or in a checkout where a vector file was changed, run {UPDATE})"
        )

    def __str__(self) -> str:
        return self.message


def shipped(package: Traversable) -> dict[str, Traversable]:
    """Return the files of `package` whose digests are recorded, by name."""
    return {entry.name: entry for entry in package.iterdir() if entry.name.endswith(SHIPPED)}


def recorded(text: str) -> dict[str, str]:
    """Return the digest of each file `SHA256SUMS` names ({} for an empty text); AlteredRelease
    for a line that is not '<64 hex>  <name>'."""
    digests = {}
    for line in text.splitlines():
        found = _LINE.fullmatch(line)
        if found is None:
            raise AlteredRelease(SUMS, f"not a sha256sum line: {line[:60]!r}")
        digests[found[2]] = found[1]
    return digests


def check_release(package: Traversable, read: Iterable[tuple[str, bytes]]) -> None:
    """Return when every shipped file of `package` has the digest `SHA256SUMS` records, none
    is missing and none is added; `read` gives bytes already read (name, content), so that
    what is checked is what is loaded. AlteredRelease naming the first file that differs."""
    try:
        digests = recorded((package / SUMS).read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError):
        raise AlteredRelease(SUMS, "missing or unreadable") from None
    contents = dict(read)
    present = shipped(package)
    for name in sorted(digests.keys() | present.keys()):
        if name not in present:
            raise AlteredRelease(name, "missing")
        if name not in digests:
            raise AlteredRelease(name, f"not in {SUMS}")
        content = contents[name] if name in contents else present[name].read_bytes()
        if hashlib.sha256(content).hexdigest() != digests[name]:
            raise AlteredRelease(name, "its SHA-256 is not the one recorded")


def released_files() -> list[tuple[Traversable, bytes]]:
    """Return each shipped vector file (*.yaml, sorted by name) and its bytes, once every
    shipped file is checked against the release; AlteredRelease if one is not."""
    package = files(PACKAGE)
    vector_files = sorted(
        (entry for entry in package.iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )
    read = [(entry, entry.read_bytes()) for entry in vector_files]
    check_release(package, ((entry.name, content) for entry, content in read))
    return read
