#!/usr/bin/env python3
"""Ratings of every engine in a set of match PGNs, on one scale with one engine anchored.

    scripts/elo-ladder.py --anchor eleeye=2000 ladder/*.pgn

Maximum-likelihood logistic Elo (Bradley-Terry, a draw half a win for each side) over all the
games together, so an engine met by several others is placed by all its games; the 95% intervals come
from resampling the games of each pairing (bootstrap). Prints a markdown table, weakest first.
"""

import argparse
import math
import random
import re
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]')
POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def games(paths):
    """(red, black, red's points) of every finished game."""
    out = []
    for path in paths:
        tags = {}
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = TAG.match(line)
                if m:
                    tags[m.group(1)] = m.group(2)
                    if m.group(1) == "Result" and {"Red", "Black"} <= tags.keys():
                        if m.group(2) in POINTS:
                            out.append((tags["Red"], tags["Black"], POINTS[m.group(2)]))
                        tags = {}
    return out


def solve(m, y):
    """Solves m x = y by Gaussian elimination with partial pivoting."""
    n = len(y)
    m = [row[:] + [y[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit(results, names, anchor, anchor_elo, iterations=50):
    """Maximum-likelihood Bradley-Terry strengths by Newton's method, the anchor held fixed.
    Each pairing also gets one virtual draw, so an engine that won or lost every game still
    gets a finite rating."""
    pairs = defaultdict(lambda: [0.0, 0.0])  # (a, b) with a < b -> [a's points, games]
    for red, black, p in results:
        a, b, pa = (red, black, p) if red < black else (black, red, 1 - p)
        pairs[(a, b)][0] += pa
        pairs[(a, b)][1] += 1
    for v in pairs.values():
        v[0] += 0.5
        v[1] += 1
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    theta = {n: 0.0 for n in names}
    for _ in range(iterations):
        grad = [0.0] * len(free)
        hess = [[0.0] * len(free) for _ in free]
        for (a, b), (pa, n) in pairs.items():
            e = 1 / (1 + math.exp(theta[b] - theta[a]))
            g, h = pa - n * e, n * e * (1 - e)
            for x, sign in ((a, 1), (b, -1)):
                if x in index:
                    grad[index[x]] += sign * g
                    hess[index[x]][index[x]] += h
            if a in index and b in index:
                hess[index[a]][index[b]] -= h
                hess[index[b]][index[a]] -= h
        step = solve(hess, grad)
        for n, i in index.items():
            theta[n] += max(-3.0, min(3.0, step[i]))
        if max(abs(x) for x in step) < 1e-9:
            break
    scale = 400 / math.log(10)
    return {n: anchor_elo + scale * (theta[n] - theta[anchor]) for n in names}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--anchor", required=True, help="NAME=ELO: the engine whose rating is fixed")
    ap.add_argument("--bootstrap", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("pgn", nargs="+")
    a = ap.parse_args()
    anchor, anchor_elo = a.anchor.split("=")
    anchor_elo = float(anchor_elo)
    results = games(a.pgn)
    names = sorted({g[0] for g in results} | {g[1] for g in results})
    if anchor not in names:
        sys.exit(f"no games of the anchor {anchor}")
    games_of = defaultdict(int)
    points = defaultdict(float)
    for red, black, p in results:
        games_of[red] += 1
        games_of[black] += 1
        points[red] += p
        points[black] += 1 - p
    best = fit(results, names, anchor, anchor_elo)
    by_pair = defaultdict(list)
    for g in results:
        by_pair[frozenset(g[:2])].append(g)
    rng = random.Random(a.seed)
    samples = defaultdict(list)
    for _ in range(a.bootstrap):
        resampled = []
        for gs in by_pair.values():
            resampled.extend(rng.choice(gs) for _ in gs)
        for n, v in fit(resampled, names, anchor, anchor_elo).items():
            samples[n].append(v)
    print("| engine | games | score | Elo | 95% interval |")
    print("|---|---|---|---|---|")
    for n in sorted(names, key=lambda n: best[n]):
        s = sorted(samples[n])
        lo, hi = s[int(0.025 * len(s))], s[int(0.975 * len(s)) - 1]
        pct = 100 * points[n] / games_of[n]
        print(f"| {n} | {games_of[n]} | {pct:.1f}% | {best[n]:.0f} | {lo:.0f} to {hi:.0f} |")


if __name__ == "__main__":
    main()
