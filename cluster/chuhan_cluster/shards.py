"""One shard of a run as a Ray task: the node's chuhan plays it in a folder of its own, and the
task hands back the output files' bytes (nodes share no file system).

A retried shard (a failed exit, or a worker or node lost) lands in the same folder when it runs
on the same node, and chuhan goes on from what the last attempt left (datagen's progress file,
`--resume` for a match's PGN), so no game is played twice into the output. Elsewhere it starts
the shard afresh; games are deterministic by seed and opening, so the output is the same.

A lost worker's processes die in no set order: an engine killed before its chuhan makes chuhan
record the game as lost by a crash. Such games at the end of a match's PGN are dropped before
it resumes, and played again.
"""

import ctypes
import fcntl
import os
import re
import signal
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from chuhan_cluster import signature


class ShardFailed(Exception):
    """chuhan failed on a shard (retried by Ray)."""


@dataclass(frozen=True)
class Shard:
    run_id: str
    name: str
    # chuhan's arguments: a word that names an output or input is that file in the shard's
    # folder; other relative paths are found from `cwd`.
    args: list
    outputs: list
    cwd: str
    # Files written into the folder before chuhan starts (an SPSA log).
    inputs: dict = field(default_factory=dict)
    # Added to `args` when an earlier attempt left an output behind.
    resume_flag: str | None = None


def _die_with_parent() -> None:
    # A killed worker must not leave its chuhan playing on into the folder.
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _folder(shard: Shard) -> tuple[Path, int]:
    """The shard's folder on this node, locked; a fresh one when a live attempt holds it."""
    base = Path(tempfile.gettempdir()) / "chuhan-cluster" / "runs" / shard.run_id / shard.name
    for folder in (base, base.with_name(f"{shard.name}-{uuid.uuid4().hex[:8]}")):
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / ".lock", os.O_CREAT | os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return folder, fd
        except BlockingIOError:
            os.close(fd)
    raise ShardFailed(f"{shard.name}: no free folder")


# A game record ends with its movetext and a blank line; the next starts with a tag.
RECORD_START = re.compile(r"(?<=\n\n)(?=\[)")
CRASHED = re.compile(r'^\[Termination "[^"]* crashed \(', re.M)


def drop_trailing_crashes(pgn: Path) -> int:
    """Drops the games at the end of `pgn` that an engine's crash ended (and a record cut off
    after them); returns how many records went."""
    text = pgn.read_text(encoding="utf-8")
    records = RECORD_START.split(text)
    dropped = 0
    while records and (CRASHED.search(records[-1]) or not records[-1].endswith("\n\n")):
        records.pop()
        dropped += 1
    if dropped:
        pgn.write_text("".join(records), encoding="utf-8")
    return dropped


def play(binary: str, expected: dict, shard: Shard) -> dict:
    """Runs `shard` with the node's chuhan at `binary` (which must have the `expected`
    signature) and answers its outputs: file name to bytes."""
    signature.check(binary, expected)
    folder, lock = _folder(shard)
    try:
        for name, data in shard.inputs.items():
            (folder / name).write_bytes(data)
        own = set(shard.outputs) | set(shard.inputs)
        args = [str(folder / w) if w in own else w for w in shard.args]
        if shard.resume_flag and any((folder / o).exists() for o in shard.outputs):
            for pgn in (folder / o for o in shard.outputs if o.endswith(".pgn")):
                if pgn.exists():
                    drop_trailing_crashes(pgn)
            args.append(shard.resume_flag)
        with open(folder / "attempts.log", "a") as log:
            log.write(f"{time.strftime('%F %T')} pid {os.getpid()}: {' '.join(args)}\n")
        with open(folder / "chuhan.stderr", "ab") as err:
            done = subprocess.run(
                [binary, *args],
                cwd=shard.cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                preexec_fn=_die_with_parent,
            )
        if done.returncode != 0:
            tail = (folder / "chuhan.stderr").read_bytes()[-2000:].decode(errors="replace")
            raise ShardFailed(f"{shard.name}: chuhan exited with {done.returncode}:\n{tail}")
        return {o: (folder / o).read_bytes() for o in shard.outputs if (folder / o).exists()}
    finally:
        os.close(lock)
