"""The documentation site as a reader meets it: built in strict mode, opened from disk (every link
a file), numbered lists that code blocks do not break, log lines in code blocks, and the home page
with the README's two commands."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NUMBERED = re.compile(r"^ {0,3}(\d+)\. \S")  # a numbered list item of the top level
FENCE = re.compile(r"^\s*(```|~~~)")
LOG_LINE = re.compile(r"^\s*(DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+[\w.]+: ", re.M)


def build(into: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` into a folder of the test's."""
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip('MkDocs is not installed: pip install -e ".[docs]"')
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(into)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once for the module's tests."""
    folder = tmp_path_factory.mktemp("site")
    built = build(folder)
    assert built.returncode == 0, built.stderr
    return folder


@dataclass
class Page(HTMLParser):
    """What a built page shows: the place of each item of its numbered lists, its code spans
    outside code blocks, its code blocks, its text outside code, and its links."""

    numbers: list[int] = field(default_factory=list)
    inline_code: list[str] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    _lists: list[list[int]] = field(default_factory=list)  # per open list: [ordered, items]
    _pre: int = 0
    _code: list[str] | None = None

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        for name in ("href", "src"):
            if found.get(name):
                self.links.append(str(found[name]))
        if tag in ("ol", "ul"):
            start = int(found.get("start") or 1) if tag == "ol" else 0
            self._lists.append([tag == "ol", start - 1])
        elif tag == "li" and self._lists:
            self._lists[-1][1] += 1
            if self._lists[-1][0] and len(self._lists) == 1:
                self.numbers.append(self._lists[-1][1])
        elif tag == "pre":
            self._pre += 1
            self.blocks.append("")
        elif tag == "code" and not self._pre:
            self._code = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("ol", "ul") and self._lists:
            self._lists.pop()
        elif tag == "pre":
            self._pre -= 1
        elif tag == "code" and self._code is not None:
            self.inline_code.append("".join(self._code))
            self._code = None

    def handle_data(self, data: str) -> None:
        if self._pre:
            self.blocks[-1] += data
        elif self._code is not None:
            self._code.append(data)
        else:
            self.text.append(data)


def read(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def numbered_items(source: str) -> list[int]:
    """The numbers of the top-level numbered list items of a Markdown page, code left out."""
    numbers, fenced = [], False
    for line in source.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (item := NUMBERED.match(line)):
            numbers.append(int(item[1]))
    return numbers


def pages(site: Path) -> list[Path]:
    return sorted(site.glob("*.html"))


def test_every_page_is_built_as_a_file_and_every_link_opens_from_disk(site: Path) -> None:
    """Built for opening from disk: each page a file of its own (operating.html), and every link
    and asset of every page names a file that is there, none a folder (a folder opened from disk
    is a listing, not a page)."""
    assert [p.stem for p in pages(site)] == sorted(
        ["404", "index", *(p.stem for p in DOCS.glob("*.md") if p.stem != "index")]
    )
    for page in pages(site):
        if page.name == "404.html":
            continue  # a web server's answer to a missing page: its links are from the root
        for link in read(page).links:
            if link.startswith(("http://", "https://", "mailto:", "#")):
                continue
            target = link.split("#")[0].split("?")[0]
            assert not target.endswith("/") and target != ".", f"{page.name}: {link}"
            assert (page.parent / target).is_file(), f"{page.name}: {link} is not a file"


def test_no_numbered_list_is_broken_by_a_code_block(site: Path) -> None:
    """Each page's numbered items keep their numbers (a code block or a paragraph indented less
    than four spaces ends the list: the next item restarts at 1 or runs into the paragraph)."""
    for source in DOCS.glob("*.md"):
        page = read(site / f"{source.stem}.html")
        expected = numbered_items(source.read_text(encoding="utf-8"))
        assert page.numbers == expected, f"{source.name}: shown {page.numbers}, written {expected}"
        for line in "".join(page.text).splitlines():
            assert not NUMBERED.match(line.strip()), f"{source.name}: a list item as text: {line}"


def test_log_lines_are_code_blocks_and_no_fence_is_indented(site: Path) -> None:
    """A log line is shown in a code block, not in a code span wrapped in a paragraph. MkDocs'
    Markdown takes a fence only at the top level: an indented one (in a list item) turns into a
    code span and ends the list, so a code block in a list item is indented by 8 spaces instead."""
    for page in pages(site):
        for code in read(page).inline_code:
            assert not LOG_LINE.search(code), f"{page.name}: a log line in a code span: {code}"
    for source in DOCS.glob("*.md"):
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
            if FENCE.match(line):
                assert line == line.lstrip(), f"{source.name}:{number}: an indented fence"


def test_the_home_page_gives_the_readmes_two_commands(site: Path) -> None:
    """The home page starts a reader off as the README does: its two commands, word for word."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [line for line in readme[:20] if line.startswith("python3 -m venv .venv")]
    assert len(commands) == 2
    shown = read(site / "index.html").blocks
    for command in commands:
        assert any(command in block.splitlines() for block in shown), command
