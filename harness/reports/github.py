"""A report as GitHub Actions workflow commands (`utf8cert check --github`): one annotation per
new behaviour, on the user's vector file and line of its simplest example.

    ::error file=tests/utf8/mine.yaml,line=12,title=utf8cert%3A ...::explanation
    ::error title=utf8cert%3A ...::explanation        (a vector shipped with utf8cert)

GitHub places an annotation beside the code only for a file of the repository, named from its
root: a user's file is named so (places.py), and a vector shipped with utf8cert is annotated on
no file, its message saying where it is (`utf8cert/vectors/NAME.yaml:LINE`).

A behaviour that fails the gate is an `error`; one below it a `warning` (should) or a `notice`
(may). The run's verdict is carried as the exit status carries it: an `error` for each capability
not certified (too few questions answered), one for a run stopped before its end, and one on the
baseline file for its deviations that no longer occur under --strict-baseline (a `notice`
without it).

Values are escaped as the workflow-command format requires: `%`, CR and LF everywhere, and `:`
and `,` in properties as well.
"""

from __future__ import annotations

from utf8cert.harness.check.behaviour import Group
from utf8cert.harness.reports.explain import explain
from utf8cert.harness.reports.places import builtin_place, in_repository
from utf8cert.harness.reports.view import View, plural


def escape_data(text: str) -> str:
    """Return a message escaped for a workflow command (%, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Return a property value escaped for a workflow command (%, CR, LF, ':' and ',')."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _user_file(path: str) -> str | None:
    """Return the path of a user's file from the repository's root, the `file` of its
    annotation (GitHub shows an annotation beside the code only for a file of the repository);
    None for a vector shipped with utf8cert, or a file outside the repository: its annotation
    then names no file, and its message says where the vector is."""
    return None if builtin_place(path) is not None else in_repository(path)


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
    file = None if vector is None else _user_file(vector.origin.file)
    if vector is not None and file is not None:
        properties[:0] = [f"file={escape_property(file)}", f"line={vector.origin.line}"]
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
    ] + _fixed(view)


def _fixed(view: View) -> list[str]:
    """Return the annotation of the baseline's deviations that no longer occur, on the baseline
    file: an `error` under --strict-baseline, which fails the run on them, else a `notice`
    ([] without a baseline, or when every known deviation still occurs)."""
    if view.baseline is None or not view.fixed:
        return []
    command = "error" if view.strict_baseline else "notice"
    fixed = plural(len(view.fixed), "known deviation")
    occur = "occurs" if len(view.fixed) == 1 else "occur"
    strict = " (--strict-baseline)" if view.strict_baseline else ""
    title = f"utf8cert: {fixed} of the baseline no longer {occur}{strict}"
    lines = ["update the baseline (utf8cert check --write-baseline FILE); no longer seen:"]
    lines += [
        f"{vector} [{capability}, {variant}]: {what}"
        for vector, variant, capability, what in view.fixed[:20]
    ]
    if len(view.fixed) > 20:
        lines.append(f"… and {len(view.fixed) - 20} more")
    properties = [f"title={escape_property(title)}"]
    file = in_repository(view.baseline.path)
    if file is not None:
        properties.insert(0, f"file={escape_property(file)}")
    message = escape_data("\n".join(lines))
    return [f"::{command} {','.join(properties)}::{message}"]


def workflow_commands(view: View) -> list[str]:
    """Return the verdict's errors (`verdict_errors`), then one workflow command per new
    behaviour ([] when the run is complete, certified and finds nothing new)."""
    return verdict_errors(view) + [annotation(view, each) for each in view.groups]
