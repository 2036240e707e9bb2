#!/usr/bin/env python3
"""Finds the endings an engine led and did not win: games drawn by the move limit in which
its reported score stayed at or above a lead for at least --min-moves of its moves in the
last 100 plies (the score may fade after: chuhan scales it toward a draw as the move limit
nears). Writes, for each, the position where the last such lead began (counter reset), as
openings for `chuhan match`.

    scripts/unconverted-endings.py --engine target/release/chuhan --name chuhan \\
        --lead 2.5 --out conv.epd games.pgn ...

A match from these openings against the same opponent shows how many a build converts;
each opening is played with both colours, so half the games test the defence.
"""
import argparse
import re

from replay import Engine

LAST_PLIES = 100


def score(text):
    """The score of a move comment in pawns (mates as ±100), None if unreadable."""
    s = text.split("/")[0].strip()
    if "M" in s:
        return -100.0 if s.startswith("-") else 100.0
    try:
        return float(s)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="a chuhan binary (to replay the moves)")
    ap.add_argument("--name", required=True, help="the player whose leads are looked for")
    ap.add_argument("--lead", type=float, default=2.5, help="in pawns")
    ap.add_argument("--min-moves", type=int, default=10, help="the lead's length, own moves")
    ap.add_argument("--out", required=True)
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    engine = Engine(args.engine)
    seen = set()
    with open(args.out, "w", encoding="utf-8") as out:
        for path in args.pgn:
            text = open(path, encoding="utf-8").read()
            for game in re.split(r"\n(?=\[Game )", text):
                tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
                if tags.get("Termination") != "move limit" or "FEN" not in tags:
                    continue
                if args.name not in (tags.get("Red"), tags.get("Black")):
                    continue
                ours = 0 if tags["Red"] == args.name else 1
                if tags["FEN"].split()[1] == "b":
                    ours ^= 1
                body = game[game.rfind("]") + 1 :]
                played = re.findall(r"([A-I]\d-[A-I]\d)\s*\{([^}]*)\}", body)
                start, run, held = None, None, 0
                for i in range(max(0, len(played) - LAST_PLIES), len(played)):
                    if i % 2 != ours:
                        continue
                    s = score(played[i][1])
                    if s is not None and s >= args.lead:
                        run = i if run is None else run
                        held += 1
                        if held >= args.min_moves:
                            start = run
                    else:
                        run, held = None, 0
                if start is None:
                    continue
                moves = [m.replace("-", "").lower() for m, _ in played[:start]]
                fields = engine.fen(tags["FEN"], moves).split()
                if fields[0] in seen:
                    continue
                seen.add(fields[0])
                fields[4:6] = ["0", "1"]
                out.write(" ".join(fields) + "\n")
    print(f"{len(seen)} positions written to {args.out}")


if __name__ == "__main__":
    main()
