"""Spreads chuhan's games (self-play data, matches, SPSA iterations) over a Ray cluster.

The chuhan binary does the work and owns the rules: it plays exactly shard K of N of a run
(`--shard K/N`) and joins the shards (`datagen merge`, `match merge`, `tune spsa --record`).
This package only sends one Ray task per shard, retries what fails, keeps what finished so
that a stopped run resumes, and gathers the outputs into one folder.
"""
