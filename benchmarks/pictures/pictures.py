"""Pictures of games: the time and CPU to draw a board's picture (3x3, 5x5, ultimate; cold and
from the cache) and a 60-move ultimate game's replay, their sizes, the picture cache's
memory with the positions of 500 live games, and what a drawing thread costs the thread beside
it (the event loop's, in the bot).

    python benchmarks/pictures/pictures.py [--repeats 7] [--games 500] [--seed 1]
                                           [--positions-games 200]

A board: a position the picture cache has not seen (the emoji font loaded and the marks' glyphs
scaled already, as in a running bot), with no strip of a picture before kept (its worst: the
median over the repeats, each a different position), and as a running bot draws them: every
position of --positions-games random games in turn, each drawn once with the strips of the
pictures before kept (``bot.pictures.png``), the CPU of the second half's new positions (p50,
p90) and the share of strips found kept. The first picture of a process, which loads the font,
is given apart.
"""

from __future__ import annotations

import argparse
import functools
import io
import random
import statistics
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PIL import Image

from bot.games import kinds
from bot.games.record import GameRecord
from bot.pictures import SIDE, PictureCache, alt_text, board_png, picture, png, replay
from bot.pictures.animation import positions
from bot.pictures.board import draw
from bot.pictures.cache import BOUND
from bot.pictures.marks import resolve
from devkit.random_game import played

SHAPES = {"3x3": ("classic", 3, 3), "5x5": ("classic", 5, 4), "ultimate": ("ultimate", 9, 3)}


def timed(work: Callable[[], object]) -> tuple[float, float, object]:
    """Wall and CPU seconds of one call, and its result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.2f}"


def boards(repeats: int, rng: random.Random, games: int) -> None:
    first = played("classic", 3, 3, rng, 4)
    wall, cpu, _ = timed(lambda: board_png(first))
    print(
        f"The first picture of a process (loads the emoji font): {wall * 1000:.0f} ms wall, "
        f"{cpu * 1000:.0f} ms CPU\n"
    )
    print(
        "| board | no strip kept: CPU ms | a new position, strips kept: CPU ms p50 / p90 | "
        "strips found | from the cache: µs | PNG bytes (median) |"
    )
    print("|---|---|---|---|---|---|")
    for name, (kind, size, k) in SHAPES.items():
        cold, hits, sizes = [], [], []
        for _ in range(repeats):
            game = played(kind, size, k, rng, rng.randrange(size * 2, size * size))
            x, o = resolve(game.look.x, game.look.o)
            sketch = kinds.of(game).sketch(game)
            cold.append(
                timed(lambda s=sketch, x=x, o=o: png.board(s, x, o, SIDE, cache=png.Strips()))[1]
            )  # type: ignore[misc]
            cache = PictureCache()
            picture(game, cache)
            hits.append(timed(lambda game=game, cache=cache: picture(game, cache))[0])  # type: ignore[misc]
        warm, strips = running(kind, size, k, rng, games)
        for _, data in warm[-repeats:]:
            sizes.append(len(data))
        cpus = sorted(cpu for cpu, _ in warm[len(warm) // 2 :])
        p90 = cpus[int(len(cpus) * 0.9)] * 1000
        found = strips.hits / max(1, strips.hits + strips.misses)
        hit = statistics.median(hits) * 1e6
        print(
            f"| {name} | {ms(cold)} | {ms(cpus)} / {p90:.2f} | {found:.0%} | {hit:.1f} | "
            f"{statistics.median(sizes):,.0f} |"
        )


def running(
    kind: str, size: int, k: int, rng: random.Random, games: int
) -> tuple[list[tuple[float, bytes]], png.Strips]:
    """Every position of `games` random games drawn as a running bot draws them (each new one
    once, the strips of the pictures before kept): each picture's CPU seconds and bytes."""
    strips = png.Strips()
    seen: set[tuple[int, ...]] = set()
    out = []
    for _ in range(games):
        game = played(kind, size, k, rng, 999)
        x, o = resolve(game.look.x, game.look.o)
        for position in positions(game):
            if position.moves in seen:
                continue
            seen.add(position.moves)
            sketch = kinds.of(position).sketch(position)
            draw = functools.partial(png.board, sketch, x, o, SIDE, cache=strips)
            _, cpu, data = timed(draw)
            out.append((cpu, data))  # type: ignore[arg-type]
    return out, strips


def whole_frames(game: GameRecord) -> list[Image.Image]:
    """Every position of a replay drawn whole (RGB), as a WebP's frames must be."""
    x, o = resolve(game.look.x, game.look.o)
    return [draw(kinds.of(p).sketch(p), x, o, side=512).convert("RGB") for p in positions(game)]


def replays(repeats: int, rng: random.Random) -> None:
    games = []
    while len(games) < repeats:  # finished games of 58 to 62 moves
        game = played("ultimate", 9, 3, rng, 999)
        if 58 <= len(game.moves) <= 62:
            games.append(game)
    walls, cpus, sizes, webps, webp_walls = [], [], [], [], []
    for game in games:
        wall, cpu, data = timed(lambda game=game: replay(game))  # type: ignore[misc]
        walls.append(wall)
        cpus.append(cpu)
        sizes.append(len(data))  # type: ignore[arg-type]
        images = whole_frames(game)
        out = io.BytesIO()
        webp_wall, _, _ = timed(
            lambda images=images, out=out: images[0].save(  # type: ignore[misc]
                out,
                "WEBP",
                save_all=True,
                append_images=images[1:],
                lossless=True,
                method=4,
                duration=700,
            )
        )
        webps.append(len(out.getvalue()))
        webp_walls.append(webp_wall)
    moves = statistics.median(len(g.moves) for g in games)
    print(
        f"\nReplay of an ultimate game ({moves:.0f} moves, {moves + 1:.0f} frames): "
        f"{ms(walls)} ms wall, {ms(cpus)} ms CPU, {statistics.median(sizes):,.0f} bytes (GIF); "
        f"the same frames as a lossless animated WebP (method 4): "
        f"{statistics.median(webps):,.0f} bytes, {ms(webp_walls)} ms to encode"
    )


def memory(games: int, rng: random.Random) -> None:
    shapes = list(SHAPES.values())
    records = []
    for index in range(games):
        kind, size, k = shapes[index % len(shapes)]
        records.append(played(kind, size, k, rng, rng.randrange(1, size * size)))
    board_png(records[0])  # the font and the labels' font loaded before the count starts
    cache = PictureCache()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for game in records:
        picture(game, cache)
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    print(
        f"\nThe cache with the picture of each of {games} live games (a third each 3x3, 5x5, "
        f"ultimate): {len(cache)} pictures, {cache.held / 2**20:.1f} MiB as it counts them; "
        f"traced memory grew {grown / 2**20:.1f} MiB (the cache, and the glyphs scaled once); "
        f"its bound {BOUND / 2**20:.0f} MiB, about {BOUND // max(1, cache.held // len(cache)):,}"
        f" such pictures"
    )
    longest = max(len(alt_text(game, locale)) for game in records for locale in (None, "de"))
    print(f"Longest alt text among them: {longest} characters (Discord's limit: 1,024)")


def stalls(rng: random.Random, seconds: float = 3.0) -> None:
    """What a drawing thread costs the thread beside it (the event loop's, in the bot): its
    stalls longer than 6 ms (past the interpreter's 5 ms switch interval) between two steps of
    a Python loop, alone and beside a thread drawing pictures without pause; a picture that held
    the GIL through its compression (about 10 ms) would stall it once a picture."""
    games = [played("ultimate", 9, 3, rng, rng.randrange(10, 60)) for _ in range(50)]
    stop = threading.Event()
    drawn = []

    def draw() -> None:
        while not stop.is_set():
            board_png(games[len(drawn) % len(games)])
            drawn.append(1)

    def watch() -> tuple[float, int]:
        longest, long, last = 0.0, 0, time.perf_counter()
        end = last + seconds
        while last < end:
            now = time.perf_counter()
            longest, long, last = max(longest, now - last), long + (now - last > 0.006), now
        return longest, long

    alone = watch()
    thread = threading.Thread(target=draw)
    thread.start()
    beside = watch()
    stop.set()
    thread.join()
    print(
        f"\nA thread beside one drawing {len(drawn)} pictures in {seconds:.0f} s: "
        f"{beside[1]} stalls over 6 ms (alone: {alone[1]}), the longest {beside[0] * 1000:.1f}"
        f" ms (alone: {alone[0] * 1000:.1f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions-games", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    boards(args.repeats, rng, args.positions_games)
    replays(max(3, args.repeats // 2), rng)
    memory(args.games, rng)
    stalls(rng)


if __name__ == "__main__":
    main()
