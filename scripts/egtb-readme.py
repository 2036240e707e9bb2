#!/usr/bin/env python3
"""The README's list of endgame tables: `chuhan egtb stats` joined with the build logs'
times (`MATERIAL: N positions in T s`, as `chuhan egtb build` writes them on stderr).

    scripts/egtb-readme.py --engine target/release/chuhan --dir tb tb-build.log ... > list.md
"""
import argparse
import re
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()
    seconds = {}
    for path in args.logs:
        for line in open(path, encoding="utf-8"):
            m = re.match(r"(K\w+): \d+ positions in ([\d.]+) s", line)
            if m:
                seconds[m.group(1)] = m.group(2)
    stats = subprocess.run(
        [args.engine, "egtb", "stats", "--dir", args.dir],
        check=True, capture_output=True, text=True,
    ).stdout.splitlines()
    head, rule, rows = stats[0], stats[1], stats[2:]
    print(head + " build (s) |")
    print(rule + "---|")
    for row in rows:
        material = row.split("|")[1].strip()
        print(f"{row} {seconds.get(material, '?')} |")


if __name__ == "__main__":
    main()
