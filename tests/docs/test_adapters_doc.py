"""docs/adapters.md's table of the configurations issue 43 added names each of them once, in six
ecosystems, with the API and options its catalog entry says it drives (`utf8cert adapters`
prints the same description), so the page cannot drift from what the adapters do.
"""

from __future__ import annotations

import re
from pathlib import Path

from bench.bench_world_configs import NEW
from utf8cert.harness.world.catalog import registry

ADAPTERS = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"
ROW = re.compile(r"^\| `adapter:([\w.-]+)` \| ([^|]+) \| (.+) \|$", re.MULTILINE)


def rows() -> list[tuple[str, str, str]]:
    """Return (name, ecosystem, description) for each `adapter:NAME` row of the page's table."""
    return [(n, e.strip(), d.strip()) for n, e, d in ROW.findall(ADAPTERS.read_text("utf-8"))]


def test_the_table_lists_each_new_configuration_once_in_six_ecosystems() -> None:
    names = [name for name, _, _ in rows()]
    assert sorted(names) == sorted(NEW)
    assert len({ecosystem for _, ecosystem, _ in rows()}) == 6


def test_each_row_says_what_its_catalog_entry_says_it_drives() -> None:
    catalog = registry()
    wrong = {n: d for n, _, d in rows() if d != catalog[n].description}
    assert wrong == {}
