"""The locks in requirements/: every requirement of pyproject.toml locked at a version its range
allows, every locked file checked by hash, and one version of each package across the locks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^ ;\\]+)")
# What each lock must hold: these extras, the base dependencies and the build backend.
LOCKS = {
    "test.txt": ("test", "postgres", "docs", "playground"),
    "playground.txt": ("playground",),
    "bot.txt": ("postgres",),
}


def pins(name: str) -> dict[str, tuple[str, int]]:
    """Each package a lock pins: its version and how many hashes its entry carries."""
    found: dict[str, tuple[str, int]] = {}
    text = (ROOT / "requirements" / name).read_text(encoding="utf-8")
    for entry in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = PIN.match(entry)
        if match:
            found[canonicalize_name(match[1])] = (match[2], entry.count("--hash=sha256:"))
    return found


def wanted(extras: tuple[str, ...]) -> list[Requirement]:
    """The requirements of these extras, the base ones and the build backend, the project's own
    extras opened (tictactoe[docs] is the docs extra)."""
    out = [Requirement(text) for text in PROJECT["project"]["dependencies"]]
    out += [Requirement(text) for text in PROJECT["build-system"]["requires"]]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        seen.add(extra)
        for text in PROJECT["project"]["optional-dependencies"][extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == "tictactoe":
                todo += [name for name in requirement.extras if name not in seen]
            else:
                out.append(requirement)
    return out


def unmet(locked: dict[str, tuple[str, int]], requirements: list[Requirement]) -> list[str]:
    """The requirements a lock leaves out or pins outside their range, and entries with no hash."""
    out = []
    for requirement in requirements:
        version = locked.get(canonicalize_name(requirement.name), ("", 0))[0]
        if not version or not requirement.specifier.contains(version, prereleases=True):
            out.append(f"{requirement} (locked: {version or 'no'})")
    return out + [f"{name} has no hash" for name, (_, hashes) in locked.items() if not hashes]


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_requirement_is_locked_within_its_range_with_hashes(lock: str) -> None:
    """Each requirement of the lock's extras is pinned at a version pyproject.toml allows, and
    every pinned package carries the hashes that pip checks."""
    locked = pins(lock)
    assert len(locked) >= len(wanted(LOCKS[lock])) > 5
    assert unmet(locked, wanted(LOCKS[lock])) == []


def test_a_lock_out_of_step_with_pyproject_is_caught() -> None:
    """The check itself: a range that leaves out the locked version, a requirement not locked,
    an entry without its hashes."""
    locked = pins("test.txt")
    version = locked["babel"][0]
    assert unmet(locked, [Requirement(f"babel>={version}")]) == []
    too_new = f"babel>{version}"
    assert unmet(locked, [Requirement(too_new)]) == [f"{too_new} (locked: {version})"]
    assert unmet(locked, [Requirement("not-a-dependency")]) == ["not-a-dependency (locked: no)"]
    assert unmet({**locked, "babel": (version, 0)}, []) == ["babel has no hash"]


def test_the_locks_agree_on_every_version() -> None:
    """A package locked in two files is locked at the same version in both."""
    versions: dict[str, set[str]] = {}
    for lock in LOCKS:
        for name, (version, _) in pins(lock).items():
            versions.setdefault(name, set()).add(version)
    assert {name: found for name, found in versions.items() if len(found) > 1} == {}


def test_the_readme_and_ci_install_from_the_locks() -> None:
    """The README's two commands, going live, CI and the image install the locks, then the
    project without resolving anything."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for lock in LOCKS:
        assert f"pip install -r requirements/{lock} && .venv/bin/pip install --no-deps" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -r requirements/test.txt\n" in ci
    assert "--no-deps --no-build-isolation -e ." in ci
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "-r requirements/bot.txt" in dockerfile
    assert "--no-deps --no-build-isolation ." in dockerfile
