#!/usr/bin/env bash
# SPRT of a change: builds two revisions of chuhan into separate folders and plays them
# against each other with `chuhan match` until the SPRT decides.
#
#   scripts/sprt.sh <base-rev> [<new-rev>] [-- extra chuhan match arguments]
#
# Without <new-rev> the new engine is the working tree as it is (uncommitted edits included).
# Each revision is exported with `git archive` into target/sprt/src-<sha>/ and built with its
# own target dir, so builds are cached between runs and never disturb the working tree.
# Defaults (override through the environment): TC=10+0.1 GAMES=20000 (an upper bound: the SPRT
# stops first) CONCURRENCY=<cores> SPRT=elo0=0,elo1=5,alpha=0.05,beta=0.05 HASH=16 (MB) and
# OPENINGS=bench-positions/openings.epd. The PGN lands in target/sprt/<base>-<new>.pgn.
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
base_rev=$1
shift
new_rev=
if [[ $# -gt 0 && $1 != -- ]]; then
    new_rev=$1
    shift
fi
[[ ${1:-} == -- ]] && shift

root=$(git rev-parse --show-toplevel)
cd "$root"
out="$root/target/sprt"
mkdir -p "$out"

# Builds revision $1 and prints the path of its binary.
build_rev() {
    local sha src
    sha=$(git rev-parse --short=12 "$1^{commit}")
    src="$out/src-$sha"
    if [[ ! -x "$src/bin/chuhan" ]]; then
        rm -rf "$src"
        mkdir -p "$src"
        git archive "$sha" | tar -x -C "$src"
        echo "building $1 ($sha)" >&2
        (cd "$src" && CARGO_TARGET_DIR="$src/target" cargo build --release --quiet --bin chuhan)
        mkdir -p "$src/bin"
        cp "$src/target/release/chuhan" "$src/bin/chuhan"
    fi
    echo "$src/bin/chuhan"
}

echo "building the working tree (runner and, without <new-rev>, the new engine)" >&2
cargo build --release --quiet --bin chuhan
runner="$root/target/release/chuhan"
base_bin=$(build_rev "$base_rev")
base_name=$(git rev-parse --short=8 "$base_rev^{commit}")
if [[ -n $new_rev ]]; then
    new_bin=$(build_rev "$new_rev")
    new_name=$(git rev-parse --short=8 "$new_rev^{commit}")
else
    # A copy, so rebuilding the working tree mid-match cannot swap the engine under it.
    new_bin="$out/chuhan-worktree"
    cp "$runner" "$new_bin"
    new_name="worktree"
fi

exec "$runner" match \
    --engine "cmd=$new_bin" "name=$new_name" proto=auto "option.Hash=${HASH:-16}" \
    --engine "cmd=$base_bin" "name=$base_name" proto=auto "option.Hash=${HASH:-16}" \
    --tc "${TC:-10+0.1}" \
    --games "${GAMES:-20000}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --openings "${OPENINGS:-$root/bench-positions/openings.epd}" \
    --seed "${SEED:-1}" \
    --sprt "${SPRT:-elo0=0,elo1=5,alpha=0.05,beta=0.05}" \
    --pgn "$out/$base_name-$new_name.pgn" \
    "$@"
