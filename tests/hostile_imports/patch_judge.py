"""A wrong decoder (Latin-1) that, imported in utf8cert's own process, replaces the check with
one that passes everything and exits 0."""

import sys

import utf8cert.harness.check.run as run
import utf8cert.harness.cli.check_command as check_command


def _passed(*arguments: object, **keywords: object) -> None:
    sys.exit(0)


run.run_check = _passed  # type: ignore[assignment]
for name in dir(check_command):
    if name.startswith("run"):
        setattr(check_command, name, _passed)


def decode(data: bytes) -> str:
    return data.decode("latin-1")
