"""A report as GitHub Actions workflow commands (`utf8cert check --github`): one annotation per
new behaviour, on the vector file and line of its simplest example.

    ::error file=vectors/ill-formed-overlong.yaml,line=12,title=utf8cert%3A ...::explanation

A behaviour that fails the gate is an `error`; one below it a `warning` (should) or a `notice`
(may). The run's verdict is carried as the exit status carries it: an `error` for each capability
not certified (too few questions answered) and one for a run stopped before its end.

Values are escaped as the workflow-command format requires: `%`, CR and LF everywhere, and `:`
and `,` in properties as well.
"""

from __future__ import annotations

from pathlib import Path

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.reports.explain import explain
from utf8cert.harness.reports.view import View, plural


def escape_data(text: str) -> str:
    """Return a message escaped for a workflow command (%, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Return a property value escaped for a workflow command (%, CR, LF, ':' and ',')."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _relative(path: str) -> str:
    """Return `path` relative to the working directory when it lies under it (GitHub resolves
    annotation files against the workspace), else as it is."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


def annotation(view: View, each: Group) -> str:
    """Return the workflow command of one behaviour."""
    failing = {d.key for d in view.failing}
    command = (
        "error"
        if any(d.key in failing for d in each.differences)
        else "warning"
        if each.level != "may"
        else "notice"
    )
    example = each.example
    vector = view.vectors.get(example.vector)
    title = (
        f"utf8cert: {each.behaviour} ({plural(len(each.vectors), 'vector')}, "
        f"{each.level}) in {view.report.codec}"
    )
    lines = explain(example, vector, view.report.vectors.note, view.rerun, notes=False)
    lines.append(f"vectors: {' '.join(each.vectors)}")
    properties = [f"title={escape_property(title)}"]
    if vector is not None:
        properties[:0] = [
            f"file={escape_property(_relative(vector.origin.file))}",
            f"line={vector.origin.line}",
        ]
    message = escape_data("\n".join(lines))
    return f"::{command} {','.join(properties)}::{message}"


def verdict_errors(view: View) -> list[str]:
    """Return an `error` for a run stopped before its end and one per capability not certified
    ([] for a complete run whose capabilities are all certified)."""
    report, codec = view.report, view.report.codec
    errors = []
    if report.incomplete:
        title = f"utf8cert: INCOMPLETE run of {codec}"
        errors.append((title, view.gate()))
    if not report.subject:
        for capability, coverage in report.coverage.ordered():
            if capability in view.uncovered:
                title = f"utf8cert: {codec} not certified for {capability}"
                errors.append((title, f"{coverage.why_not_certified()}; {report.verdict()}"))
    return [
        f"::error title={escape_property(title)}::{escape_data(message)}"
        for title, message in errors
    ]


def workflow_commands(view: View) -> list[str]:
    """Return the verdict's errors (`verdict_errors`), then one workflow command per new
    behaviour ([] when the run is complete, certified and finds nothing new)."""
    return verdict_errors(view) + [annotation(view, each) for each in view.groups]
