"""A run's folder on the driver: what the run is (`run.json`), the shards that finished (each
in `shards/<name>/` with a `.done` mark), and sending the rest to the cluster.

A stopped run started again with the same folder and command sends only the shards without a
mark; a different command or binary for the same folder is refused.
"""

import json
import shutil
import uuid
from pathlib import Path

import ray
from ray.exceptions import RayError, RayTaskError
from tqdm import tqdm

from chuhan_cluster import shards, signature


class RunError(Exception):
    """The run cannot go on; the message says why."""


class Run:
    def __init__(self, folder: Path, description: dict):
        self.folder = folder
        meta = folder / "run.json"
        if meta.exists():
            known = json.loads(meta.read_text())
            if known["description"] != description:
                raise RunError(
                    f"{folder} holds another run ({meta}); give a new --out or the same command"
                )
            # The id names the shards' folders on the nodes: a resumed run finds them again.
            self.id = known["id"]
        else:
            self.id = uuid.uuid4().hex[:16]
            folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"id": self.id, "description": description}, indent=2)
            meta.write_text(text + "\n")

    def shard_folder(self, name: str) -> Path:
        return self.folder / "shards" / name

    def done(self, name: str) -> bool:
        return (self.shard_folder(name) / ".done").exists()

    def keep(self, name: str, files: dict) -> None:
        """Stores a finished shard's files, marked done only once all are written."""
        final = self.shard_folder(name)
        tmp = final.with_name(f"{name}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for file, data in files.items():
            (tmp / file).write_bytes(data)
        (tmp / ".done").touch()
        shutil.rmtree(final, ignore_errors=True)
        tmp.rename(final)

    def outputs(self, names: list, file: str) -> list:
        """`file` of every shard that wrote one, in shard order."""
        paths = [self.shard_folder(n) / file for n in names]
        return [p for p in paths if p.exists()]


def execute(run: Run, tasks: list, binary: str, expected: dict, cpus: float, retries: int):
    """Plays every shard of `tasks` without a mark on the cluster, keeping each as it ends."""
    remote = ray.remote(shards.play).options(
        num_cpus=cpus, max_retries=retries, retry_exceptions=[shards.ShardFailed]
    )
    pending = [t for t in tasks if not run.done(t.name)]
    refs = {remote.remote(binary, expected, t): t for t in pending}
    with tqdm(
        total=len(tasks), initial=len(tasks) - len(pending), unit="shard", desc=run.folder.name
    ) as bar:
        while refs:
            ready, _ = ray.wait(list(refs), num_returns=1)
            task = refs.pop(ready[0])
            try:
                files = ray.get(ready[0])
            except RayError as e:
                for ref in refs:
                    ray.cancel(ref, force=True)
                cause = e.cause if isinstance(e, RayTaskError) else e
                if isinstance(cause, signature.WrongBinary):
                    raise RunError(f"refused: {cause}") from None
                raise RunError(f"{task.name} failed: {cause}") from None
            run.keep(task.name, files)
            bar.update()
