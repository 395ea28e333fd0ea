"""The user documentation as the tests read it: its pages, their shell commands in order, the
codec the README shows, and the commands that set up a machine rather than use utf8cert."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

REPOSITORY: Final = Path(__file__).resolve().parents[2]
README: Final = REPOSITORY / "README.md"
PAGES: Final = (
    README,
    REPOSITORY / "docs" / "guide.md",
    REPOSITORY / "docs" / "ci.md",
    REPOSITORY / "docs" / "adapters.md",
)
"""The pages whose every shell command tests/cli/test_readme_commands.py runs, in order."""

ELSEWHERE: Final = {
    "docs/fuzzing.md": "tests/fuzzing/: its campaigns run for minutes; the fuzzing tests run its "
    "target and build as written",
    "docs/mutation.md": "a benchmark of hours (bench/mutants.py), not a user's command",
}
"""The docs/ pages with shell commands that are not run in order here, and why."""

WORKFLOW: Final = REPOSITORY / "examples" / "ci" / "utf8cert.yml"
"""The GitHub Actions workflow a user copies into a repository."""

SET_UP_ONLY: Final = {
    "python -m pip install -e '.[dev]'": ".ci/run runs the two set-up commands",
    "python -m pytest": ".ci/run (and it would run this test again)",
    "scripts/install-runtimes": ".ci/run: apt-get and npm, for the whole machine",
}
"""What the README shows for setting up this checkout and the machine."""

USER_INSTALL: Final = (
    "python -m pip install .",
    "python -m pip wheel --no-deps -w dist .",
    "python -m pip install dist/utf8cert-*.whl",
    "python -m pip install '.[fuzz]'",
)
"""The README's installs without the dev extra, each run in a clone into a fresh virtual
environment by tests/cli/test_user_install.py."""

BLOCK: Final = re.compile(r"^```(sh|toml)\n(.*?)^```", re.MULTILINE | re.DOTALL)
COMMENT: Final = re.compile(r"\s+#\s.*$")
USER_CODEC: Final = re.compile(r"^```python\n# mypkg/codec\.py\n(.*?)^```", re.M | re.S)


def steps(page: Path) -> list[tuple[str, str]]:
    """Return ('sh', command) for each shell command and ('toml', text) for each TOML block of
    `page`, in order; continued lines joined, comments dropped, `a && b` as two commands."""
    found: list[tuple[str, str]] = []
    for kind, body in BLOCK.findall(page.read_text(encoding="utf-8")):
        if kind == "toml":
            found.append((kind, body))
            continue
        for line in body.replace("\\\n", " ").splitlines():
            command = " ".join(COMMENT.sub("", line).split())
            found += [("sh", part.strip()) for part in command.split("&&") if part.strip()]
    return found


def commands(page: Path) -> list[str]:
    """Return the shell commands of `page`, in order."""
    return [text for kind, text in steps(page) if kind == "sh"]


def user_codec() -> str:
    """Return the source of the README's `mypkg/codec.py`, the codec its commands certify."""
    found = USER_CODEC.search(README.read_text(encoding="utf-8"))
    assert found, "README.md shows no ```python block starting '# mypkg/codec.py'"
    return found.group(1)
