#!/usr/bin/env python3
"""Positions where another engine's move surprised chuhan, and how fast chuhan finds that move.

`extract` reads `chuhan match` PGNs and writes one line per surprise: chuhan's evaluation fell
by at least --drop pawns between its move before the opponent's and its move after, from no
worse than --floor. The line holds the position before the opponent's move (the match's FEN and
the moves to it, `position` syntax) and the opponent's move: the refutation chuhan missed.

`solve` searches each position with one engine setting per --setting, a fixed node budget each,
and reports how many refutations each finds and the nodes it needs: the count of the first
`info` line from which the best move is the refutation to the end of the search. Node counts do
not depend on the machine's load, so settings compare exactly.

    scripts/refutations.py extract --engine-prefix chuhan games.pgn > surprises.txt
    scripts/refutations.py solve --nodes 2000000 --setting main: \
        --setting wide:rfp_margin=120 --cmd chuhan --option EvalFile=nets/net2.nnue surprises.txt
"""

import argparse
import statistics
import subprocess
import sys

from match_pgn import games, parity, score


def uci(move):
    return move.replace('-', '').lower()


def extract(args):
    for path in args.pgn:
        for tags, moves in games(path):
            ours_red = tags.get('Red', '').startswith(args.engine_prefix)
            ours_black = tags.get('Black', '').startswith(args.engine_prefix)
            if ours_red == ours_black or 'FEN' not in tags:
                continue
            ours = parity(tags, ours_red)
            for k in range(1, len(moves) - 1):
                if k % 2 == ours:
                    continue
                before, after = score(moves[k - 1][1]), score(moves[k + 1][1])
                if before is None or after is None:
                    continue
                if before >= args.floor and before - after >= args.drop:
                    line = ' '.join(uci(m[0]) for m in moves[:k])
                    print(f"{tags['FEN']}|{line}|{uci(moves[k][0])}|"
                          f"{tags.get('Round', '?')}|{before:+.2f}|{after:+.2f}")


class Engine:
    def __init__(self, cmd, options):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('uci')
        self.wait('uciok')
        for name, value in options:
            self.send(f'setoption name {name} value {value}')
        self.send('isready')
        self.wait('readyok')

    def send(self, line):
        self.p.stdin.write(line + '\n')

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError('engine closed its output')
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def solve(self, fen, moves, answer, nodes):
        """Nodes from which `answer` stays the best move to the end, None if it is not found."""
        self.send('ucinewgame')
        self.send(f'position fen {fen}' + (f' moves {moves}' if moves else ''))
        self.send(f'go nodes {nodes}')
        *infos, last = self.wait('bestmove')
        found = None
        for line in infos:
            f = line.split()
            if 'pv' not in f or 'nodes' not in f or 'bound' in line:
                continue
            if f[f.index('pv') + 1] != answer:
                found = None
            elif found is None:
                found = int(f[f.index('nodes') + 1])
        return found if last.split()[1] == answer else None

    def close(self):
        self.send('quit')
        self.p.wait()


def solve(args):
    cases = [line.rstrip('\n').split('|') for line in open(args.file) if '|' in line]
    base_options = [o.split('=', 1) for o in args.option]
    print(f'{len(cases)} positions, {args.nodes} nodes each')
    results = {}
    for setting in args.setting:
        name, _, opts = setting.partition(':')
        options = base_options + [o.split('=', 1) for o in opts.split(',') if o]
        engine = Engine(args.cmd, options)
        found = []
        for fen, moves, answer, *_ in cases:
            found.append(engine.solve(fen, moves, answer, args.nodes))
        engine.close()
        results[name] = found
        solved = [n for n in found if n is not None]
        # Unsolved count at the budget: the median is over all positions.
        ranked = sorted(n if n is not None else args.nodes * 10 for n in found)
        median = statistics.median(ranked)
        shown = f'{median:,.0f}' if median <= args.nodes else f'> {args.nodes:,}'
        print(f'{name:>16}: solved {len(solved)}/{len(found)}, median nodes {shown}',
              flush=True)
    if args.verbose:
        for i, case in enumerate(cases):
            row = ' '.join(f'{results[s.partition(":")[0]][i] or "-":>9}' for s in args.setting)
            print(f'{case[3]:>4} {case[2]} {row}')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='command', required=True)
    ex = sub.add_parser('extract', help='surprises out of match PGNs')
    ex.add_argument('pgn', nargs='+')
    ex.add_argument('--engine-prefix', default='chuhan',
                    help="chuhan's name in the PGN starts with this")
    ex.add_argument('--drop', type=float, default=1.5, help='pawns the evaluation falls by')
    ex.add_argument('--floor', type=float, default=-1.0,
                    help='the evaluation before is at least this (pawns)')
    so = sub.add_parser('solve', help='nodes each setting needs to find the refutations')
    so.add_argument('file')
    so.add_argument('--cmd', default='chuhan')
    so.add_argument('--nodes', type=int, default=2_000_000)
    so.add_argument('--option', action='append', default=[],
                    help='NAME=VALUE for every setting')
    so.add_argument('--setting', action='append', required=True,
                    help='NAME:OPT=VAL,OPT=VAL (NAME: for the defaults)')
    so.add_argument('--verbose', action='store_true', help='a row per position')
    args = ap.parse_args()
    if args.command == 'extract':
        extract(args)
    else:
        solve(args)


if __name__ == '__main__':
    sys.exit(main())
