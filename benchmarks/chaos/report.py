"""The soak's figures (`soak.py`): acknowledgement times during the faults and outside them, the
longest a game waited to answer again after each kind of fault, and the report, as a dict and
as printed.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from benchmarks.chaos import check
from benchmarks.chaos.faults import KINDS, PER_SHARD, Fault
from benchmarks.chaos.tables import Action, Table
from devkit.measure.instruments import percentile


def acks(actions: list[Action], faults: list[Fault], during: bool) -> dict[str, Any]:
    """Acknowledgement times of the interactions sent during (or outside) the faults."""

    def inside(action: Action) -> bool:
        return any(f.began <= action.sent <= f.ended for f in faults)

    chosen = [a for a in actions if a.kind != "react" and inside(a) == during]
    times = [a.ack for a in chosen if a.ack is not None]
    return {
        "interactions": len(chosen),
        "unanswered": sum(a.outcome == "unanswered" for a in chosen),
        "p50_ms": percentile(times, 50) * 1e3 if times else float("nan"),
        "p99_ms": percentile(times, 99) * 1e3 if times else float("nan"),
    }


def recovery(actions: list[Action], tables: list[Table], faults: list[Fault]) -> dict[str, float]:
    """For each kind of fault, the longest a game waited to answer again: from the fault being
    lifted to the first action answered as played after an action of that game failed during
    it (or in the 5 s after it)."""
    by_table: dict[int, list[Action]] = {}
    for action in actions:
        by_table.setdefault(action.table, []).append(action)
    longest = dict.fromkeys(KINDS, 0.0)
    for fault in faults:
        for table in tables:
            if fault.kind in PER_SHARD and table.shard != fault.shard:
                continue
            mine = by_table.get(table.index, [])
            failed = [
                a for a in mine if not a.played and fault.began <= a.sent <= fault.ended + 5.0
            ]
            if not failed:
                continue
            after = [a for a in mine if a.played and a.sent > failed[0].sent]
            if after and after[0].answered is not None:
                waited = after[0].answered - fault.ended
                longest[fault.kind] = max(longest[fault.kind], waited)
    return longest


def report(
    args: argparse.Namespace,
    history: list[Action],
    tables: list[Table],
    faults: list[Fault],
    stored: dict[int, check.Stored],
    verdict: check.Verdict,
    stuck: list[str],
) -> dict[str, Any]:
    for text in stuck:
        verdict.fail("stuck", text)
    moves = [a for a in history if a.cell is not None and a.kind != "probe"]
    return {
        "seed": args.seed,
        "duration_s": args.duration,
        "tables": len(tables),
        "games": len(stored),
        "finished": sum(g.status == "finished" for g in stored.values()),
        "clicks": sum(a.kind != "react" for a in history),
        "reactions": sum(a.kind == "react" for a in history),
        "moves_played": sum(a.played for a in moves),
        "outcomes": dict(Counter(a.outcome for a in history)),
        "faults": dict(Counter(f.kind for f in faults)),
        "kinds": list(KINDS),  # every kind of fault the schedule knows
        "schedule": [f.describe() for f in faults],
        "ack_outside_faults": acks(history, faults, during=False),
        "ack_during_faults": acks(history, faults, during=True),
        "longest_wait_s": recovery(history, tables, faults),
        "stuck": stuck,
    }


def print_report(r: dict[str, Any]) -> None:
    """The figures, as the README shows them."""
    faults = ", ".join(f"{kind} {n}" for kind, n in sorted(r.get("faults", {}).items()))
    print(
        f"\nplayed {r.get('wall_s', 0):.0f} s on {r.get('tables')} tables: "
        f"{r.get('games')} games ({r.get('finished')} finished), {r.get('clicks')} clicks and "
        f"{r.get('reactions')} reactions, {r.get('moves_played')} moves answered as played"
    )
    print(f"faults injected: {faults}; outcomes: {r.get('outcomes')}")
    for name in ("ack_outside_faults", "ack_during_faults"):
        a = r.get(name, {})
        print(
            f"{name.replace('_', ' ')}: {a.get('interactions')} interactions, "
            f"{a.get('unanswered')} unanswered in 3 s, p50 {a.get('p50_ms', 0):.1f} ms, "
            f"p99 {a.get('p99_ms', 0):.1f} ms"
        )
    waits = ", ".join(f"{k} {v:.1f} s" for k, v in r.get("longest_wait_s", {}).items())
    print(f"longest wait to answer again after each kind of fault: {waits}")
    for shard, m in r.get("memory", {}).items():
        print(
            f"{shard}: after warm-up {m['after_warmup']['rss_mb']:.1f} MB, "
            f"{m['after_warmup']['fds']} fds; at the end {m['end']['rss_mb']:.1f} MB, "
            f"{m['end']['fds']} fds"
        )
    for where, texts in sorted(r.get("logs", {}).items()):
        for text, count in sorted(texts.items(), key=lambda kv: -kv[1])[:6]:
            print(f"log, {where}: {count}x {text}")
    print(
        f"boards missing a stored move {r.get('behind_after_s', 0):g} s after the last fault: "
        f"{len(r.get('behind', []))}"
    )
    checks = r.get("checks", {})
    print(
        f"checks failed: {checks or 'none'} (lost, duplicated, phantom, out of order, boards, "
        "unseen, behind, stuck, memory, descriptors, traceback: each 0)"
    )
    for problem in r.get("problems", []):
        print(f"  {problem}")
