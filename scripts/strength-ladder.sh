#!/bin/bash
# Calibrates UCI_Elo: reruns the strength ladder of STRENGTH.md ("Strength limiting") with a build.
#
#   scripts/strength-ladder.sh CHUHAN ELEEYE ELEEYE_DIR OUT_DIR
#
# Each calibrated skill (the points of CALIBRATION in src/search/strength.rs, reached exactly by
# setting UCI_Elo to the point's Elo) plays the next one 60 games; the top skill, ElephantEye
# (run in ELEEYE_DIR, its book turned off) and full strength play a round robin, 40 games a
# pair; all at 10+0.1 on the master-game openings. Then one rating fit over all games with
# ElephantEye at 2000. A pair whose log is complete is not played again, and one that was
# stopped goes on from its PGN (`match --resume`), so a stopped run resumes. GAMES (pairs),
# ANCHOR_GAMES and CONCURRENCY override the defaults.
set -euo pipefail
[ $# -eq 4 ] || { sed -n 2,12p "$0"; exit 2; }
chuhan=$(realpath "$1") eleeye=$(realpath "$2") eleeye_dir=$(realpath "$3") out=$4
root=$(dirname "$(realpath "$0")")/..
openings=$root/bench-positions/master-openings.epd
mkdir -p "$out" && cd "$out"

# (skill, Elo) points, weakest first.
mapfile -t points < <(grep -E '^\s*\([0-9.]+, [0-9.]+\),' "$root/src/search/strength.rs" |
  sed -E 's/[^0-9.]+/ /g' | awk '{printf "%d %d\n", $1, $2}')
[ ${#points[@]} -ge 2 ] || { echo "no CALIBRATION points found" >&2; exit 1; }

done_log() { [ -s "$1" ] && grep -q '^terminations' "$1"; }
# --resume where a stopped run left games in the PGN.
resume() { [ -s "$1" ] && echo --resume; true; }
limited() { echo "cmd=$chuhan" "name=s$1" option.UCI_LimitStrength=true "option.UCI_Elo=$2"; }

for ((i = 0; i + 1 < ${#points[@]}; i++)); do
  read -r sa ea <<<"${points[i]}"
  read -r sb eb <<<"${points[i + 1]}"
  name=s$sa-s$sb
  done_log $name.log && continue
  # shellcheck disable=SC2046 # one setting per word
  "$chuhan" match --engine $(limited "$sa" "$ea") --engine $(limited "$sb" "$eb") \
    --games "${GAMES:-60}" --tc 10+0.1 --openings "$openings" --seed 5 --time-margin 200 \
    --concurrency "${CONCURRENCY:-2}" --pgn $name.pgn $(resume $name.pgn) >$name.log 2>&1
  tail -n 4 $name.log
done

read -r top etop <<<"${points[${#points[@]} - 1]}"
if ! done_log anchor.log; then
  # shellcheck disable=SC2046
  "$chuhan" match --engine "cmd=$eleeye" name=eleeye proto=ucci "dir=$eleeye_dir" option.usebook=false \
    --engine $(limited "$top" "$etop") --engine "cmd=$chuhan" name=full \
    --games "${ANCHOR_GAMES:-40}" --tc 10+0.1 --openings "$openings" --seed 6 --time-margin 200 \
    --concurrency "${CONCURRENCY:-2}" --pgn anchor.pgn $(resume anchor.pgn) >anchor.log 2>&1
  tail -n 6 anchor.log
fi
python3 "$root/scripts/elo-ladder.py" --anchor eleeye=2000 --bootstrap 300 anchor.pgn s*-s*.pgn
