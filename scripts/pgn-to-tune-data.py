#!/usr/bin/env python3
"""Turns match games into `chuhan tune fit` data: `<FEN> ; <result>` lines, the result from
Red's view (1, 0.5 or 0).

    scripts/pgn-to-tune-data.py --engine target/release/chuhan --out ref.txt games.pgn ...

Reads the ICCS move text that `chuhan match` writes, asks the engine (its `d` command) for the
FEN of each position, and keeps the positions after the eighth ply whose next move in the game
is no capture and whose recorded score is no mate. Used to test an evaluation term against
games with other engines (`chuhan tune fit --data ref.txt --iterations 1` prints the held-out
error at the fitted K; compare two builds on the same file).
"""
import argparse
import re

from replay import Engine

RESULTS = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}
FIRST_PLY = 8


def occupied(fen, square):
    """Whether `square` (like "e4") holds a piece in the FEN's board."""
    file, rank = ord(square[0]) - ord("a"), int(square[1])
    col = 0
    for ch in fen.split()[0].split("/")[9 - rank]:
        if ch.isdigit():
            col += int(ch)
        elif col == file:
            return True
        else:
            col += 1
        if col > file:
            return False
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True, help="a chuhan binary")
    ap.add_argument("--out", required=True)
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    engine = Engine(args.engine)
    kept = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for path in args.pgn:
            text = open(path, encoding="utf-8").read()
            for game in re.split(r"\n(?=\[Game )", text):
                tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
                if tags.get("Result") not in RESULTS or "FEN" not in tags:
                    continue
                body = game[game.rfind("]") + 1 :]
                played = re.findall(r"([A-I]\d-[A-I]\d)\s*\{([^}/ ]*)/", body)
                moves = [m.replace("-", "").lower() for m, _ in played]
                for i in range(FIRST_PLY, len(moves)):
                    if "M" in played[i][1]:
                        continue
                    fen = engine.fen(tags["FEN"], moves[:i])
                    if occupied(fen, moves[i][2:4]):
                        continue
                    out.write(f"{fen} ; {RESULTS[tags['Result']]}\n")
                    kept += 1
    print(f"{kept} positions written to {args.out}")


if __name__ == "__main__":
    main()
