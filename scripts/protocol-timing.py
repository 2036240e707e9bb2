#!/usr/bin/env python3
"""Wall-clock figures of the engine as a GUI sees them, through its stdin/stdout.

    scripts/protocol-timing.py [ENGINE] [--runs N] [--movetime MS]

Prints: `go movetime MS` reply times over N runs (from sending `go` to reading `bestmove`),
`isready` and `stop` latencies in the middle of `go infinite` searches, and peak memory with the
default Hash (64 MB) read from /proc while searching.
"""
import argparse
import statistics
import subprocess
import sys
import threading
import time
import queue

POSITIONS = [
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "position fen 2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/1NBAKAB2 w - - 0 1",
]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(
            [cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.perf_counter(), line.rstrip("\n")))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return time.perf_counter()

    def wait_for(self, prefix, timeout=30.0):
        end = time.perf_counter() + timeout
        while True:
            t, line = self.q.get(timeout=max(0.01, end - time.perf_counter()))
            if line.startswith(prefix):
                return t, line

    def rss_kb(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", nargs="?", default="target/release/chuhan")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=1000)
    a = ap.parse_args()

    e = Engine(a.engine)
    e.send("uci")
    e.wait_for("uciok")
    e.send("isready")
    e.wait_for("readyok")

    took = []
    for i in range(a.runs):
        e.send(POSITIONS[i % len(POSITIONS)])
        t0 = e.send(f"go movetime {a.movetime}")
        t1, _ = e.wait_for("bestmove")
        took.append((t1 - t0) * 1000)
    print(
        f"go movetime {a.movetime} x{a.runs}: min {min(took):.1f} ms, median "
        f"{statistics.median(took):.1f} ms, max {max(took):.1f} ms, "
        f"over budget {sum(t > a.movetime for t in took)}"
    )

    ready, stop = [], []
    for i in range(a.runs):
        e.send(POSITIONS[i % len(POSITIONS)])
        e.send("go infinite")
        e.wait_for("info depth")
        time.sleep(0.2)  # let the search get deep; a pause, not synchronisation
        t0 = e.send("isready")
        t1, _ = e.wait_for("readyok")
        ready.append((t1 - t0) * 1000)
        t0 = e.send("stop")
        t1, _ = e.wait_for("bestmove")
        stop.append((t1 - t0) * 1000)
    for name, xs in (("isready during search", ready), ("stop to bestmove", stop)):
        print(
            f"{name} x{a.runs}: median {statistics.median(xs):.2f} ms, max {max(xs):.2f} ms"
        )
    print(f"peak resident memory (Hash 64): {e.rss_kb() / 1024:.1f} MB")
    e.quit()


if __name__ == "__main__":
    sys.exit(main())
