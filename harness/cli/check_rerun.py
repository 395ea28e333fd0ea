"""How a difference found by `utf8cert check` is asked again: the options its reproducer carries,
and the note an in-process codec that kills the interpreter leaves behind."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from utf8cert.harness.check.seeded_inputs import SEED
from utf8cert.harness.cli.check_options import DEFAULT_TIMEOUT
from utf8cert.harness.codec.children import DEFAULT_MEMORY_MB

if TYPE_CHECKING:
    from utf8cert.harness.check.breaker import Note
    from utf8cert.harness.reports.explain import Rerun
    from utf8cert.harness.vectors.model import VectorSet


def rerun_of(
    arguments: argparse.Namespace,
    vectors: VectorSet,
    profile: str | None,
    source: str | None,
    isolated: bool,
) -> Rerun:
    """Return what reproduces a difference of this run: spec, isolation (`isolated`: whether
    the codec ran in a child process; else the reproducer says --in-process), timeout and
    memory (when not the defaults), profile, the user's vector files, the vectors and depth the
    run was restricted to, the seeded pass's seed (when not the default), and the file the one
    input was read from (`source`; not standard input, which cannot be read again)."""
    from utf8cert.harness.reports.explain import Rerun, user_vector_ids

    return Rerun(
        arguments.spec or "codec:utf-8",
        isolate=isolated,
        timeout=None if arguments.timeout == DEFAULT_TIMEOUT else arguments.timeout,
        profile=profile,
        vectors=tuple(arguments.vectors),
        user_vectors=user_vector_ids(vectors),
        input_file=None if source in (None, "-") else source,
        memory=_memory(arguments),
        only=tuple(arguments.vector),
        depth=arguments.depth,
        writable=tuple(arguments.sandbox_writable),
        environment=tuple(arguments.sandbox_env),
        seed=None if arguments.seed == SEED else arguments.seed,
    )


def _memory(arguments: argparse.Namespace) -> int | None:
    """Return the --memory a reproducer must carry: None for the default."""
    return None if arguments.memory == DEFAULT_MEMORY_MB else int(arguments.memory)


def fatal_note(arguments: argparse.Namespace, profile: str | None) -> Note:
    """Return the note an in-process codec that kills the interpreter leaves on stderr: the
    vector and capability asked, and the command that asks them again in a child process (the
    default: the command names no isolation option)."""
    import shlex

    from utf8cert.harness.reports.explain import Rerun

    timeout = None if arguments.timeout == DEFAULT_TIMEOUT else arguments.timeout
    rerun = Rerun(
        arguments.spec or "codec:utf-8", True, timeout, profile, memory=_memory(arguments)
    )
    command = ["utf8cert", "check", rerun.spec, *rerun.options()]
    command += [word for path in arguments.vectors for word in ("--vectors", path)]

    def note(vector: str, capability: str) -> str:
        again = shlex.join([*command, "--vector", vector])
        return (
            f"utf8cert: the codec was asked vector {vector} on {capability} in this process and "
            f"took it down; in a child process that is a finding: {again}"
        )

    return note
