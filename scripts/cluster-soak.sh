#!/usr/bin/env bash
# The soak of issue 35: 1,000 games through the Ray driver on a local cluster, chuhan against
# itself (pondering, one side on two threads) and against the reference engines, at 2+0.02 on
# master openings; then every run's terminations and the count of time forfeits, illegal or
# malformed moves, crashes and hangs over all of them.
#
#   scripts/cluster-soak.sh PYTHON REFS OUT
#
# PYTHON: a Python with cluster/requirements.lock installed; REFS: a folder with the reference
# engines built from their sources (eleeye, fairy-stockfish, pikafish-hce); OUT: the runs'
# folders (a stopped soak started again goes on from the finished shards). CHUHAN: the chuhan
# binary (default target/release/chuhan; a copy keeps a rebuild from changing it mid-soak).
set -euo pipefail
cd "$(dirname "$0")/.."
py=$1 refs=$2 out=$3
chuhan=$(realpath "${CHUHAN:-target/release/chuhan}")
mkdir -p "$out/eleeye-dir"   # ElephantEye's folder, without BOOK.DAT: its book off
common=(--tc 2+0.02 --openings bench-positions/master-openings.epd --concurrency 1)
me=(--engine "cmd=$chuhan" name=chuhan)
run() { # NAME CPUS-PER-TASK SEED ENGINES…
    local name=$1 cpus=$2 seed=$3
    shift 3
    PYTHONPATH=cluster "$py" -m chuhan_cluster --binary "$chuhan" --local-cpus 2 --shards 10 \
        --cpus-per-task "$cpus" --out "$out/$name" match -- \
        "$@" "${common[@]}" --games 200 --seed "$seed"
}
run self-ponder 2 61 --engine "cmd=$chuhan" name=chuhan-t2 ponder=on option.Threads=2 \
    --engine "cmd=$chuhan" name=chuhan ponder=on
run eleeye 1 62 "${me[@]}" --engine "cmd=$refs/eleeye" name=eleeye proto=ucci \
    "dir=$out/eleeye-dir"
run fairy-stockfish 1 63 "${me[@]}" --engine "cmd=$refs/fairy-stockfish" name=fairy-stockfish \
    proto=ucci
run pikafish-hce 1 64 "${me[@]}" --engine "cmd=$refs/pikafish-hce" name=pikafish-hce
run pikafish-hce-ponder 2 65 --engine "cmd=$chuhan" name=chuhan-t2 ponder=on option.Threads=2 \
    --engine "cmd=$refs/pikafish-hce" name=pikafish-hce ponder=on
echo "== all runs"
for r in self-ponder eleeye fairy-stockfish pikafish-hce pikafish-hce-ponder; do
    printf '%s: ' "$r"
    grep -h '^terminations' "$out/$r/report.txt"
done
games=$(cat "$out"/*/games.pgn | grep -c '^\[Round ')
bad=$(cat "$out"/*/games.pgn | grep -cE '^\[Termination ".*(loses on time|illegal move|malformed move|crashed|stopped responding)' || true)
echo "games: $games; time forfeits, illegal or malformed moves, crashes and hangs: $bad"
