#!/usr/bin/env python3
"""Compares the search speed of two builds: `chuhan bench` from each in turn, several rounds,
nodes per second of CPU time (the process's own user and system time, so that other jobs on
the machine slow both builds' clocks but not these figures). Prints each build's mean and the
ratio of the second to the first, with the spread over rounds.

    scripts/bench-speed.py OLD_BINARY NEW_BINARY [--rounds 5] [--depth D] [--eval nnue]
"""

import argparse
import re
import resource
import statistics
import subprocess
import sys


def run_bench(binary, args):
    """One bench run: (nodes, CPU seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [binary, "bench", "--eval", args.eval] + ([str(args.depth)] if args.depth else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = out.stdout + out.stderr
    m = re.search(r"Nodes searched: (\d+)", text)
    if not m:
        sys.exit(f"{binary}: no node count in its bench output")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(m.group(1)), cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--eval", default="nnue")
    args = ap.parse_args()

    speeds = {args.old: [], args.new: []}
    nodes = {}
    for r in range(args.rounds):
        # Alternate which build goes first, so a drift in the machine's load favours neither.
        order = [args.old, args.new] if r % 2 == 0 else [args.new, args.old]
        for binary in order:
            n, cpu = run_bench(binary, args)
            nodes[binary] = n
            speeds[binary].append(n / cpu)
    for binary in (args.old, args.new):
        s = speeds[binary]
        print(f"{binary}: {nodes[binary]} nodes, {statistics.mean(s):,.0f} nodes per CPU second"
              f" (sd {statistics.stdev(s) if len(s) > 1 else 0:,.0f} over {len(s)} runs)")
    ratios = [n / o for o, n in zip(speeds[args.old], speeds[args.new])]
    spread = statistics.stdev(ratios) if len(ratios) > 1 else 0.0
    print(f"ratio new/old: {statistics.mean(ratios):.4f} (sd {spread:.4f} over {len(ratios)} rounds)")
    if nodes[args.old] != nodes[args.new]:
        print("note: the node counts differ, so the builds search differently")


if __name__ == "__main__":
    main()
