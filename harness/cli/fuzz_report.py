"""What `utf8cert fuzz` reports beyond its text: the campaign as JSON (`--json`), why it stopped,
and what a stop while the findings were being made left behind."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from utf8cert.harness.check.behaviour import Behaviour, behaviour_of

if TYPE_CHECKING:
    from utf8cert.harness.fuzzing.campaign import Campaign
    from utf8cert.harness.fuzzing.driver import Progress
    from utf8cert.harness.fuzzing.triage import Triaged

FORMAT: Final = 1
MARKER: Final = "utf8cert-fuzz"


def stop_reason(status: int, progress: Progress, campaign: Campaign) -> str:
    """Return why the campaign stopped, in a word or two: 'finding', 'signal SIGINT',
    'max-time', 'runs', or 'libFuzzer status N' for a stop of libFuzzer's own (a crash it saw)."""
    from utf8cert.harness.fuzzing.campaign import INTERRUPTED
    from utf8cert.harness.fuzzing.differential import FINDING_EXIT

    if progress.interrupted is not None:
        return f"signal {progress.interrupted}"
    if status == FINDING_EXIT:
        return "finding"
    if status == 0:
        if campaign.max_time is not None and progress.elapsed >= campaign.max_time:
            return "max-time"
        return "runs" if campaign.runs is not None else "end"
    if status == INTERRUPTED:
        return "signal"
    return f"libFuzzer status {status}"


def _finding(item: Triaged) -> dict[str, Any]:
    """Return one finding as JSON: its behaviour, difference, input and files."""
    from utf8cert.harness.fuzzing.finding import reproducer

    finding = item.finding
    assert finding is not None and item.vector_file is not None
    difference = finding.difference
    behaviour = behaviour_of(difference)
    return {
        "name": finding.stem,
        "behaviour": str(behaviour),
        "behaviour_id": behaviour.id,
        "capability": difference.capability,
        "what": difference.what,
        "level": difference.level,
        "capabilities": finding.capabilities,
        "input": finding.data.hex().upper(),
        "length": len(finding.data),
        "vector_file": str(item.vector_file),
        "input_file": str(item.vector_file.with_suffix(".bin")),
        "reproduce": reproducer(finding),
    }


def fuzz_json(
    campaign: Campaign,
    progress: Progress,
    found: Sequence[Triaged],
    reason: str,
    exit_status: int,
    *,
    boundary: str,
    problems: Sequence[str] = (),
    explained: Sequence[tuple[Path, Sequence[Behaviour]]] = (),
) -> str:
    """Return the campaign as a JSON document: the codec, its findings (and the inputs that
    did not reproduce), executions, seconds, corpus, why it stopped and the exit status."""
    document = {
        MARKER: FORMAT,
        "codec": campaign.spec,
        "profile": campaign.profile,
        "fail_on": campaign.fail_on,
        "findings": [_finding(item) for item in found if item.finding is not None],
        "unreproduced": [
            {"input_file": str(item.source), "problem": item.problem}
            for item in found
            if item.finding is None
        ],
        "executions": progress.executions,
        "seconds": round(progress.elapsed, 3),
        "corpus": progress.corpus,
        "seed_pass_only": not progress.mutating,
        "stop": reason,
        "artifacts": str(campaign.artifacts),
        "exit_status": exit_status,
        "boundary": boundary,
        "judge": "the codec's own process (--in-process: the codec is trusted)"
        if campaign.in_process
        else "utf8cert's own process, out of the codec's reach",
        "judge_problems": list(problems),
        "explained": [
            {"input_file": str(path), "root_causes": [str(behaviour) for behaviour in causes]}
            for path, causes in explained
        ],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _left(campaign: Campaign) -> list[Path]:
    """Return the inputs a campaign left to be made findings: pending/ and crash files."""
    from utf8cert.harness.fuzzing.differential import PENDING
    from utf8cert.harness.fuzzing.triage import LIBFUZZER_ARTIFACTS

    pending = sorted((campaign.artifacts / PENDING).glob("*.bin"))
    crashes = sorted(
        path
        for path in campaign.crashes.glob("*")
        if path.is_file() and path.name.startswith(LIBFUZZER_ARTIFACTS)
    )
    return pending + crashes


def stopped_making_findings(reason: str, campaign: Campaign, found: Sequence[Triaged]) -> str:
    """Return what a stop while the findings were being made left, as it is on disk: the
    findings written, and the inputs kept for the next campaign in the same artifacts."""
    made = [item.vector_file.name for item in found if item.vector_file is not None]
    left = _left(campaign)
    written = f"{len(made)} finding(s) written ({', '.join(made)})" if made else "no finding made"
    kept = (
        f"{len(left)} input(s) kept under {campaign.artifacts} for the next campaign there"
        if left
        else "no input left"
    )
    return f"utf8cert fuzz: stopped by {reason} while making findings: {written}; {kept}"
