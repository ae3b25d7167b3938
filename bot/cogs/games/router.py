"""The click router: every button press reaches the games' one click listener, which hands a
feature's buttons to that feature. A feature registers its custom ids' prefix in its ``setup``
with the event its cog listens for (``on_<event>(interaction, custom_id)``); the core knows no
feature."""

from __future__ import annotations


class Router:
    """Custom-id prefixes and the events their clicks are handed on as."""

    def __init__(self) -> None:
        # (prefix, event) pairs, read by the click listener on every click (no call: a plain
        # loop over them, as cheap as the tuple the features' prefixes were written in).
        self.routes: tuple[tuple[str, str], ...] = ()

    def add(self, prefix: str, event: str) -> None:
        """Hand clicks whose custom id starts with `prefix` on as `event`; a prefix that could
        be taken for another one's is refused."""
        for known, _ in self.routes:
            if known.startswith(prefix) or prefix.startswith(known):
                raise ValueError(f"the custom-id prefix {prefix!r} overlaps {known!r}")
        self.routes = (*self.routes, (prefix, event))
