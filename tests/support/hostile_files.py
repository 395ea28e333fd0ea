"""Hypothesis strategies of hostile input files: vector YAML and baseline JSON, random, mutated
from a good file one field at a time, or made to hurt a loader (deep, aliased, tagged, huge,
not UTF-8)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import yaml
from hypothesis import strategies as st

from support.user_vectors import EXTRA_VECTOR

TEMPLATE: dict[str, Any] = yaml.safe_load(EXTRA_VECTOR)
"""A loadable vector file, as plain data, to mutate one field at a time."""

plain = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(["E2 82 AC", "C0 AF", "U+20AC", "U+D800", "must", "truncated", "", "00"]),
)
values = st.recursive(
    plain,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
TAGS = [
    "!!python/object:os.system",
    "!!python/object/apply:os.system",
    "!!python/name:os.system",
    "!!binary",
    "!!timestamp",
    "!!set",
    "!!omap",
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!str",
    "!mine",
    "!",
]


def paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Yield the path of every value in plain data (the root's is ())."""
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, (*path, index))


@st.composite
def mutated_files(draw: st.DrawFn) -> bytes:
    """Return the template file with one value replaced by a random one (or removed)."""
    document = copy.deepcopy(TEMPLATE)
    path = draw(st.sampled_from(list(paths(document))[1:]))
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    if draw(st.booleans()) and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(values)
    return yaml.safe_dump(document, allow_unicode=True).encode("utf-8")


@st.composite
def adversarial_files(draw: st.DrawFn) -> bytes:
    """Return a file made to hurt a YAML loader: deep, aliased, tagged, huge, not UTF-8."""
    depth = draw(st.integers(min_value=1, max_value=60_000))
    scalar = draw(st.sampled_from(["1", "x", "''", "2001-13-45", "0xZZ", "9" * 5000, "aGk=", "~"]))
    tag = draw(st.sampled_from(TAGS))
    text = draw(
        st.sampled_from(
            [
                "[" * depth + "]" * depth,
                "{a: " * depth + "b" + "}" * depth,
                "".join(f"{'  ' * level}- \n" for level in range(min(depth, 400))),
                f"a: &x [{scalar}, {scalar}]\nb: [*x, *x]\nc: *x\n",
                f"theme: {tag} {scalar}\n",
                f"theme: {tag} [{scalar}]\n",
                f"notes: {tag} {{a: {scalar}}}\n",
                f"<<: {{theme: {scalar}}}\n",
                f"theme: {scalar}\n---\ntheme: {scalar}\n",
                "theme: " + "x" * depth + "\n",
                f"? [{scalar}]\n: {scalar}\n",
                f"%YAML 1.1\n---\ntheme: {scalar}\n",
            ]
        )
    )
    data = text.encode("utf-8")
    if draw(st.booleans()):  # bytes that are not UTF-8, or not text, somewhere in it
        where = draw(st.integers(min_value=0, max_value=len(data)))
        data = data[:where] + draw(st.binary(min_size=1, max_size=8)) + data[where:]
    return data


vector_files = st.one_of(
    mutated_files(),
    adversarial_files(),
    st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.binary(max_size=200),
)


BASELINE_TEMPLATE = {
    "utf8cert-baseline": 2,
    "codec": "codec:utf-8",
    "profile": None,
    "deviations": [
        {
            "vector": "sec-1",
            "variant": "as-is",
            "capability": "decode",
            "level": "must",
            "what": "accepted ill-formed input",
        }
    ],
}
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats()
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def mutated_baselines(draw: st.DrawFn) -> bytes:
    """Return the template baseline with one field replaced by a random JSON value, or gone."""
    document = copy.deepcopy(BASELINE_TEMPLATE)
    deviation = document["deviations"][0]  # type: ignore[index]
    parent = draw(st.sampled_from([document, deviation]))
    key = draw(st.sampled_from(sorted(parent)))
    if draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(json_values)
    return json.dumps(document).encode("utf-8")


@st.composite
def adversarial_baselines(draw: st.DrawFn) -> bytes:
    """Return bytes made to hurt a JSON loader: deep, huge numbers, not UTF-8, not JSON."""
    depth = draw(st.integers(min_value=1, max_value=200_000))
    text = draw(
        st.sampled_from(
            [
                "[" * depth + "]" * depth,
                '{"a": ' * depth + "1" + "}" * depth,
                '{"utf8cert-baseline": ' + "9" * (depth % 6000 + 1) + "}",
                '{"utf8cert-baseline": 2, "deviations": [' + "[]," * (depth % 3000) + "[]]}",
                '{"utf8cert-baseline": true, "deviations": []}',
                '{"utf8cert-baseline": 2, "deviations": [], "codec": "' + "[" * depth + '"}',
                '{"utf8cert-baseline": 2, "deviations": NaN}',
                '{"utf8cert-baseline": 2, "deviations": [',
            ]
        )
    )
    data = text.encode("utf-8")
    if draw(st.booleans()):
        where = draw(st.integers(min_value=0, max_value=len(data)))
        data = data[:where] + draw(st.binary(min_size=1, max_size=8)) + data[where:]
    return data


baselines = st.one_of(
    mutated_baselines(), adversarial_baselines(), json_values.map(lambda v: json.dumps(v).encode())
)
