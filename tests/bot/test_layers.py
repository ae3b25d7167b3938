"""The layer contract of bot/: imports run one way, no cycles, small modules.

Every import counts, wherever it is written: at the top, inside a function, or under
``TYPE_CHECKING``. The layers, from the top: the entry point, the playground (the bot against a
simulated Discord in a browser), the assembly (the stores with every schema step, the bot built
from its settings), the features side by side (tournaments, puzzles, history, the Activity: none
imports another), then the game core: the cogs, the client, the Discord pieces, this process's
live games, storage and compute (side by side, neither importing the other), the pictures of
games, the games themselves, and at the bottom side by side the words (messages and their
translations) and the settings. A module may import its own layer or lower ones, so the core
never imports a feature. Inside a feature, mini-layers: its pure rules import no Discord,
asyncio or storage, its storage no Discord, its Discord pieces no storage.
The engine's modules form no import cycle either. A module holds one concept, as long as it
needs: one over 400 lines says in its docstring why it is one concept (a paragraph that opens
with "One concept:"), and none of the project (bot/, engine/, devkit/, benchmarks/, scripts/,
tests/) is over 600 lines, which is two concepts. Around the bot, the tests and the benchmarks
never import each other, and scripts/ imports neither: what they share is in devkit/, which
imports none of the three.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS: list[tuple[str, ...]] = [
    ("bot.__main__",),
    ("bot.playground",),
    ("bot.assembly",),
    ("bot.tournaments", "bot.puzzles", "bot.history", "bot.activity"),
    ("bot.cogs",),
    ("bot.client",),
    ("bot.discord_ui", "bot.metrics"),
    ("bot.live",),
    ("bot.storage", "bot.compute"),
    # Pictures of games (drawn with Pillow from what each kind says its board shows): pure like
    # the games below them, apart from them so that the rules never load an imaging library.
    ("bot.pictures",),
    ("bot.games",),
    ("bot.i18n", "bot.config"),
]
# Each feature's mini-layers: its pure rules, its storage, its Discord pieces without storage (the
# rest of the feature, its cogs and their parts, may use all three).
FEATURES: dict[str, dict[str, tuple[str, ...]]] = {
    "bot.tournaments": {
        "rules": ("tournament", "record", "standings", "swiss", "arena"),
        "storage": ("sql", "store"),
        "ui": ("board", "texts"),
    },
    "bot.puzzles": {"rules": ("model",), "storage": ("sql", "store"), "ui": ("board",)},
    "bot.history": {"rules": ("chart",), "storage": ("store",), "ui": ("board",)},
}
IMPURE = {"discord", "asyncio", "aiohttp", "sqlite3", "asyncpg"}
REVIEW_LINES = 400  # a module longer says why it is one concept
MAX_LINES = 600  # a module longer is two


def modules(package: str) -> dict[str, Path]:
    """Every module of a package by dotted name (a package's __init__ under the package's name)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


BOT = modules("bot")
ENGINE = modules("engine")


def imported(path: Path) -> Iterator[str]:
    """Every module name an import statement in the file names, at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield f"{node.module}.{alias.name}"
                yield node.module


def graph(package: dict[str, Path] = BOT) -> dict[str, set[str]]:
    """Each module of a package (bot's by default) and the modules of the same package it imports
    (the most specific name that exists)."""
    edges: dict[str, set[str]] = {}
    for name, path in package.items():
        targets = set()
        for target in imported(path):
            if target in package and target != name:
                targets.add(target)
        # `from bot.games import rules` names both bot.games and bot.games.rules: keep the module.
        edges[name] = {t for t in targets if not any(o.startswith(t + ".") for o in targets)}
    return edges


def layer_of(name: str) -> tuple[int, str]:
    for rank, layer in enumerate(LAYERS):
        for prefix in layer:
            if name == prefix or name.startswith(prefix + "."):
                return rank, prefix
    raise AssertionError(f"{name} belongs to no layer: add it to LAYERS")


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_has_a_layer() -> None:
    """Each module of bot/ sits in one of the named layers."""
    assert BOT, "no modules found"
    for name in BOT:
        if name != "bot":
            layer_of(name)


def test_no_import_cycle_among_bot_modules() -> None:
    """No two bot modules import each other, directly or around a circle, type-only included."""
    assert cycles(graph()) == []


def test_no_import_cycle_among_engine_modules() -> None:
    """The engine's modules import each other one way too, imports inside functions included."""
    assert cycles(graph(ENGINE)) == []


def test_the_cycle_finder_sees_a_circle() -> None:
    """The check above can fail: a made-up circle of three modules is found."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_run_from_higher_layers_to_lower_ones() -> None:
    """No module imports a layer above its own, nor its side-by-side neighbour."""
    wrong = []
    for name, targets in graph().items():
        if name == "bot":
            continue
        rank, prefix = layer_of(name)
        for target in targets:
            their_rank, their_prefix = layer_of(target)
            if their_rank < rank or (their_rank == rank and their_prefix != prefix):
                wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_the_client_imports_no_cog() -> None:
    """Cogs are loaded by name; the bot module never imports one."""
    assert not {t for t in graph()["bot.client"] if t.startswith("bot.cogs")}


@pytest.mark.parametrize("folder", ["bot", "engine", "devkit", "benchmarks", "scripts", "tests"])
def test_a_long_module_says_why_it_is_one_concept(folder: str) -> None:
    """A module over 400 lines says in its docstring why it is one concept; none is over 600."""
    unexplained, too_long = {}, {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        n = len(text.splitlines())
        if n > MAX_LINES:
            too_long[str(path.relative_to(ROOT))] = n
        elif n > REVIEW_LINES and "One concept:" not in (ast.get_docstring(ast.parse(text)) or ""):
            unexplained[str(path.relative_to(ROOT))] = n
    assert too_long == {}
    assert unexplained == {}


# Around the bot: the folders each folder must not import (what they share is in devkit/).
APART = {
    "tests": {"benchmarks", "scripts"},
    "benchmarks": {"tests", "scripts"},
    "scripts": {"tests", "benchmarks"},
    "devkit": {"tests", "benchmarks", "scripts"},
}


def crossings(folder: str, files: list[Path] | None = None) -> list[str]:
    """Each import, at any depth, of a folder that `folder` must keep apart from."""
    wrong = []
    for path in files if files is not None else sorted((ROOT / folder).rglob("*.py")):
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        for target in imported(path):
            if target.split(".")[0] in APART[folder]:
                wrong.append(f"{where} -> {target}")
    return sorted(set(wrong))


@pytest.mark.parametrize("folder", sorted(APART))
def test_tests_benchmarks_and_scripts_import_only_devkit_of_each_other(folder: str) -> None:
    """No test imports a benchmark and no benchmark a test (a smoke test runs its benchmark as a
    person does, in a process of its own); scripts/ imports neither; devkit/ none of the three."""
    assert crossings(folder) == []


def test_the_crossing_check_sees_an_import(tmp_path: Path) -> None:
    """The check above can fail: a test that imports a script inside a function is found."""
    test = tmp_path / "test_x.py"
    test.write_text("def f():\n    from scripts.build_book import main\n", encoding="utf-8")
    assert crossings("tests", [test]) == [
        "test_x.py -> scripts.build_book",
        "test_x.py -> scripts.build_book.main",
    ]


def test_the_pure_layers_import_no_discord_and_no_asyncio() -> None:
    """bot.pictures, bot.games, bot.i18n and bot.config stay pure: no Discord, no event loop."""
    for name, path in BOT.items():
        if name != "bot" and layer_of(name)[1] in PURE:
            roots = {target.split(".")[0] for target in imported(path)}
            assert not roots & {"discord", "asyncio", "aiohttp", "sqlite3"}, name


def crossed(edges: dict[str, set[str]], paths: dict[str, Path]) -> list[str]:
    """Each import that crosses a feature's mini-layer: a rule importing Discord, asyncio, the
    storage or anything of the bot above the games; a storage module importing Discord or the
    feature's views and cogs; a Discord piece importing any storage."""
    wrong = []
    for feature, parts in FEATURES.items():
        rules, storage, ui = (
            {f"{feature}.{m}" for m in parts[k]} for k in ("rules", "storage", "ui")
        )
        for name in rules | storage | ui:
            roots = {t.split(".")[0] for t in imported(paths[name])} if name in paths else set()
            targets = edges.get(name, set())
            if name in rules:
                outside = {t for t in targets if t.startswith(feature + ".") and t not in rules}
                below = {t for t in targets if layer_of(t)[1] not in PURE and t not in rules}
                bad = sorted(roots & IMPURE) + sorted(outside | below)
            elif name in storage:
                outside = {t for t in targets if t.startswith(feature + ".")}
                bad = sorted(roots & {"discord"}) + sorted(outside - rules - storage)
            else:
                bad = sorted(t for t in targets if t.startswith("bot.storage") or t in storage)
            wrong += [f"{name} -> {target}" for target in bad]
    return wrong


PURE = ("bot.pictures", "bot.games", "bot.i18n", "bot.config")


def test_each_feature_keeps_its_mini_layers() -> None:
    """A feature's rules are pure, its storage speaks no Discord, its views touch no storage."""
    for feature, parts in FEATURES.items():
        for module in (m for ms in parts.values() for m in ms):
            assert f"{feature}.{module}" in BOT, f"{feature}.{module} is gone: update FEATURES"
    assert crossed(graph(), BOT) == []


def test_the_mini_layer_check_sees_a_crossing() -> None:
    """The check above can fail: a rule that imports the storage, a store that imports a view, a
    view that imports the store."""
    edges = {
        "bot.tournaments.swiss": {"bot.storage.base"},
        "bot.puzzles.store": {"bot.puzzles.board"},
        "bot.history.board": {"bot.history.store"},
    }
    assert crossed(edges, {}) == [
        "bot.tournaments.swiss -> bot.storage.base",
        "bot.puzzles.store -> bot.puzzles.board",
        "bot.history.board -> bot.history.store",
    ]


def test_the_core_imports_no_feature_and_no_feature_another() -> None:
    """What the layers above say, named: the game core knows no feature, no feature another."""
    features = tuple(FEATURES)
    wrong = []
    for name, targets in graph().items():
        if name.startswith(("bot.__main__", "bot.playground", "bot.assembly")):
            continue  # above the features: they put them together
        own = next((f for f in features if name.startswith(f + ".") or name == f), None)
        core = own is None
        for target in targets:
            theirs = next((f for f in features if target.startswith(f + ".") or target == f), None)
            if theirs is not None and (core or theirs != own):
                wrong.append(f"{name} -> {target}")
    assert wrong == []
