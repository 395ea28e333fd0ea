"""Returns the single-point mutants of a Python module's source: a small AST mutator.

Each mutant changes one thing, the way a slip of the hand does:

- relational operator moved by one boundary or negated: `<` to `<=`, `>=` to `>`, `==` to `!=`;
- integer constant plus or minus one;
- arithmetic or bit operator swapped: `+`/`-`, `|`/`&`, `<<`/`>>`, `^` to `|`, `*` to `//`;
- boolean operator swapped (`and`/`or`), a `not` removed;
- a statement deleted (replaced by `pass`).

Docstrings, annotations and imports are left alone (a mutant there changes no behaviour a codec
check could see). Mutants are numbered in the order of the source, so that the same source always
gives the same mutants under the same ids; one whose text is the original's is dropped.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

COMPARE: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
BINARY: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
    ast.BitXor: ast.BitOr,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
}
SYMBOL: dict[type[ast.AST], str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
    ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
    ast.And: "and", ast.Or: "or",
}  # fmt: skip


@dataclass(frozen=True)
class Mutant:
    """One single-point change of the source: its id, kind, place and new text."""

    id: str
    kind: str
    line: int
    description: str
    source: str


@dataclass(frozen=True)
class Site:
    """Where a change can be made: the node's rank in the walk, and how to change it."""

    rank: int
    kind: str
    choice: int


def walk(tree: ast.AST) -> Iterator[ast.AST]:
    """Yield the nodes a mutant may change, in source order (fields in the order the grammar
    gives them), skipping docstrings, annotations and imports."""
    yield tree
    for name, value in ast.iter_fields(tree):
        if name in ("annotation", "returns"):
            continue
        children = value if isinstance(value, list) else [value]
        for child in children:
            if not isinstance(child, ast.AST) or is_inert(child):
                continue
            yield from walk(child)


def is_inert(node: ast.AST) -> bool:
    """Return True for a docstring or an import: nothing in them is behaviour."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        return True
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def sites(node: ast.AST, rank: int) -> list[Site]:
    """Return the changes that can be made to `node` (none for most nodes)."""
    found: list[Site] = []
    if isinstance(node, ast.Compare):
        found += [Site(rank, "relational", index) for index in range(len(node.ops))]
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in BINARY:
        found.append(Site(rank, "operator", 0))
    elif isinstance(node, ast.BoolOp):
        found.append(Site(rank, "boolean", 0))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        found.append(Site(rank, "not removed", 0))
    elif (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    ):
        found += [Site(rank, "constant", 1), Site(rank, "constant", -1)]
    if isinstance(node, ast.stmt) and not isinstance(node, ast.FunctionDef | ast.ClassDef):
        found.append(Site(rank, "statement deleted", 0))
    return found


def apply(node: ast.AST, site: Site, source: str) -> str:
    """Return a description of the change `site` makes to `node` (changed in place, except
    for a removal, which `mutate_node` makes)."""
    before = ast.get_source_segment(source, node) or ast.unparse(node)
    if isinstance(node, ast.Compare):
        old = node.ops[site.choice]
        node.ops[site.choice] = COMPARE[type(old)]()
        return f"{SYMBOL[type(old)]} -> {SYMBOL[type(node.ops[site.choice])]}"
    if isinstance(node, ast.BinOp | ast.AugAssign) and site.kind == "operator":
        old_op = node.op
        node.op = BINARY[type(old_op)]()
        return f"{SYMBOL[type(old_op)]} -> {SYMBOL[type(node.op)]}"
    if isinstance(node, ast.BoolOp):
        old_bool = node.op
        node.op = ast.Or() if isinstance(old_bool, ast.And) else ast.And()
        return f"{SYMBOL[type(old_bool)]} -> {SYMBOL[type(node.op)]}"
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        new = node.value + site.choice
        old_text, node.value = before, new
        return f"{old_text} -> 0x{new:02X}" if old_text.startswith("0x") else f"{old_text} -> {new}"
    if isinstance(node, ast.UnaryOp):
        after = ast.get_source_segment(source, node.operand) or ast.unparse(node.operand)
        return f"`{before}` -> `{after}`"
    return f"`{before.splitlines()[0]}` deleted"


def mutate_node(source: str, site: Site) -> tuple[ast.Module, str]:
    """Return the tree of `source` with the change `site` made, and its description."""
    tree = ast.parse(source)  # a fresh tree per mutant: cheaper than a deep copy
    node = list(walk(tree))[site.rank]
    description = apply(node, site, source)
    if isinstance(node, ast.UnaryOp) and site.kind == "not removed":
        tree = Replacer(node, node.operand).visit(tree)
    elif site.kind == "statement deleted":
        tree = Replacer(node, ast.copy_location(ast.Pass(), node)).visit(tree)
    return ast.fix_missing_locations(tree), description


class Replacer(ast.NodeTransformer):
    """Puts `replacement` where `target` stands in a tree."""

    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target, self.replacement = target, replacement

    def generic_visit(self, node: ast.AST) -> ast.AST:
        return self.replacement if node is self.target else super().generic_visit(node)


def mutants(source: str) -> list[Mutant]:
    """Return every single-point mutant of `source`, numbered m001, m002, … in source order;
    none whose text equals the original's."""
    tree = ast.parse(source)
    original = ast.unparse(tree)
    found: list[Mutant] = []
    for rank, node in enumerate(walk(tree)):
        for site in sites(node, rank):
            changed, description = mutate_node(source, site)
            text = ast.unparse(changed)
            if text == original:
                continue
            line = getattr(node, "lineno", 0)
            found.append(
                Mutant(f"m{len(found) + 1:03d}", site.kind, line, description, text + "\n")
            )
    return found
