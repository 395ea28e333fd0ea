"""Run a command as on a kernel without Landlock: `python -m support.no_landlock ARGV...`
installs a seccomp filter (utf8cert's own builder, harness/codec/seccomp.py) under which
landlock_create_ruleset fails with ENOSYS, as on Linux before 5.13, then executes ARGV; the
filter holds for everything ARGV starts."""

from __future__ import annotations

import errno
import os
import sys

from utf8cert.harness.codec import seccomp


def main() -> None:
    """Install the filter and execute sys.argv[1:]; exit 125 with a line if either fails."""
    denied = {"landlock_create_ruleset": errno.ENOSYS}
    if seccomp.installer(seccomp.program(denied, local_sockets_only=False))() != 0:
        sys.exit("support.no_landlock: cannot install the seccomp filter")
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    main()
