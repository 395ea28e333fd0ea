"""Where things are, as the user's repository sees them: a report names a file of the user's by
its path from the repository's root (what GitHub resolves an annotation's `file` against), and a
vector shipped with utf8cert by its place in the package, never by the absolute path of an
install (site-packages, a virtual environment, a checkout elsewhere), which means nothing in a
pull request.

    repository_root() -> Path | None      GITHUB_WORKSPACE, else the cwd's git work tree
    in_repository(path) -> str | None     'vectors/mine.yaml' from that root, None if outside
    builtin_place(path) -> str | None     'utf8cert/vectors/boundaries.yaml' for a shipped file
    shown_origin(origin) -> str           the place a report prints for a vector's origin
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path, PurePath

from utf8cert.harness.vectors.load import BUILTIN_PACKAGE, builtin_files
from utf8cert.harness.vectors.model import Origin


def repository_root() -> Path | None:
    """Return the root of the repository the run is about: $GITHUB_WORKSPACE when it names a
    directory (GitHub Actions' checkout), else the nearest directory at or above the working
    directory holding `.git` (a directory, or a file in a worktree); None when there is none."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace and Path(workspace).is_dir():
        return Path(workspace).resolve()
    here = Path.cwd().resolve()
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return directory
    return None


def in_repository(path: str | PurePath, root: Path | None = None) -> str | None:
    """Return `path` relative to the repository's root (`root`, else `repository_root()`), in
    forward slashes; None when it lies outside, or there is no repository."""
    root = repository_root() if root is None else root
    if root is None:
        return None
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except (OSError, ValueError):
        return None


@cache
def _builtin_places() -> dict[str, str]:
    """Return each shipped vector file's path -> its place in the package."""
    package = BUILTIN_PACKAGE.replace(".", "/")
    return {str(entry): f"{package}/{entry.name}" for entry in builtin_files()}


def builtin_place(path: str) -> str | None:
    """Return 'utf8cert/vectors/NAME.yaml' for a vector file shipped with utf8cert (None for
    any other file, a user's)."""
    return _builtin_places().get(path)


def shown_origin(origin: Origin) -> str:
    """Return where a vector is written, as a report prints it: its place in utf8cert for a
    shipped vector, its path from the repository's root for a user's file inside it, else the
    path as it was given; then ':' and the line."""
    place = builtin_place(origin.file) or in_repository(origin.file) or origin.file
    return f"{place}:{origin.line}"
