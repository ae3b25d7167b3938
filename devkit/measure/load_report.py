"""The load benchmark's tables: its runs, memory per live game and the engine's loop lag, as
docs/figures.md shows them, and the load targets beside what was measured."""

from __future__ import annotations

from typing import Any


def fmt(value: float, digits: int = 1) -> str:
    """A number for the table; "-" when there is none."""
    return "-" if value != value else f"{value:,.{digits}f}"


def print_tables(
    runs: list[dict[str, Any]], memory: list[dict[str, Any]], engines: list[dict[str, Any]]
) -> None:
    """The markdown tables docs/figures.md shows."""
    if runs:
        print(
            "| mode | Discord | board | games | interactions | moves | ack p50 ms | ack p99 ms "
            "| ack max ms | reply p99 ms | loop lag p99 ms | loop lag max ms | CPU ms/move "
            "| wall s |"
        )
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in runs:
            print(
                f"| {r['mode']} | {r['discord']} | {r['size']}x{r['size']} | {r['games']} | "
                f"{r['interactions']} | "
                f"{r['moves']} | {fmt(r['ack_ms']['p50'])} | {fmt(r['ack_ms']['p99'])} | "
                f"{fmt(r['ack_ms']['max'])} | {fmt(r['reply_ms']['p99'])} | "
                f"{fmt(r['lag_ms']['p99'])} | {fmt(r['lag_ms']['max'])} | "
                f"{fmt(r['cpu_ms_per_move'], 2)} | {fmt(r['wall_s'])} |"
            )
        print()
    if memory:
        print(
            "| board | Discord | live games | bot/ + engine/ KB | discord.py KB | the rest KB "
            "| counted KB/game | held by the bot KB/game | RSS KB/game |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for m in memory:
            per = m["per_game_bytes"]
            own = per.get("bot", 0) + per.get("engine", 0)
            rest = m["bot_side_bytes"] - own - per.get("discord", 0)
            print(
                f"| {m['size']}x{m['size']} | {m['discord']} | {m['live']} | "
                f"{fmt(own / 1024, 2)} | {fmt(per.get('discord', 0) / 1024, 2)} | "
                f"{fmt(rest / 1024, 2) if m['discord'] == 'local' else 'not counted'} | "
                f"{fmt(m['bot_side_bytes'] / 1024, 2)} | "
                f"{fmt(m['held_per_game_bytes'] / 1024, 2)} | "
                f"{fmt(m['rss_per_game_bytes'] / 1024, 2)} |"
            )
        print()
    if engines:
        print("| 5x5 engine in | ply | reply s | ack ms | loop lag p99 ms | loop lag max ms |")
        print("|---|---:|---:|---:|---:|---:|")
        for e in engines:
            print(f"| {e['engine']} (idle: p99 {fmt(e['idle_lag_ms']['p99'])}) | | | | | |")
            for row in e["replies"]:
                print(
                    f"| | {row['ply']} | {fmt(row['reply_s'], 2)} | {fmt(row['ack_ms'])} | "
                    f"{fmt(row['lag_ms']['p99'])} | {fmt(row['lag_ms']['max'])} |"
                )
        print()


def print_targets(
    runs: list[dict[str, Any]], memory: list[dict[str, Any]], engines: list[dict[str, Any]]
) -> None:
    """The load targets next to what was measured (for reading, not a test)."""
    lines = []
    for r in runs:
        if r["games"] == 500:
            lines.append(
                f"{r['mode']} {r['size']}x{r['size']} x500 ({r['discord']}): ack p99 "
                f"{fmt(r['ack_ms']['p99'])} ms (target <= 100), over 3 s: "
                f"{r['ack_over_3s']} (target 0), loop lag p99 {fmt(r['lag_ms']['p99'])} ms "
                f"(target <= 10)"
            )
        if r["size"] > 3 and r["mode"] == "spread" and r["replied_clicks"]:
            lines.append(
                f"spread {r['size']}x{r['size']} x{r['games']}: of {r['replied_clicks']} clicks "
                f"answered with the bot's move, {100 * r['one_update_share']:.1f}% in one board "
                f"update (target >= 95%)"
            )
        if r["size"] == 3 and r["mode"] == "alone":
            lines.append(
                f"alone 3x3, {r['games']} games against the bot: slash ack p99 "
                f"{fmt(r['slash_ack_ms']['p99'])} ms, click ack p99 "
                f"{fmt(r['click_ack_ms']['p99'])} ms, bot's move shown p99 "
                f"{fmt(r['reply_ms']['p99'])} ms (target <= 50 for each)"
            )
    for m in memory:
        lines.append(
            f"memory {m['size']}x{m['size']} x{m['games']} ({m['discord']}): "
            f"{fmt(m['bot_side_bytes'] / 1024, 2)} KB allocated, "
            f"{fmt(m['held_per_game_bytes'] / 1024, 2)} KB held per live game (target <= 20)"
        )
    for e in engines:
        lines.append(
            f"5x5 engine in {e['engine']}: loop lag p99 {fmt(e['lag_ms']['p99'])} ms "
            f"(target <= 5), max {fmt(e['lag_ms']['max'])} ms"
        )
    for line in lines:
        print(f"- {line}")
