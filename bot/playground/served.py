"""The page the playground serves: SimCord's preview page, with a composer that keys as Discord's
does, the options' descriptions in its lists, and SimCord's developer tools out of the way.

SimCord's preview server sends the files of its page as they are installed. The playground's
server (`PlaygroundServer`) sends three of them changed, `index.html` (the playground's title,
its stylesheet and scripts), `commands.js` (the composer) and `workbench.js` (a thread's glyph;
`CHANGES`), and files of its own from ``web/``: ``playground.css``, ``playground.js`` (the
developer tools behind one button, the keys said under the box) and ``threads.js`` (the channel
with its threads, ``channels``). Each change replaces a text found exactly once in SimCord's
file; a SimCord whose page no longer has it stops the playground at start with one line, rather
than serving a composer that half works.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import simcord.preview
from simcord.backend.errors import SetupError
from simcord.preview._server import PreviewServer

from bot.playground.channels import CHANNELS_PATH, channels

if TYPE_CHECKING:
    from simcord.preview import Preview

SIMCORD_PAGE = Path(simcord.preview.__file__).with_name("static")
WEB = Path(__file__).with_name("web")
OWN_FILES = {
    "/playground.css": "text/css",
    "/playground.js": "application/javascript",
    "/threads.js": "application/javascript",
}


@dataclass(frozen=True, slots=True)
class Change:
    """In one file of SimCord's page, the text `old` (there exactly once) becomes `new`."""

    why: str
    old: str
    new: str


# The composer as Discord's: Enter sends a command that is complete, Tab or a click picks what a
# list highlights, and the focus stays in the box (after a value is picked, and after sending).
KEYS = """function playgroundKey(event) {
    // The playground's keys, before SimCord's. Tab picks what the open list highlights. In the
    // list of options to add (under the command), Enter sends the command; it picks an option
    // only once the arrows or letters typed moved in that list. In a list of values, Enter picks
    // the value.
    if (!draft || event.isComposing || event.keyCode === 229) return false;
    const target = event.target instanceof HTMLElement ? event.target : null;
    const open = Boolean(target && popup && !popupElement().hidden && currentPopupOwner === target);
    const list = open ? popupElement().querySelector('[role="listbox"]') : null;
    const active = list?.querySelector('[aria-selected="true"]');
    if (event.key === "Tab" && !event.shiftKey && active instanceof HTMLElement) {
      active.click();
      return true;
    }
    if ((event.key === "ArrowDown" || event.key === "ArrowUp") && list) list.dataset.moved = "1";
    const adding = Boolean(
      target?.matches(".command-chip") || (list && target?.matches(".command-ghost")),
    );
    if (adding && list && event.key.length === 1 && !event.ctrlKey && !event.metaKey) {
      // Letters typed on the command highlight the first option whose name starts with them.
      const typed = (list.dataset.typed || "") + event.key.toLowerCase();
      const items = [...list.querySelectorAll(".command-suggestion")];
      const found = items.findIndex((item) => item.dataset.value.toLowerCase().startsWith(typed));
      if (found >= 0) {
        list.dataset.typed = typed;
        list.dataset.moved = "1";
        suggestionListbox?.setActive(found);
      }
      return true;
    }
    if (event.key === "Enter" && !event.shiftKey && adding && !(active && list?.dataset.moved)) {
      validateAndRun();
      return true;
    }
    return false;
  }
  function handleKey(event) {
    if (playgroundKey(event)) return true;
"""
CHOSEN = """drafts.focus(next?.name || null);
    // The playground: the focus stays in the box, on the next required option, else on the
    // command, with the options left to add listed (Enter sends, Tab or a click adds one).
    if (commandRow?.contains(document.activeElement)) document.activeElement.blur();
    renderCompose({ focus: true });
    const chip = queryElement(commandRow, ".command-chip");
    if (!next && chip && optionalItems().length) openOptions(chip);"""
SENT = """onCommandMode?.(false, detachedReply); detachedReply = null;
      // The playground: the box keeps the focus for the next command (unless it went elsewhere).
      if (!document.activeElement || document.activeElement === document.body) input.focus();"""
CHANGES: dict[str, tuple[Change, ...]] = {
    "index.html": (
        Change("its title", "<title>SimCord Preview</title>", "<title>tictactoe</title>"),
        Change(
            "its stylesheet",
            '<link rel="stylesheet" href="/preview.css">',
            '<link rel="stylesheet" href="/preview.css">\n'
            '    <link rel="stylesheet" href="/playground.css">',
        ),
        Change(
            "its script",
            '<script type="module" src="/app.js"></script>',
            '<script type="module" src="/app.js"></script>\n'
            '    <script type="module" src="/playground.js"></script>\n'
            '    <script type="module" src="/threads.js"></script>',
        ),
    ),
    "workbench.js": (
        Change(
            "a thread's glyph in its header and its composer, as Discord shows it",
            'return { name: snapshot.channel?.name || "Unavailable channel", glyph: "#" };',
            "const thread = [11, 12].includes(snapshot.channel?.type);\n"
            '  return { name: snapshot.channel?.name || "Unavailable channel", '
            'glyph: thread ? "🧵" : "#" };',
        ),
    ),
    "commands.js": (
        Change(
            "the options' descriptions (SimCord shows an ellipsis)",
            'if (optional) item.append(node("span", "command-suggestion-ellipsis", "…"));',
            "if (optional) item.append(node("
            '"span", "command-suggestion-description", String(value.description || "")));',
        ),
        Change("Discord's Enter, Tab and arrows", "function handleKey(event) {\n", KEYS),
        Change(
            "the focus kept in the box after a value is picked",
            "drafts.focus(next?.name || null);\n    renderCompose({ focus: Boolean(next) });",
            CHOSEN,
        ),
        Change(
            "the focus kept in the box after a command is sent",
            "onCommandMode?.(false, detachedReply); detachedReply = null;",
            SENT,
        ),
        Change(
            "the value already picked, highlighted when its list opens",
            "if (listItems.length) suggestionListbox.setActive(0, { scroll: false });",
            "if (listItems.length) suggestionListbox.setActive(Math.max(0, listItems.findIndex(\n"
            "      (item) => owner instanceof HTMLInputElement && owner.value !== ''\n"
            "        && item.dataset.value === owner.value)), { scroll: false });",
        ),
    ),
}


def changed(name: str, text: str, changes: tuple[Change, ...]) -> str:
    """`text` (SimCord's file `name`) with every change made; SetupError if one cannot be."""
    for change in changes:
        if text.count(change.old) != 1:
            raise SetupError(
                f"the installed SimCord's page ({name}) is not the one the playground changes, "
                f"so the page would lack {change.why}: pip install -e '.[playground]' installs "
                "the SimCord it needs"
            )
        text = text.replace(change.old, change.new)
    return text


def page_files() -> dict[str, tuple[str, str]]:
    """Each file the playground serves differently from SimCord: path -> (type, text)."""
    files = {
        path: (kind, (WEB / path.lstrip("/")).read_text(encoding="utf-8"))
        for path, kind in OWN_FILES.items()
    }
    for name, changes in CHANGES.items():
        kind = "text/html" if name.endswith(".html") else "application/javascript"
        text = (SIMCORD_PAGE / name).read_text(encoding="utf-8")
        files["/" if name == "index.html" else f"/{name}"] = (kind, changed(name, text, changes))
    return files


class PlaygroundServer(PreviewServer):
    """SimCord's preview server, sending the playground's page (`page_files`)."""

    _STATIC_FILES: ClassVar[dict[str, str]] = {
        **PreviewServer._STATIC_FILES,
        **{path: path.lstrip("/") for path in OWN_FILES},
        CHANNELS_PATH: "",  # answered by `_channels`, not a file
    }

    def __init__(self, preview: Preview, port: int = 0) -> None:
        super().__init__(preview, port)
        self._files = page_files()  # made once, before the port opens: a failure stops the start

    async def _static(self, request: Any) -> Any:
        if request.path == CHANNELS_PATH:
            return await self._channels(request)
        served = self._files.get(request.path)
        if served is None:
            return await super()._static(request)
        from aiohttp import web

        if self.port is None or request.headers.get("Host", "") not in self._allowed_hosts():
            raise web.HTTPForbidden()
        kind, text = served
        return web.Response(text=text, content_type=kind, headers=self._SECURITY_HEADERS)

    async def _channels(self, request: Any) -> Any:
        """The channel and threads a page may open (``channels.channels``): a read, like the
        page's state, so it neither waits for nor moves the playground's clock."""
        from aiohttp import web

        context = request.headers.get("X-Simcord-Context")
        if not self._authorized(request, context=context):
            raise web.HTTPUnauthorized()
        try:
            page = self.preview._get_page(context)
        except SetupError:
            raise web.HTTPGone() from None
        listed = {"channels": channels(self.preview, page)}
        return web.json_response(listed, headers=self._SECURITY_HEADERS)


def serve_playground_page(preview: Preview) -> None:
    """Before the preview opens: let it serve the playground's page instead of SimCord's own."""
    preview._server = PlaygroundServer(preview, preview._server._requested_port)
