#!/usr/bin/env python3
"""Game-by-game comparison of two builds' matches against the same opponent.

    scripts/paired.py OLD.pgn NEW.pgn [--engine NAME] [--new-engine NAME]
    scripts/paired.py --record RUN.pgn            # the run's results as a W/D/L line
    scripts/paired.py OLD.txt NEW.pgn             # OLD as such a line (STRENGTH.md keeps them)

Both PGN files come from `chuhan match` runs with the same --openings and --seed, so round n
starts from the same position with the engine on the same side in both (games pair by their
Round tag, so a run with --concurrency, which writes games as they finish, pairs as well).
Prints the number of games that pair up (same FEN and colour), each build's points on them, and
the mean per-game score difference NEW - OLD with its 95% interval. Pairing removes most of the
openings' share of the variance, so a difference shows in fewer games than two separate Elo
figures need.
It does not remove the luck of OLD's own games: play OLD afresh beside NEW rather than reuse
an old file for every candidate (STRENGTH.md, the standing replayed against itself).

A results line (W, D, L for the engine's win, draw, loss, game by game; other characters and
lines starting with # are ignored; --record writes - for a round missing from the file) pairs
by game number alone: the FEN and colour check needs the PGN.
"""
import argparse
import math
import re
import sys

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def games(path, engine):
    """Round number -> (start FEN, engine plays Red, engine's points) for each game of the file
    (a match with --concurrency writes games as they finish, so the round says which is which)."""
    out = {}
    text = open(path, encoding="utf-8").read()
    for game in re.split(r"\n(?=\[Game )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if "Result" not in tags or tags["Result"] not in RESULTS:
            continue
        red = tags.get("Red") == engine
        if not red and tags.get("Black") != engine:
            sys.exit(f"{path}: game without {engine!r} (Red {tags.get('Red')!r})")
        points = RESULTS[tags["Result"]]
        round_no = int(tags["Round"]) if tags.get("Round", "").isdigit() else len(out) + 1
        out[round_no] = (tags.get("FEN", "startpos"), red, points if red else 1.0 - points)
    return out


LETTERS = {1.0: "W", 0.5: "D", 0.0: "L"}
POINTS = {letter: points for points, letter in LETTERS.items()}


def results_line(path):
    """Game number -> (None, None, points) from a W/D/L results file: pairs by number only."""
    text = open(path, encoding="utf-8").read()
    line = "".join(t for t in text.splitlines() if not t.strip().startswith("#"))
    letters = [c for c in line if c in POINTS]
    return {n: (None, None, POINTS[c]) for n, c in enumerate(letters, 1)}


def load(path, engine):
    return games(path, engine) if path.endswith(".pgn") else results_line(path)


def same_game(a, b):
    return a[0] is None or b[0] is None or a[:2] == b[:2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", nargs="?")
    ap.add_argument("new", nargs="?")
    ap.add_argument("--engine", default="chuhan", help="the engine's name in both files")
    ap.add_argument(
        "--new-engine", metavar="NAME", help="its name in NEW where that differs (default: --engine)"
    )
    ap.add_argument("--record", metavar="PGN", help="print this run's results as a W/D/L line")
    args = ap.parse_args()
    if args.record:
        run = games(args.record, args.engine)
        print("".join(LETTERS[run[n][2]] if n in run else "-" for n in range(1, max(run) + 1)))
        return
    if not (args.old and args.new):
        ap.error("OLD and NEW are needed unless --record is given")
    old, new = load(args.old, args.engine), load(args.new, args.new_engine or args.engine)
    both = sorted(old.keys() & new.keys())
    pairs = [(old[n][2], new[n][2]) for n in both if same_game(old[n], new[n])]
    if len(pairs) < 2:
        sys.exit("fewer than two games pair up: were both runs made with the same seed?")
    diffs = [b - a for a, b in pairs]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    print(
        f"{n} paired games: old {sum(a for a, _ in pairs):g} new {sum(b for _, b in pairs):g}, "
        f"mean difference {mean:+.3f} +- {1.96 * sd / math.sqrt(n):.3f} per game (95%)"
    )


if __name__ == "__main__":
    main()
