"""The harness is built in wings, and imports run one way: command line and plugin → fuzzing and
reports → check engine and the world (the shipped adapters and programs) → codecs and vectors →
`utf8cert.reference`. No module imports from a wing above its own, nor from a wing beside it
(harness/*/__init__.py says what each owns): the machinery that runs any codec (codec, vectors,
check) imports nothing of the world."""

from __future__ import annotations

import ast
import graphlib
import itertools
import re
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[1]

RANK: Final = {
    "reference": 0,
    "codec": 1,
    "vectors": 1,
    "check": 2,
    "world": 2,
    "reports": 3,
    "fuzzing": 3,
    "plugin": 4,
    "cli": 4,
}
"""Each wing's height: a module may import its own wing and any wing of a lower rank."""

NAME: Final = re.compile(r"utf8cert\.(reference|harness)(?:\.(\w+))?")


def wing_of(path: Path) -> str | None:
    """Return the wing a source file belongs to (None for the harness facade itself)."""
    relative = path.relative_to(ROOT)
    if relative.parts[0] == "reference":
        return "reference"
    return relative.parts[1] if len(relative.parts) > 2 else None


def imported(path: Path) -> list[tuple[int, str]]:
    """Return (line, module) for every utf8cert module a source file names: import statements
    anywhere (at the top, in functions, under TYPE_CHECKING) and module names in strings (a
    `python -m` command line, an importlib call), which are imports by other means."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            # `from .x import y` stays inside its own package; `from ..x` would leave it unseen.
            assert node.level <= 1, f"{path}:{node.lineno}: a relative import out of its package"
            if node.level == 1:
                continue
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [(node.lineno, match.group(0)) for match in NAME.finditer(node.value)]
    return found


def target_wing(module: str) -> str | None:
    """Return the wing a module name lies in, '' for the harness facade, None outside utf8cert."""
    match = NAME.match(module)
    if match is None:
        return None
    if match.group(1) == "reference":
        return "reference"
    return match.group(2) if match.group(2) in RANK else ""


SOURCES: Final = sorted([*ROOT.glob("reference/**/*.py"), *ROOT.glob("harness/*/**/*.py")])


PACKAGES: Final = ("reference", "harness", "vectors", "corpus")
"""The directories installed as utf8cert's packages (pyproject.toml's package-dir)."""


def module_name(path: Path, root: Path) -> str:
    """Return a source file's installed name ('utf8cert.harness.check.compare'); a package's
    __init__.py is the package's name."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(("utf8cert", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Return each utf8cert module under `root` and the utf8cert modules it imports, wherever the
    import stands (at the top, in a function, under TYPE_CHECKING): absolute and relative
    `import` and `from` statements (`from package import module` imports the module), and
    importlib's `import_module` of a name spelled out in the call ('...', f"{__package__}.x")."""
    paths = {
        module_name(path, root): path for top in PACKAGES for path in (root / top).rglob("*.py")
    }
    modules = set(paths)
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            named |= names_imported(node, name, package, modules)
        graph[name] = named - {name}
    return graph


def names_imported(node: ast.AST, name: str, package: str, modules: set[str]) -> set[str]:
    """Return the modules among `modules` that one syntax node of module `name` (in `package`)
    imports; the empty set for a node that is no import."""
    found: set[str] = set()
    if isinstance(node, ast.Import):
        found = {alias.name for alias in node.names}
    elif isinstance(node, ast.ImportFrom):
        base = package.rsplit(".", node.level - 1)[0] if node.level else ""
        source = ".".join(part for part in (base, node.module) if part)
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            found.add(submodule if submodule in modules else source)
    elif isinstance(node, ast.Call) and node.args and _calls_import_module(node.func):
        spelled = _spelled_out(node.args[0], {"__name__": name, "__package__": package})
        found = {spelled} if spelled else set()
    return found & modules


def _calls_import_module(function: ast.expr) -> bool:
    """Return whether a call's function is importlib's import_module (imported or qualified)."""
    return (isinstance(function, ast.Name) and function.id == "import_module") or (
        isinstance(function, ast.Attribute) and function.attr == "import_module"
    )


def _spelled_out(argument: ast.expr, known: dict[str, str]) -> str | None:
    """Return the module name a call's argument spells out: a string, or an f-string of literal
    text and `__name__` or `__package__`; None for a name only known when the code runs."""
    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
        return argument.value
    if not isinstance(argument, ast.JoinedStr):
        return None
    text = ""
    for part in argument.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            text += part.value
        elif (
            isinstance(part, ast.FormattedValue)
            and isinstance(part.value, ast.Name)
            and part.value.id in known
        ):
            text += known[part.value.id]
        else:
            return None
    return text


def circle(graph: dict[str, set[str]]) -> list[str]:
    """Return a circle of imports, each module importing the next and the last the first again
    (['a', 'b', 'a']), or [] when the graph has none."""
    try:
        # The graph is each module's predecessors to the sorter: what must be imported first.
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return list(reversed(error.args[1]))
    return []


def test_every_harness_module_lies_in_a_wing() -> None:
    loose = [
        p.name for p in ROOT.glob("harness/*.py") if p.name not in {"__init__.py", "__main__.py"}
    ]
    assert loose == []
    assert {p.parent.name for p in ROOT.glob("harness/*/__init__.py")} == set(RANK) - {"reference"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_run_one_way(path: Path) -> None:
    own = wing_of(path)
    assert own is not None
    wrong = []
    for line, module in imported(path):
        wing = target_wing(module)
        if wing is None or wing == own:
            continue
        if wing == "" or RANK[wing] >= RANK[own]:
            wrong.append(f"{path.relative_to(ROOT)}:{line}: {own} imports {module}")
    assert wrong == []


def test_no_import_closes_a_circle() -> None:
    """A circle makes each of its modules half-made while another runs (an import-order bug
    waiting for a reordering), and none can be read, tested or moved alone."""
    found = circle(import_graph())
    assert found == [], "an import circle: " + " -> ".join(found)


def test_the_graph_holds_every_kind_of_import_and_finds_a_circle(tmp_path: Path) -> None:
    """The check above can fail: a circle through an import in a function, a relative import
    under TYPE_CHECKING, `from package import module` and import_module is found, and named."""
    for folder in ("harness/wing", "reference"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "harness/wing/__init__.py").write_text(
        "from importlib import import_module\nTYPES = import_module(f'{__package__}.types')\n"
    )
    (tmp_path / "harness/wing/types.py").write_text(
        "def judge():\n    from utf8cert.harness.wing import judge\n    return judge\n"
    )
    (tmp_path / "harness/wing/judge.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import TYPES\n"
    )
    (tmp_path / "reference/__init__.py").write_text("import utf8cert.harness.wing.judge\n")
    graph = import_graph(tmp_path)
    assert graph == {
        "utf8cert.harness.wing": {"utf8cert.harness.wing.types"},
        "utf8cert.harness.wing.types": {"utf8cert.harness.wing.judge"},
        "utf8cert.harness.wing.judge": {"utf8cert.harness.wing"},
        "utf8cert.reference": {"utf8cert.harness.wing.judge"},
    }
    found = circle(graph)
    assert len(found) == 4 and found[0] == found[-1]
    assert set(found) == set(graph) - {"utf8cert.reference"}
    assert all(imported in graph[importer] for importer, imported in itertools.pairwise(found))
    graph["utf8cert.harness.wing"] = set()
    assert circle(graph) == []


def test_the_check_finds_an_upward_import(tmp_path: Path) -> None:
    """The rule above can fail: a check-engine module naming a report module is caught."""
    upward = tmp_path / "upward.py"
    upward.write_text("from utf8cert.harness.reports.explain import explain\n")
    ((line, module),) = imported(upward)
    assert (line, target_wing(module)) == (1, "reports")
    assert RANK["reports"] > RANK["check"]


def test_the_check_finds_the_machinery_naming_the_world(tmp_path: Path) -> None:
    """A codec-wing module that starts the world's server by name (`python -m`) is caught, as is
    the check engine importing the catalog inside a function: the world sits beside check."""
    naming = tmp_path / "naming.py"
    naming.write_text(
        'SERVER = "utf8cert.harness.world.serve"\n'
        "def entries():\n"
        "    from utf8cert.harness.world.catalog import registry\n"
        "    return registry()\n"
    )
    found = [(line, target_wing(module)) for line, module in imported(naming)]
    assert found == [(1, "world"), (3, "world")]
    assert RANK["world"] >= RANK["codec"] and RANK["world"] >= RANK["check"]
