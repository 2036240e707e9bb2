#!/usr/bin/env python3
"""How each engine of a match spent its clock and how deep it searched, from the match's PGN.

    scripts/time-use.py [--bucket PLIES] GAMES.pgn [GAMES.pgn ...]

`chuhan match` writes each move's comment as `{SCORE/DEPTH TIMEs}`. Per engine this prints the
moves, the mean time and the mean depth of a move, then the mean time of a move by the game's
ply, in buckets of PLIES plies (default 20; the last bucket takes every later ply), so two
engines' time management can be compared over the course of a game.
"""
import argparse
import re
from collections import defaultdict

COMMENT = re.compile(r"\{[^/}]*/(\d+) ([\d.]+)s\}")
TAG = re.compile(r'\[(\w+) "([^"]*)"\]')


def games(text):
    """(red, black, [(depth, seconds) per move in order]) for each game of a PGN text."""
    for chunk in text.split("[Event ")[1:]:
        tags = dict(TAG.findall(chunk))
        # The moves follow the tags after a blank line (the next game's first tags may
        # trail them).
        body = chunk.split("\n\n", 1)[-1]
        moves = [(int(d), float(t)) for d, t in COMMENT.findall(body)]
        yield tags.get("White", "?"), tags.get("Black", "?"), moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bucket", type=int, default=20)
    ap.add_argument("pgn", nargs="+")
    a = ap.parse_args()
    last = 7
    time = defaultdict(float)
    depth = defaultdict(int)
    count = defaultdict(int)
    by_ply = defaultdict(lambda: defaultdict(list))
    for path in a.pgn:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for red, black, moves in games(text):
            for ply, (d, t) in enumerate(moves):
                who = red if ply % 2 == 0 else black
                time[who] += t
                depth[who] += d
                count[who] += 1
                by_ply[who][min(ply // a.bucket, last)].append(t)
    for who in sorted(count):
        n = count[who]
        print(f"{who}: {n} moves, mean time {time[who] / n:.3f} s, mean depth {depth[who] / n:.1f}")
        cells = []
        for b, ts in sorted(by_ply[who].items()):
            span = f"{b * a.bucket}+" if b == last else f"{b * a.bucket}-{(b + 1) * a.bucket - 1}"
            cells.append(f"plies {span}: {sum(ts) / len(ts):.3f} s ({len(ts)})")
        print("  " + "; ".join(cells))


if __name__ == "__main__":
    main()
