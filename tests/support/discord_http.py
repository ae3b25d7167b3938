"""discord.py's real HTTP client pointed at a local server with canned JSON answers.

For start-up tests that go through the real login path (``python -m bot``'s ``main()``), where
SimCord is not in play: every GET is answered from a table of paths, anything else with a
default answer.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import discord
import pytest

Answer = tuple[int, Any]  # HTTP status, JSON body


@contextmanager
def discord_answering(
    monkeypatch: pytest.MonkeyPatch, answers: Mapping[str, Answer], *, otherwise: Answer
) -> Iterator[None]:
    """Serve `answers` (by path below /api/v10) and `otherwise` for the rest, while inside."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, payload = answers.get(self.path.removeprefix("/api/v10"), otherwise)
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()
