"""The driver on a local Ray cluster (started here on 127.0.0.1): a run split into shards
equals the whole run played by one chuhan, byte for byte (datagen) and game for game (match,
SPSA); a worker killed mid-shard is retried without a game lost or doubled (a game its kill
ended is played again); another build's binary is refused; a stopped run resumes from its
finished shards."""

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHUHAN = REPO / "target" / "release" / "chuhan"
FAKE = REPO / "target" / "release" / "examples" / "fake-engine"
RAY = Path(sys.executable).with_name("ray")
# Loopback only: Ray otherwise swaps 127.0.0.1 for the machine's outward address, which a
# cluster started on 127.0.0.1 does not listen on (and a sandbox may not have).
ENV = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled",
       "RAY_USAGE_STATS_ENABLED": "0",
       "PYTHONPATH": str(REPO / "cluster")}


@pytest.fixture(scope="session", autouse=True)
def binaries():
    # Up to date after `cargo test --release`; built here when the tests run alone.
    subprocess.run(
        ["cargo", "build", "--release", "--bin", "chuhan", "--example", "fake-engine"],
        cwd=REPO,
        check=True,
    )


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    subprocess.run(
        [RAY, "start", "--head", "--node-ip-address=127.0.0.1", f"--port={port}",
         "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
        check=True, env=ENV, capture_output=True,
    )
    yield f"127.0.0.1:{port}"
    subprocess.run([RAY, "stop", "--force"], env=ENV, capture_output=True)


def driver(cluster, out, command, *chuhan_args, extra=(), wait=True):
    cmd = [sys.executable, "-m", "chuhan_cluster", "--address", cluster, "--binary", CHUHAN,
           "--out", out, *extra, command, "--", *chuhan_args]
    if not wait:
        return subprocess.Popen(cmd, cwd=REPO, env=ENV, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    return subprocess.run(cmd, cwd=REPO, env=ENV, capture_output=True, text=True)


def chuhan(*args):
    return subprocess.run([CHUHAN, *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, check=True)


def games(pgn: Path) -> dict:
    """Round to (moves, result) of every game in a PGN file (comments, which hold the
    times, left out)."""
    out = {}
    for record in re.split(r"\n(?=\[Game )", pgn.read_text().strip()):
        round_ = int(re.search(r'\[Round "(\d+)"\]', record).group(1))
        movetext = "\n".join(l for l in record.splitlines() if not l.startswith("["))
        movetext = re.sub(r"\{[^}]*\}", " ", movetext)
        out[round_] = (" ".join(movetext.split()), re.search(r'\[Result "([^"]+)"\]', record)[1])
    return out


DATAGEN = ["--games", "6", "--nodes", "1000", "--threads", "1", "--seed", "5"]
FAKE_A = ["--engine", f"cmd={FAKE}", "name=a"]
FAKE_B = ["--engine", f"cmd={FAKE}", "name=b", "arg=--seed", "arg=2"]
MATCH = [*FAKE_A, *FAKE_B, "--depth", "1", "--games", "10",
         "--openings", "bench-positions/openings.epd"]


def test_datagen_shards_are_the_whole_run_byte_for_byte(cluster, tmp_path):
    chuhan("datagen", *DATAGEN, "--out", tmp_path / "whole.bin")
    r = driver(cluster, tmp_path / "run", "datagen", *DATAGEN, extra=["--shards", "3"])
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "run" / "data.bin").read_bytes() == (tmp_path / "whole.bin").read_bytes()
    assert (tmp_path / "run" / "data.bin.progress").read_text() == (
        tmp_path / "whole.bin.progress").read_text()


def test_a_stopped_run_resumes_from_its_finished_shards_and_a_new_command_is_refused(
        cluster, tmp_path):
    run = tmp_path / "run"
    assert driver(cluster, run, "datagen", *DATAGEN, extra=["--shards", "3"]).returncode == 0
    whole = (run / "data.bin").read_bytes()
    # As if the run had stopped before its second shard came back.
    kept = (run / "shards" / "part-1" / "part.bin").stat().st_mtime_ns
    for f in (run / "shards" / "part-2").iterdir():
        f.unlink()
    (run / "data.bin").unlink()
    r = driver(cluster, run, "datagen", *DATAGEN, extra=["--shards", "3"])
    assert r.returncode == 0, r.stderr
    assert (run / "data.bin").read_bytes() == whole
    assert (run / "shards" / "part-1" / "part.bin").stat().st_mtime_ns == kept
    other = driver(cluster, run, "datagen", *DATAGEN[:-1], "6", extra=["--shards", "3"])
    assert other.returncode == 2 and "holds another run" in other.stderr


def test_match_shards_are_the_whole_match_game_for_game(cluster, tmp_path):
    whole = tmp_path / "whole.pgn"
    report = chuhan("match", *MATCH, "--pgn", whole).stdout
    r = driver(cluster, tmp_path / "run", "match", *MATCH, extra=["--shards", "3"])
    assert r.returncode == 0, r.stderr
    assert games(tmp_path / "run" / "games.pgn") == games(whole)
    assert len(games(whole)) == 10
    assert (tmp_path / "run" / "report.txt").read_text() == report


def chuhan_shard_process(run_marker: str):
    """(pid, parent pid, PGN path) of a chuhan playing shard 2/2 of a run whose folder
    holds `run_marker`, if one runs."""
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            stat = (proc / "stat").read_text()
        except OSError:
            continue
        words = [w.decode(errors="replace") for w in argv]
        if str(CHUHAN) in words[:1] and "2/2" in words and "--pgn" in words:
            pgn = Path(words[words.index("--pgn") + 1])
            if run_marker in str(pgn):
                return int(proc.name), int(stat.rsplit(")", 1)[1].split()[1]), pgn
    return None


def wait_for(condition, timeout=120.0):
    """Polls `condition` until it answers something true (the shard is a separate process
    tree the test can only watch)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_worker_killed_mid_shard_is_retried_and_the_match_is_still_whole(cluster, tmp_path):
    slow = [*FAKE_A, "arg=--think", "arg=10", *FAKE_B, "arg=--think", "arg=10",
            "--depth", "1", "--games", "8", "--openings", "bench-positions/openings.epd"]
    whole = tmp_path / "whole.pgn"
    chuhan("match", *slow, "--pgn", whole)
    run = tmp_path / "run"
    proc = driver(cluster, run, "match", *slow, extra=["--shards", "2"], wait=False)
    # The shard's chuhan, once it has finished a game: kill its Ray worker (and with it chuhan).
    def one_game_in():
        found = chuhan_shard_process("chuhan-cluster/runs/")
        if found and found[2].exists() and "[Round" in found[2].read_text():
            return found
        return None
    pid, worker, pgn = wait_for(one_game_in)
    os.kill(worker, signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert games(run / "games.pgn") == games(whole)
    attempts = (pgn.parent / "attempts.log").read_text().splitlines()
    assert len(attempts) == 2 and "--resume" in attempts[1], attempts


def test_a_lost_attempts_crashed_games_at_the_end_are_dropped_before_it_resumes(tmp_path):
    sys.path.insert(0, str(REPO / "cluster"))
    from chuhan_cluster.shards import drop_trailing_crashes

    def record(n, termination):
        return (f'[Game "Chinese Chess"]\n[Event "chuhan match"]\n[Round "{n}"]\n'
                f'[Termination "{termination}"]\n\n1. H2-E2 H9-G7 0-1\n\n')
    kept = record(1, "checkmate") + record(2, "Red crashed (closed its output)") + record(3, "repetition")
    pgn = tmp_path / "part.pgn"
    # Two games the kill ended, then a record cut off while it was written.
    pgn.write_text(kept + record(4, "Black crashed (closed its output)")
                   + record(5, "Red crashed (closed its output)") + '[Game "Chinese Chess"]\n[Ev')
    assert drop_trailing_crashes(pgn) == 3
    # A crash before the end was a real one: the match went on after it.
    assert pgn.read_text() == kept
    assert drop_trailing_crashes(pgn) == 0 and pgn.read_text() == kept


def test_a_node_with_another_build_or_none_is_refused(cluster, tmp_path):
    other = tmp_path / "other-chuhan"
    other.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = bench ]; then echo "Nodes searched: 1"; exit 0; fi\n'
        f'exec "{CHUHAN}" "$@"\n'
    )
    other.chmod(0o755)
    r = driver(cluster, tmp_path / "run", "datagen", *DATAGEN,
               extra=["--shards", "2", "--worker-binary", str(other)])
    assert r.returncode == 2
    assert "refused" in r.stderr and "bench 1;" in r.stderr, r.stderr
    assert not (tmp_path / "run" / "data.bin").exists()
    missing = driver(cluster, tmp_path / "run2", "datagen", *DATAGEN,
                     extra=["--shards", "2", "--worker-binary", str(tmp_path / "none")])
    assert missing.returncode == 2 and "no chuhan to run" in missing.stderr, missing.stderr


def test_spsa_iterations_spread_over_shards_move_the_values_as_one_machine_does(
        cluster, tmp_path):
    spsa = ["--engine", f"cmd={FAKE}", "--depth", "1", "--games", "6", "--iterations", "2",
            "--params", "lmr_divisor,futility_base",
            "--openings", "bench-positions/openings.epd"]
    chuhan("tune", "spsa", *spsa, "--log", tmp_path / "whole.log")
    r = driver(cluster, tmp_path / "run", "spsa", *spsa, extra=["--shards", "3"])
    assert r.returncode == 0, r.stderr
    log = (tmp_path / "run" / "spsa.log").read_text()
    assert log == (tmp_path / "whole.log").read_text()
    assert len(log.splitlines()) == 2
