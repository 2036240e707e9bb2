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

from match_pgn import games, parity, score
from replay import Engine

LAST_PLIES = 100


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
            for tags, played in games(path):
                if tags.get("Termination") != "move limit" or "FEN" not in tags:
                    continue
                if args.name not in (tags.get("Red"), tags.get("Black")):
                    continue
                ours = parity(tags, tags["Red"] == args.name)
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
