"""What one run of the load benchmark measured, and its figures (`Run.report`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devkit.measure import instruments as kit


@dataclass
class Run:
    """What one scenario measured."""

    mode: str
    size: int
    games: int
    discord: str = "simcord"  # or "local": the fake Discord on 127.0.0.1, the bot in a process
    wall: float = 0.0
    cpu: float = 0.0
    engine_cpu: float = 0.0  # of that, the engine's worker processes (local Discord)
    moves: int = 0
    finished: int = 0
    stuck: int = 0
    main_cpu: float = 0.0
    shares: dict[str, float] = field(default_factory=dict)
    lags: list[float] = field(default_factory=list)
    gc_pauses: list[float] = field(default_factory=list)
    save_service: list[float] = field(default_factory=list)  # on the storage thread
    save_awaited: list[float] = field(default_factory=list)  # as the loop awaited it
    timings: list[kit.Timing] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)  # the bot process's (local Discord)
    threads: dict[str, float] = field(default_factory=dict)  # CPU seconds by thread (local)
    parts: dict[str, float] = field(default_factory=dict)  # profiled loop seconds by part

    def per_move(self, seconds: float) -> float:
        return seconds / self.moves * 1e3 if self.moves else float("nan")

    def report(self) -> dict[str, Any]:
        acks = [t.ack_latency for t in self.timings if t.ack_latency is not None]
        # From the click (or the slash command, when the bot starts) to the bot's move shown.
        replies = [t.reply_latency for t in self.timings if t.reply_latency is not None]
        # Clicks against the bot whose answer showed its move: in how many board updates.
        answered = [t for t in self.timings if t.replied and t.kind != "slash"]
        return {
            "mode": self.mode,
            "discord": self.discord,
            "size": self.size,
            "games": self.games,
            "finished": self.finished,
            "stuck": self.stuck,
            "main_thread_shares": self.shares,
            "interactions": len(self.timings),
            "unanswered": sum(t.acked is None for t in self.timings),
            "refused": sum(t.ephemeral for t in self.timings),
            "picks": sum(t.kind == "pick" for t in self.timings),  # ultimate: boards picked
            "moves": self.moves,
            "ack_ms": kit.summary_ms(acks),
            "ack_over_3s": sum(a > 3.0 for a in acks),
            # Answers that did not wait for the engine (a bot's move in the response may).
            "ack_without_reply_ms": kit.summary_ms(
                [t.ack_latency for t in self.timings if t.acked and not t.replied]
            ),
            "slash_ack_ms": kit.summary_ms(
                [t.ack_latency for t in self.timings if t.kind == "slash" and t.acked]
            ),
            "click_ack_ms": kit.summary_ms(
                [t.ack_latency for t in self.timings if t.kind != "slash" and t.acked]
            ),
            "reply_ms": kit.summary_ms(replies),
            "replied_clicks": len(answered),
            "one_update_share": (
                sum(not t.edits for t in answered) / len(answered) if answered else float("nan")
            ),
            "lag_ms": kit.summary_ms(self.lags),
            "gc_pause_ms": kit.summary_ms(self.gc_pauses),
            "save_thread_ms": kit.summary_ms(self.save_service),
            "save_awaited_ms": kit.summary_ms(self.save_awaited),
            "cpu_ms_per_move": self.per_move(self.cpu),
            "engine_cpu_ms_per_move": self.per_move(self.engine_cpu),  # local Discord
            # The loop thread's CPU spent in SimCord's code (sampled share) taken out.
            # Less the loop thread's time in SimCord and in the players (sampled, --profile).
            "cpu_ms_per_move_bot": self.per_move(
                self.cpu
                - self.main_cpu * (self.shares.get("simcord", 0) + self.shares.get("driver", 0))
            )
            if self.shares
            else float("nan"),
            "wall_s": self.wall,
            "errors": self.errors,
        }
