#!/usr/bin/env python3
"""Time to depth and effective branching factor of UCI engines on the bench positions.

    scripts/time-to-depth.py [--movetime MS | --depth D] [--hash MB] [--epd FILE]
        [--option NAME:OPTION=VALUE ...] NAME=CMD [NAME=CMD ...]

Each engine searches every position of the EPD file (default bench-positions/bench.epd) for
MS milliseconds (or to depth D: node counts then do not depend on the machine's load) on one
thread after `ucinewgame`, with the same hash size; `--option chuhan:EvalFile=net2.nnue` sets
an option of the engine named chuhan. From the `info` lines it reads, for every depth, the
time, nodes and selective depth at which the depth was completed. It prints per engine: the
median time, nodes and selective depth at each depth over the positions that reached it, how
many did, the median depth reached, and the effective branching factor (the geometric mean of
nodes(d) / nodes(d-1) over positions and depths 6 and up). Engines run one after the other, so
they can be compared in one run. Engines count the selective depth differently: chuhan counts
every node's ply, Stockfish's family only PV nodes'.
"""
import argparse
import math
import shlex
import statistics
import subprocess
import sys
from pathlib import Path


def fens(path):
    for line in Path(path).read_text().splitlines():
        fen = line.split(";")[0].strip()
        if fen and not fen.startswith("#"):
            yield fen


def field(words, name, cast=int):
    if name in words:
        i = words.index(name)
        if i + 1 < len(words):
            try:
                return cast(words[i + 1])
            except ValueError:
                return None
    return None


def search(engine, fen, go):
    """{depth: (ms, nodes, seldepth)} for the depths the search completed (last report of
    each)."""
    send(engine, "ucinewgame")
    send(engine, "isready")
    wait(engine, "readyok")
    send(engine, f"position fen {fen}")
    send(engine, f"go {go}")
    depths = {}
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("engine closed its output")
        words = line.split()
        if not words:
            continue
        if words[0] == "bestmove":
            return depths
        if words[0] != "info" or "pv" not in words:
            continue
        if "lowerbound" in words or "upperbound" in words:
            continue
        d, t, n = field(words, "depth"), field(words, "time"), field(words, "nodes")
        if None not in (d, t, n) and (field(words, "multipv") or 1) == 1:
            depths[d] = (t, n, field(words, "seldepth") or d)


def send(engine, line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def wait(engine, token):
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("engine closed its output")
        if line.strip() == token:
            return


def run(name, cmd, args):
    engine = subprocess.Popen(
        shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    send(engine, "uci")
    wait(engine, "uciok")
    send(engine, f"setoption name Hash value {args.hash}")
    send(engine, "setoption name Threads value 1")
    for spec in args.option:
        who, _, setting = spec.partition(":")
        option, _, value = setting.partition("=")
        if who == name:
            send(engine, f"setoption name {option} value {value}")
    go = f"depth {args.depth}" if args.depth else f"movetime {args.movetime}"
    per_pos = [search(engine, fen, go) for fen in fens(args.epd)]
    send(engine, "quit")
    engine.wait(timeout=10)

    print(f"{name}: {len(per_pos)} positions, go {go} each, Hash {args.hash}")
    print(f"  {'depth':>5} {'reached':>7} {'median ms':>10} {'median nodes':>13} {'seldepth':>8}")
    top = max((max(d) for d in per_pos if d), default=0)
    for depth in range(1, top + 1):
        hits = [d[depth] for d in per_pos if depth in d]
        if not hits:
            continue
        print(
            f"  {depth:>5} {len(hits):>7} {statistics.median(h[0] for h in hits):>10.0f}"
            f" {statistics.median(h[1] for h in hits):>13.0f}"
            f" {statistics.median(h[2] for h in hits):>8.1f}"
        )
    logs = [
        math.log(d[k][1] / d[k - 1][1])
        for d in per_pos
        for k in d
        if k >= 6 and k - 1 in d and d[k - 1][1] > 0 and d[k][1] > d[k - 1][1]
    ]
    reached = [max(d) for d in per_pos if d]
    nps = [d[max(d)][1] * 1000 / max(1, d[max(d)][0]) for d in per_pos if d]
    print(
        f"  median depth reached {statistics.median(reached):.1f}, effective branching factor"
        f" {math.exp(statistics.fmean(logs)) if logs else float('nan'):.2f},"
        f" median nodes/s {statistics.median(nps):.0f}"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--depth", type=int, help="search to this depth instead of for a time")
    ap.add_argument("--option", action="append", default=[], metavar="NAME:OPTION=VALUE")
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--epd", default=str(Path(__file__).parent.parent / "bench-positions/bench.epd"))
    ap.add_argument("engines", nargs="+", metavar="NAME=CMD")
    args = ap.parse_args()
    for spec in args.engines:
        name, _, cmd = spec.partition("=")
        run(name, cmd or name, args)


if __name__ == "__main__":
    main()
