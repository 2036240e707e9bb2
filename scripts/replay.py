"""A chuhan process that replays ICCS moves and reports the position's FEN (its `d` command),
for the scripts that read match PGNs."""
import subprocess


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def fen(self, start, moves):
        self.proc.stdin.write(f"position fen {start} moves {' '.join(moves)}\nd\n")
        self.proc.stdin.flush()
        fen = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if line.startswith("FEN: "):
                fen = line[5:].strip()
            elif line.startswith("Key:"):
                return fen
