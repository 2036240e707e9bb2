#!/usr/bin/env python3
"""The longest functions of a folder at a revision, by lines from `fn` to its closing brace.

    python3 scripts/longest-functions.py [REV] [FOLDER] [COUNT]   # default HEAD src/search/ 8
"""
import re
import subprocess
import sys

FN = re.compile(r"\s*(pub(\([a-z]+\))? )?(const )?fn (\w+)")


def lengths(text, name):
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            depth += lines[j].count("{") - lines[j].count("}")
            opened |= "{" in lines[j]
            if opened and depth <= 0:
                break
        yield j - i + 1, f"{name}:{m.group(4)}"


def main():
    rev = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    folder = sys.argv[2] if len(sys.argv) > 2 else "src/search/"
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, folder],
                           capture_output=True, text=True, check=True).stdout.split()
    found = []
    for f in files:
        if f.endswith(".rs"):
            text = subprocess.run(["git", "show", f"{rev}:{f}"], capture_output=True,
                                  text=True, check=True).stdout
            found += lengths(text, f.rsplit("/", 1)[-1])
    for n, name in sorted(found, reverse=True)[:count]:
        print(n, name)


main()
