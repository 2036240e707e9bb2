#!/usr/bin/env python3
"""Match openings from real master games: the position after the first PLIES plies of each game.

    scripts/master-openings.py [--plies 10] [--count 200] [--seed 1] [--engine target/release/chuhan] \
        GAMES.pgn... > bench-positions/master-openings.epd

Reads PGN files whose moves are ICCS coordinates (h2e2), replays each game's first PLIES plies
through chuhan (scripts/replay.py) and keeps each distinct position once, with how many games
reached it. Games shorter than PLIES + 20 plies are skipped (a short game may be a forfeit or
a fragment). Prints COUNT positions, the most frequent first (ties broken by a seeded shuffle),
as EPD lines with the number of games and one game that reached it.

bench-positions/master-openings.epd was made from the Hu Ronghua (1391 games) and Liu Dahua
(1125 games) collections of maksimKorzh/wukong-xiangqi (xqdb/xqdb/*_UCI_games.pgn.zip, MIT
licence, games from wxf.ca).
"""
import argparse
import random
import re
import sys

from replay import Engine

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MOVE = re.compile(r"\b([a-i][0-9][a-i][0-9])\b")


def games(path):
    tags, text = {}, []
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.strip()
        if line.startswith("["):
            if text:
                yield tags, " ".join(text)
                tags, text = {}, []
            m = re.match(r'\[(\w+) "(.*)"\]', line)
            if m:
                tags[m.group(1)] = m.group(2)
        elif line:
            text.append(line)
    if text:
        yield tags, " ".join(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plies", type=int, default=10)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="target/release/chuhan")
    ap.add_argument("pgn", nargs="+")
    a = ap.parse_args()
    engine = Engine(a.engine)
    found = {}
    read = skipped = 0
    for path in a.pgn:
        for tags, text in games(path):
            read += 1
            moves = MOVE.findall(text)
            if len(moves) < a.plies + 20:
                skipped += 1
                continue
            fen = engine.fen(START, moves[: a.plies])
            if fen is None:
                skipped += 1
                continue
            key = " ".join(fen.split()[:2])
            n, example = found.get(key, (0, None))
            found[key] = (n + 1, example or tags)
    rng = random.Random(a.seed)
    keys = list(found)
    rng.shuffle(keys)
    keys.sort(key=lambda k: -found[k][0])
    chosen = keys[: a.count]
    print(f"# chuhan match openings from master games: {len(chosen)} positions after {a.plies} plies,")
    print(f"# the most frequent of {len(found)} distinct ones in {read - skipped} games ({skipped} skipped).")
    print("# Made by scripts/master-openings.py (see its header for the source and licence).")
    for k in chosen:
        n, tags = found[k]
        who = f"{tags.get('Red', '?')} - {tags.get('Black', '?')}, {tags.get('Event', '?')}"
        print(f"{k} - - 0 {a.plies // 2 + 1} ; games {n}; e.g. {who}")
    print(f"{len(chosen)} openings written", file=sys.stderr)


if __name__ == "__main__":
    main()
