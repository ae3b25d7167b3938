"""A Swiss tournament at people's pace through the local Discord, the bot in a process of its own
(`wire`), against the plain floor playing as many games at the same pace in the same run.

    python benchmarks/tournaments/tournament_swiss.py [--players 64] [--rounds 6] [--think 1,4]
                                                      [--seed 1] [--json PATH] [--profile]
                                                      [--sync normal|full] [--pairs N]

Members of a server join by the announcement's Join button (each after a pause of `--think`
seconds), its creator (one of them) presses Start, and each round every player clicks a random
free cell in their game's thread, waiting `--think` seconds (low, high; uniform) before each
move. ``--think 0.1,0.4`` scales people's pace down tenfold for a shorter run; the default is
people's pace. Prints, for each round:

- the time from the round before's last result (round 1: the Start press answered) to the first
  and to the last of the round's boards posted in its threads: the result shown on the board as
  the local Discord received it, each board's creation there;
- the REST requests the bot made in the round (the local Discord counts them, from the round
  before's last result to the round's), by kind, and per click;

then the p50 and the max over rounds 2 and later, and the CPU of the bot's process (its engine
workers included) per interaction (create, joins, start, clicks) from before Create until the
podium, beside that of the plain floor (`floors/game_bot.py --plain`: the same number of 3x3
games between two people, a round's games at once, `--think` before each click) and their
ratio. The floor's games each add a /tictactoe and an Accept, which it answers as well. The
project's bot then plays the floor's games too (outside a tournament), for the games' own ratio
to the floor in the same run. The same CPU is also given by game played (every run plays the
same number of games), with the tournament's ratio to the floor and to its games played outside
a tournament. Last, a Swiss of the same members at the same pace on the tournament floor
(`floors/tournament_bot.py`: the same calls to Discord for each game, its thread, its players
added, its board, its archiving and a standings edit, and nothing else), and the bot's ratio to
it: the comparison of like with like, as many interactions on both sides; then the same on the
tournament floor with ``--durable`` (each game's row saved in a SQLite file on a thread of its
own before its board shows a move, as the bot saves each change), for what durability costs
there. ``--sync full`` runs
the project's bot with ``DATABASE_SYNC=full`` (an fsync at every save) instead of its default.
``--pairs N`` then plays the Swiss N more times on the project's bot and on the tournament floor,
one after the other, and prints each pair's ratio and the median of all (the first pair's
included): the machine's load moves single runs by more than 10%. ``--profile`` runs the bot's
loop thread (and the tournament floor's) under cProfile and prints
the bot's time by part (`measure.profiling`); its CPU figures are then not comparable.

No run has the loop-lag probe (`wire.bot_process`'s ``begin-cpu``): nothing here reports loop
lag, and its 10 ms ticker costs an idle process 8 to 15 ms of CPU a second, the bot's and the
floor's alike, which at people's pace is a quarter to a half of each run's CPU and brings
every ratio towards 1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.tournaments.play.runs import games, tournament


def per(run: dict[str, Any]) -> float:
    """A run's CPU milliseconds per interaction."""
    return float(run["cpu"] * 1e3 / run["interactions"])


def summary(
    bot: dict[str, Any],
    plain: dict[str, Any],
    own: dict[str, Any],
    floor: dict[str, Any],
    durable: dict[str, Any],
) -> dict[str, Any]:
    later = [r["all_boards_s"] for r in bot["rounds"][1:]] or [bot["rounds"][0]["all_boards_s"]]
    mine, theirs = per(bot), per(plain)
    return {
        "boards_p50_s": statistics.median(later),
        "boards_max_s": max(later),
        "requests_per_round": statistics.median(r["requests"] for r in bot["rounds"]),
        "bot_cpu_ms_per_interaction": mine,
        "floor_cpu_ms_per_interaction": theirs,
        "ratio": mine / theirs,
        "games_cpu_ms_per_interaction": per(own),  # the bot's own games, outside a tournament
        "games_ratio": per(own) / theirs,
        # per game played: the tournament's games need no /tictactoe nor Accept
        "cpu_ms_per_game": {
            name: run["cpu"] * 1e3 / sum(r["games"] for r in bot["rounds"])
            for name, run in (("tournament", bot), ("games", own), ("floor", plain))
        },
        # the same ratios by game played (each run played the same number of games)
        "ratio_per_game": bot["cpu"] / plain["cpu"],
        "tournament_to_games_per_game": bot["cpu"] / own["cpu"],
        # against the tournament floor: the same Swiss, the same calls to Discord
        "tournament_floor_cpu_ms_per_interaction": per(floor),
        "tournament_floor_ratio": mine / per(floor),
        # against the same floor saving each game durably before showing it, as the bot does
        "durable_floor_cpu_ms_per_interaction": per(durable),
        "durable_floor_ratio": mine / per(durable),
    }


def report(
    args: argparse.Namespace,
    bot: dict[str, Any],
    plain: dict[str, Any],
    own: dict[str, Any],
    floor: dict[str, Any],
    durable: dict[str, Any],
) -> None:
    kinds = sorted({k for r in bot["rounds"] for k in r["by_kind"]} | set(bot["ending"]))
    print(
        f"\nSwiss of {args.players} players, {args.rounds} rounds, 3x3, "
        f"{args.think[0]:g}-{args.think[1]:g} s before each move, the bot's DATABASE_SYNC "
        f"{args.sync or 'normal (its default)'}\n"
    )
    print(
        "| round | games | first board s | every board s | requests | clicks | requests/click | "
        + " | ".join(kinds)
        + " |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(kinds))
    for r in bot["rounds"]:
        print(
            f"| {r['round']} | {r['games']} | {r['first_board_s']:.3f} | {r['all_boards_s']:.3f} | "
            f"{r['requests']} | {r['clicks']} | {r['requests'] / max(1, r['clicks']):.2f} | "
            + " | ".join(str(r["by_kind"].get(k, 0)) for k in kinds)
            + " |"
        )
    ending = bot["ending"]
    print(
        f"| end | | | | {sum(ending.values())} | | | "
        + " | ".join(str(ending.get(k, 0)) for k in kinds)
        + " |"
    )
    s = summary(bot, plain, own, floor, durable)
    print(
        f"\n- last result to every next-round board posted (rounds 2-{args.rounds}): "
        f"p50 {s['boards_p50_s']:.3f} s, max {s['boards_max_s']:.3f} s (round 1, from Start: "
        f"{bot['rounds'][0]['all_boards_s']:.3f} s)"
    )
    print(f"- requests to Discord per round: median {s['requests_per_round']:.0f}")
    print(
        f"- CPU per interaction: bot {s['bot_cpu_ms_per_interaction']:.3f} ms "
        f"({bot['interactions']} interactions, {bot['cpu']:.2f} s), plain floor "
        f"{s['floor_cpu_ms_per_interaction']:.3f} ms ({plain['interactions']} interactions, "
        f"{plain['games']} games, {plain['cpu']:.2f} s): ratio {s['ratio']:.2f}"
    )
    print(
        f"- against the tournament floor (the same members and pace, the same calls to Discord "
        f"for each game): {s['tournament_floor_cpu_ms_per_interaction']:.3f} ms "
        f"({floor['interactions']} interactions, {floor['cpu']:.2f} s): ratio "
        f"{s['tournament_floor_ratio']:.2f}; its requests a round: median "
        f"{statistics.median(r['requests'] for r in floor['rounds']):.0f} ("
        + ", ".join(f"{k} {v}" for k, v in sorted(floor["rounds"][-1]["by_kind"].items()))
        + " in its last round)"
    )
    print(
        f"- against the durable tournament floor (the same, and each game's row saved in a "
        f"SQLite file on a thread of its own before its board shows a move, as the bot saves "
        f"it): {s['durable_floor_cpu_ms_per_interaction']:.3f} ms ({durable['interactions']} "
        f"interactions, {durable['cpu']:.2f} s): ratio {s['durable_floor_ratio']:.2f}"
    )
    print(
        f"- the same games outside a tournament on the bot: {per(own):.3f} ms "
        f"({own['interactions']} interactions, {own['games']} games): ratio to the plain floor "
        f"{s['games_ratio']:.2f}"
    )
    print(
        "- CPU per game played: "
        + ", ".join(f"{name} {ms:.1f} ms" for name, ms in s["cpu_ms_per_game"].items())
        + f"; by game, the tournament to the plain floor {s['ratio_per_game']:.2f}, to the "
        f"same games outside a tournament {s['tournament_to_games_per_game']:.2f}"
    )
    print(
        f"- measured for {bot['wall']:.0f} s (tournament), {own['wall']:.0f} s (its games), "
        f"{plain['wall']:.0f} s (floor)"
    )
    print(
        f"- errors: bot {len(bot['errors'])}, its games {len(own['errors'])}, floor "
        f"{len(plain['errors'])}, tournament floor {len(floor['errors'])}, durable "
        f"{len(durable['errors'])}; unanswered {bot['unanswered']}, {floor['unanswered']} on the "
        f"tournament floor and {durable['unanswered']} on the durable one, games stuck "
        f"{own['stuck']} and {plain['stuck']} on the floor"
    )
    for line in (
        bot["errors"] + own["errors"] + plain["errors"] + floor["errors"] + durable["errors"]
    ):
        print(f"  {line}")
    for name, run in (("the tournament", bot), ("its games outside a tournament", own)):
        busy = sorted((k, v) for k, v in run["threads"].items() if v >= 0.005)
        threads = ", ".join(f"{k} {v:.2f} s" for k, v in busy)
        print(f"- the bot's CPU by thread in {name}: {threads}")
        if run["parts"]:
            parts = sorted(run["parts"].items(), key=lambda kv: -kv[1])
            print("  its loop thread by part: " + ", ".join(f"{k} {v:.2f} s" for k, v in parts))


async def pairs(args: argparse.Namespace, first: tuple[float, float]) -> list[dict[str, float]]:
    """`--pairs` more runs of the Swiss on the bot then on the tournament floor, each pair's CPU
    per interaction and ratio; printed with the median ratio of all pairs (`first`'s too)."""
    found = [{"bot": first[0], "floor": first[1], "ratio": first[0] / first[1]}]
    for _ in range(args.pairs):
        with tempfile.TemporaryDirectory() as folder:
            mine = per(await tournament(args, Path(folder)))
        with tempfile.TemporaryDirectory() as folder:
            theirs = per(await tournament(args, Path(folder), floor=True))
        found.append({"bot": mine, "floor": theirs, "ratio": mine / theirs})
    if args.pairs:
        ratios = [f"{f['ratio']:.2f} ({f['bot']:.2f} / {f['floor']:.2f} ms)" for f in found]
        print(
            f"- against the tournament floor in {len(found)} pairs of runs, the first above: "
            + ", ".join(ratios)
            + f"; median {statistics.median(f['ratio'] for f in found):.2f}"
        )
    return found


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        mine = await tournament(args, Path(folder))
    count = sum(r["games"] for r in mine["rounds"])
    with tempfile.TemporaryDirectory() as folder:
        plain = await games(args, Path(folder), count, floor=True)
    with tempfile.TemporaryDirectory() as folder:
        own = await games(args, Path(folder), count, floor=False)
    with tempfile.TemporaryDirectory() as folder:
        floor = await tournament(args, Path(folder), floor=True)
    with tempfile.TemporaryDirectory() as folder:
        durable = await tournament(args, Path(folder), floor=True, durable=True)
    report(args, mine, plain, own, floor, durable)
    repeated = await pairs(args, (per(mine), per(floor)))
    return {
        "args": {
            "players": args.players,
            "rounds": args.rounds,
            "think": args.think,
            "sync": args.sync,
        },
        "bot": mine,
        "floor": plain,
        "games": own,
        "tournament_floor": floor,
        "durable_floor": durable,
        "summary": summary(mine, plain, own, floor, durable),
        "pairs": repeated,  # the bot's and the tournament floor's ms an interaction, by pair
    }


def think(text: str) -> tuple[float, float]:
    low, high = (float(part) for part in text.split(","))
    return low, high


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--think", type=think, default=(1.0, 4.0), help="LOW,HIGH seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sync", choices=("normal", "full"), help="the bot's DATABASE_SYNC (its default: normal)"
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=0,
        help="more runs of the Swiss on the bot and the "
        "tournament floor, one after the other, for the median of their ratios",
    )
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--profile", action="store_true", help="the bot's loop thread by part (slower CPU)"
    )
    arguments = parser.parse_args()
    figures = asyncio.run(main(arguments))
    if arguments.json:
        arguments.json.write_text(json.dumps(figures, indent=1))
