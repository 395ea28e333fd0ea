"""`utf8cert fuzz`'s boundary: the OS sandbox of the codec's processes, the judge out of their
reach (harness/fuzzing/judge.py), and the words every output names that boundary with."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from utf8cert.harness.codec.interface import Codec
    from utf8cert.harness.fuzzing.campaign import Campaign
    from utf8cert.harness.fuzzing.judge import Judge


def configure_sandbox(arguments: argparse.Namespace) -> None:
    """Set the OS sandbox of the codec's processes from the options; UsageFailure (one line) if
    a writable path does not exist, or a sandbox is required and there is none or
    --in-process asks for none."""
    from utf8cert.harness.cli.main import UsageFailure
    from utf8cert.harness.codec import sandbox

    try:
        sandbox.configure(
            arguments.sandbox_writable, arguments.require_sandbox, arguments.sandbox_env
        )
    except sandbox.SandboxError as error:
        raise UsageFailure(str(error)) from None
    if arguments.require_sandbox and arguments.in_process:
        raise UsageFailure("--require-sandbox: --in-process runs the codec in no sandbox")


def judge_of(campaign: Campaign, codec: Codec) -> Judge:
    """Return the judge of a campaign judged apart, asking `codec` (in a sandboxed child) what
    the codec's processes did not answer."""
    from utf8cert.harness.fuzzing.judge import Judge

    return Judge(
        codec,
        campaign.artifacts,
        capabilities=campaign.capabilities,
        fail_on=campaign.fail_on,
        keep_going=campaign.keep_going,
        known=campaign.known,
        profile=campaign.profile,
        max_len=campaign.max_len,
        found=lambda: None,  # the driver's to set: it stops the campaign
    )


def campaign_boundary(campaign: Campaign) -> str:
    """Return what keeps the codec from the judge, as every output of the campaign names it
    (before the campaign starts: the sandbox its codec's processes will get here)."""
    from utf8cert.harness.fuzzing.workers import IN_PROCESS_JUDGE, apart_boundary

    return IN_PROCESS_JUDGE if campaign.in_process else apart_boundary()


def judge_boundary(judge: Judge, before: str) -> str:
    """Return the boundary the campaign's processes ran behind, as they were started."""
    return judge.boundary or before
