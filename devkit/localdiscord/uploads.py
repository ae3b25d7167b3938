"""Files in the local Discord: uploads with a message, an answer or an edit (multipart bodies, as
discord.py sends them), kept as the message's attachments and served from its CDN; and the CDN's
custom emoji images (``cdn.discordapp.com/emojis/<id>.png`` on Discord).

As Discord does: a body with files is ``multipart/form-data``, its JSON in ``payload_json`` and
each file in ``files[n]``, described by the entry of the JSON's ``attachments`` whose id is n;
an edit's ``attachments`` lists what the message keeps (existing attachments by id) and adds
the new uploads; an upload over ``upload_limit`` bytes is refused 413 (40005). The CDN answers
at the server's root (point ``discord.asset.Asset.BASE`` at ``cdn_base``); a deleted emoji is
404, and ``cdn_down`` answers every CDN request 503.
"""

from __future__ import annotations

import collections
import json
import mimetypes
from typing import Any

from aiohttp import web

from devkit.localdiscord.model import Guild, snowflake

UPLOAD_LIMIT = 25 * 1024 * 1024  # bytes: what Discord lets a bot upload in one message


class TooLarge(Exception):
    """A body whose files are over the upload limit."""


class Uploads:
    """The files half of ``FakeDiscord``."""

    port: int

    def init_uploads(self) -> None:
        self.blobs: dict[str, bytes] = {}  # CDN path -> bytes
        self.emojis: dict[int, bytes] = {}  # custom emoji id -> its PNG
        self.cdn_requests: collections.Counter[str] = collections.Counter()
        self.cdn_down = False
        self.upload_limit = UPLOAD_LIMIT

    @property
    def cdn_base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def add_emoji(self, guild: Guild, name: str, png: bytes | None) -> str:
        """A custom emoji of `guild` (before the bot starts), its image on the CDN unless
        `png` is None (a CDN that lost it); returns its text in a message."""
        emoji_id = snowflake()
        guild.emojis[emoji_id] = name
        if png is not None:
            self.emojis[emoji_id] = png
        return f"<:{name}:{emoji_id}>"

    def cdn_routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("GET", "/attachments/{channel}/{id}/{name}", self._get_attachment),
            ("GET", "/emojis/{name}", self._get_emoji),
        ]

    def attachment_bytes(self, attachment: dict[str, Any]) -> bytes:
        """The bytes of an attachment as a message holds it."""
        return self.blobs[attachment["url"].removeprefix(self.cdn_base)]

    async def _read(self, request: web.Request, channel_id: int) -> dict[str, Any]:
        """A request's JSON body, its files (if any) stored and its ``attachments`` resolved:
        new uploads as full attachments, kept ones as ``{"id": ...}`` (see `kept`)."""
        if not request.content_type.startswith("multipart/"):
            body: dict[str, Any] = await request.json()
            return body
        body, files = {}, {}
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files["):
                data = await part.read()  # type: ignore[union-attr]
                files[name[6:-1]] = (getattr(part, "filename", None) or "file", bytes(data))
        if sum(len(data) for _, data in files.values()) > self.upload_limit:
            raise TooLarge
        # An interaction's answer holds its message in "data".
        target = body["data"] if "type" in body and isinstance(body.get("data"), dict) else body
        declared = target.get("attachments") or [{"id": n} for n in files]
        resolved = []
        for entry in declared:
            found = files.get(str(entry.get("id")))
            if found is None:
                resolved.append({"id": str(entry.get("id"))})
                continue
            filename, data = entry.get("filename") or found[0], found[1]
            attachment_id = snowflake()
            path = f"/attachments/{channel_id}/{attachment_id}/{filename}"
            self.blobs[path] = data
            resolved.append(
                {
                    "id": str(attachment_id),
                    "filename": filename,
                    "description": entry.get("description"),
                    "size": len(data),
                    "url": self.cdn_base + path,
                    "proxy_url": self.cdn_base + path,
                    "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
                }
            )
        target["attachments"] = resolved
        return body

    async def _body(self, request: web.Request, channel_id: int) -> dict[str, Any] | web.Response:
        """`_read`, or Discord's answer to files over the limit (413, 40005)."""
        try:
            return await self._read(request, channel_id)
        except TooLarge:
            text = {"code": 40005, "message": "Request entity too large"}
            return web.json_response(text, status=413)

    @staticmethod
    def kept(message: dict[str, Any], declared: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """An edit's attachments: the message's own it names by id, then its new uploads."""
        own = {a["id"]: a for a in message.get("attachments") or []}
        return [
            entry if "url" in entry else own[entry["id"]]
            for entry in declared
            if "url" in entry or entry["id"] in own
        ]

    async def _get_attachment(self, request: web.Request) -> web.StreamResponse:
        self.cdn_requests["attachment"] += 1
        data = self.blobs.get(request.path)
        if self.cdn_down or data is None:
            return web.Response(status=503 if self.cdn_down else 404)
        return web.Response(body=data, content_type=mimetypes.guess_type(request.path)[0])

    async def _get_emoji(self, request: web.Request) -> web.StreamResponse:
        self.cdn_requests["emoji"] += 1
        stem = request.match_info["name"].partition(".")[0]
        data = self.emojis.get(int(stem)) if stem.isdigit() else None
        if self.cdn_down or data is None:
            return web.Response(status=503 if self.cdn_down else 404)
        return web.Response(body=data, content_type="image/png")
