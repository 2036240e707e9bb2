"""`python -m chuhan_cluster [options] datagen|match|spsa -- <chuhan's own arguments>`.

Each subcommand splits one chuhan run into `--shards` shards (chuhan's `--shard K/N`: the same
seeds, openings and colours as the whole run), plays one Ray task per shard, then joins the
shards on the driver with the local chuhan: `datagen merge` into `data.bin`, `match merge`
into `report.txt` (and `games.pgn`), `tune spsa --record` into `spsa.log`, one iteration at a
time.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import ray

import chuhan_cluster
from chuhan_cluster import signature
from chuhan_cluster.runs import Run, RunError, execute
from chuhan_cluster.shards import Shard

# What the driver sets for each shard, so the user must not.
OWNED = {
    "datagen": ["--out", "--shard"],
    "match": ["--pgn", "--shard", "--resume", "--sprt"],
    "spsa": ["--log", "--shard", "--pgn", "--resume", "--record", "--sprt", "--write-back"],
}


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m chuhan_cluster", description=__doc__)
    p.add_argument("--address", help="an existing Ray cluster (default: start a local one)")
    p.add_argument("--local-cpus", type=int, help="CPUs of the local cluster (default: all)")
    p.add_argument("--binary", default="target/release/chuhan", help="chuhan on this machine")
    p.add_argument(
        "--worker-binary", help="chuhan's path on every node (default: the same as --binary)"
    )
    p.add_argument(
        "--worker-dir",
        default=os.getcwd(),
        help="where chuhan runs on every node: relative paths in its arguments are found from "
        "here (default: this folder, so the same checkout path on every node)",
    )
    p.add_argument("--shards", type=int, required=True, help="tasks the run is split into")
    p.add_argument("--cpus-per-task", type=float, default=1, help="Ray CPUs a shard takes")
    p.add_argument("--retries", type=int, default=3, help="attempts after a shard fails")
    p.add_argument("--out", type=Path, required=True, help="the run's folder (resumable)")
    p.add_argument("--sprt", help="match: the SPRT the report judges by (elo0=…,elo1=…)")
    p.add_argument("command", choices=["datagen", "match", "spsa"])
    p.add_argument("chuhan_args", nargs=argparse.REMAINDER, help="-- chuhan's arguments")
    a = p.parse_args(argv)
    if a.chuhan_args[:1] == ["--"]:
        a.chuhan_args = a.chuhan_args[1:]
    for flag in OWNED[a.command]:
        if any(w == flag or w.startswith(flag + "=") for w in a.chuhan_args):
            p.error(f"{flag} is the driver's to set for each shard: leave it out")
    if a.shards < 1:
        p.error("--shards must be at least 1")
    if a.command == "spsa" and "--iterations" not in a.chuhan_args:
        p.error("spsa needs --iterations N among chuhan's arguments")
    return a


def local(binary: str, *args) -> str:
    done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RunError(f"{binary} {' '.join(map(str, args))}: {done.stderr.strip()}")
    return done.stdout


def datagen(a, sig, worker):
    run = Run(a.out, {"kind": "datagen", "args": a.chuhan_args, "shards": a.shards, **sig})
    names = [f"part-{k}" for k in range(1, a.shards + 1)]
    tasks = [
        Shard(
            run.id,
            name,
            ["datagen", *a.chuhan_args, "--shard", f"{k}/{a.shards}", "--out", "part.bin"],
            ["part.bin", "part.bin.progress"],
            a.worker_dir,
        )
        for k, name in enumerate(names, 1)
    ]
    execute(run, tasks, worker, sig, a.cpus_per_task, a.retries)
    out = a.out / "data.bin"
    tmp = out.with_suffix(".bin.tmp")
    for stale in (tmp, tmp.with_name(tmp.name + ".progress")):
        stale.unlink(missing_ok=True)
    local(a.binary, "datagen", "merge", "--out", tmp, *run.outputs(names, "part.bin"))
    tmp.replace(out)
    tmp.with_name(tmp.name + ".progress").replace(out.with_name(out.name + ".progress"))
    print(f"{out}: {out.stat().st_size} bytes from {a.shards} shards")


def play_shards(run, a, sig, worker, args, inputs=None):
    """The shards of one match-like run (`args` without --shard/--pgn); their PGN files."""
    names = [f"part-{k}" for k in range(1, a.shards + 1)]
    tasks = [
        Shard(
            run.id,
            name,
            [*args, "--shard", f"{k}/{a.shards}", "--pgn", "part.pgn"],
            ["part.pgn"],
            a.worker_dir,
            inputs or {},
            "--resume",
        )
        for k, name in enumerate(names, 1)
    ]
    execute(run, tasks, worker, sig, a.cpus_per_task, a.retries)
    return run.outputs(names, "part.pgn")


def match(a, sig, worker):
    run = Run(a.out, {"kind": "match", "args": a.chuhan_args, "shards": a.shards, **sig})
    pgns = play_shards(run, a, sig, worker, ["match", *a.chuhan_args])
    with open(a.out / "games.pgn", "wb") as games:
        for p in pgns:
            games.write(p.read_bytes())
    report = local(a.binary, "match", "merge", *pgns, *(["--sprt", a.sprt] if a.sprt else []))
    (a.out / "report.txt").write_text(report)
    print(report, end="")


def iterations_done(log: Path) -> int:
    if not log.exists():
        return 0
    return sum(1 for line in log.read_text().splitlines() if line.startswith("iteration "))


def spsa(a, sig, worker):
    Run(a.out, {"kind": "spsa", "args": a.chuhan_args, "shards": a.shards, **sig})
    iterations = int(a.chuhan_args[a.chuhan_args.index("--iterations") + 1])
    log = a.out / "spsa.log"
    args = ["tune", "spsa", *a.chuhan_args]
    while (k := iterations_done(log) + 1) <= iterations:
        state = log.read_bytes() if log.exists() else b""
        run = Run(
            a.out / "iterations" / str(k),
            {"kind": "spsa iteration", "iteration": k, "log": state.decode(), **sig},
        )
        pgns = play_shards(run, a, sig, worker, [*args, "--log", "spsa.log"], {"spsa.log": state})
        local(a.binary, *args, "--log", log, "--record", *pgns)
        print(log.read_text().splitlines()[-1], file=sys.stderr)
    print(log.read_text().splitlines()[-1])


def main(argv=None) -> int:
    a = parse(argv if argv is not None else sys.argv[1:])
    worker = a.worker_binary or a.binary
    try:
        sig = signature.compute(a.binary)
        ray.init(
            address=a.address,
            num_cpus=None if a.address else (a.local_cpus or os.cpu_count()),
            runtime_env={"py_modules": [chuhan_cluster]},
            log_to_driver=False,
        )
        {"datagen": datagen, "match": match, "spsa": spsa}[a.command](a, sig, worker)
    except RunError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("stopped: the same command goes on from the finished shards", file=sys.stderr)
        return 130
    return 0
