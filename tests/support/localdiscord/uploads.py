"""Files sent with a message, as Discord takes them: a multipart body (``payload_json`` and
``files[n]``) becomes the message's JSON with its ``attachments`` (an id, the file's name, the
description the bot declared for it, its size and type, a URL), the bytes kept by URL
(``FakeDiscord.files``) for a test to read. An upload over ``LIMIT`` bytes is refused as
Discord refuses it (413, 40005)."""

from __future__ import annotations

import json
import mimetypes
from typing import Any

from aiohttp import BodyPartReader, web

from tests.support.localdiscord.model import snowflake

LIMIT = 10 * 1024 * 1024  # bytes of files in one message a bot may send anywhere
BASE = "https://cdn.local.invalid/attachments"


class TooLarge(Exception):
    """The files of one request are over ``LIMIT`` bytes."""


async def read(
    request: web.Request, limit: int = LIMIT
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The request's JSON body with its files as attachments, and the files' bytes by URL."""
    if not request.content_type.startswith("multipart/"):
        body = await request.json()
        if isinstance(body, dict):  # no files: an edit keeps those the message has
            _message_of(body).pop("attachments", None)
        return body, {}
    payload: dict[str, Any] = {}
    sent: dict[int, tuple[str, bytes]] = {}
    reader = await request.multipart()
    async for part in reader:
        if not isinstance(part, BodyPartReader):
            continue
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(await part.text())
        elif name.startswith("files["):
            sent[int(name[6:-1])] = (part.filename or "file", bytes(await part.read()))
    if sum(len(data) for _, data in sent.values()) > limit:
        raise TooLarge
    message = _message_of(payload)
    declared = {int(item["id"]): item for item in message.get("attachments") or []}
    files: dict[str, bytes] = {}
    attachments = []
    for index, (filename, data) in sorted(sent.items()):
        url = f"{BASE}/{snowflake()}/{filename}"
        files[url] = data
        attachments.append({
            "id": str(snowflake()), "filename": filename, "size": len(data), "url": url,
            "proxy_url": url, "description": declared.get(index, {}).get("description"),
            "content_type": mimetypes.guess_type(filename)[0] or "application/octet-stream",
        })  # fmt: skip
    message["attachments"] = attachments
    return payload, files


def _message_of(body: dict[str, Any]) -> dict[str, Any]:
    """The message's fields in a body: an interaction callback's ``data``, else the body."""
    if "type" in body and isinstance(body.get("data"), dict):
        data: dict[str, Any] = body["data"]
        return data
    return body
