"""The identity of a chuhan binary: its version line and its bench node count.

Every node must run the same build, or a run's shards would not be one run. `chuhan bench`
counts the nodes of a fixed search, so any change to search or evaluation changes it (each
commit that changes it says so with a `Bench:` line). Each node computes it once per binary
file and keeps it in its temp folder.
"""

import hashlib
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path


class WrongBinary(Exception):
    """A node's chuhan is not the build the run was started with (never retried)."""


def compute(binary: str) -> dict:
    version = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    bench = subprocess.run(
        [binary, "bench"], capture_output=True, text=True, check=True
    ).stdout
    nodes = re.search(r"^Nodes searched: (\d+)", bench, re.MULTILINE)
    if not nodes:
        raise WrongBinary(f"{binary}: `bench` printed no node count")
    return {"version": version, "bench": int(nodes.group(1))}


def cached(binary: str) -> dict:
    """The signature of `binary`, computed once per file (path, size, modification time)."""
    path = Path(binary).resolve()
    st = path.stat()
    key = hashlib.sha256(f"{path}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / "chuhan-cluster" / "signatures" / f"{key}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    sig = compute(str(path))
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(sig))
    tmp.replace(cache)
    return sig


def check(binary: str, expected: dict) -> None:
    if not os.access(binary, os.X_OK):
        raise WrongBinary(f"{os.uname().nodename}: no chuhan to run at {binary}")
    found = cached(binary)
    if found != expected:
        raise WrongBinary(
            f"{os.uname().nodename}: {binary} is {found['version']} with bench "
            f"{found['bench']}; the run needs {expected['version']} with bench "
            f"{expected['bench']} (the same commit on every node)"
        )
